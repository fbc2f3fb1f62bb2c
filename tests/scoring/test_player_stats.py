"""A player's statistics on a small event, checked by hand against the records (tests/golden) and the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoring.player_stats import SeenDeal, player_stats, tarot_stats
from scoring.verdict import judge

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def load(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / f"{name}.json").read_text())


def stored(record: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each deal of a record as the service stores it: its own record and its verdict's slice (one deal)."""
    full = judge(record).to_json("fr")
    if record["format"] == "levee.deal/1":
        return [(record, full)]
    head = {k: v for k, v in record.items() if k != "deals"}
    return [({**head, "format": "levee.deal/1", **deal}, {**full, "deals": [full["deals"][i]]})
            for i, deal in enumerate(record["deals"])]


def seen(names: list[str], seat: int) -> list[SeenDeal]:
    out = []
    for name in names:
        record = load(name)
        out += [SeenDeal(record["game"], r, v, seat) for r, v in stored(record)]
    return out


# Ana's Tarot event, five deals (seat 0 in each record):
# 1. tarot-garde-4p: David takes a garde and makes it (43 with 2 bouts, 41 needed): Ana defends, not defeated.
# 2. tarot-called-king-5p: David's garde calls the KS, which Ana holds: Ana partner; 32 with 0 bouts, fallen.
# 3. tarot-mort-5p: Émile's garde sans made (53 with 1 bout, 51 needed): Ana defends, not defeated.
# 4. tarot-petite-3p: Ana takes a petite, 41.5 with 0 bouts (56 needed): fallen.
# 5. tarot-summary-fft-106 (a summary, no tricks): Ana's garde made (49 with 2 bouts), petit au bout by the attack,
#    her simple poignée.
TAROT = ["tarot-garde-4p", "tarot-called-king-5p", "tarot-mort-5p", "tarot-petite-3p", "tarot-summary-fft-106"]


def test_tarot_figures_of_ana_by_hand():
    stats = tarot_stats(seen(TAROT, 0))
    assert stats.deals == 5
    taken = stats.figure("taken")
    assert (taken.value, taken.made) == (2, 1)  # the petite fallen, the garde made: 1 of 2, 50 %
    assert taken.text() == "2 prises, 1 réussie (50 %)"
    assert (stats.figure("taken_petite").value, stats.figure("taken_petite").made) == (1, 0)
    assert (stats.figure("taken_garde").value, stats.figure("taken_garde").made) == (1, 1)
    assert stats.figure("taken_garde_sans").value == 0 and stats.figure("taken_garde_contre").value == 0
    assert (stats.figure("partner").value, stats.figure("partner").made) == (1, 0)
    assert (stats.figure("defence").value, stats.figure("defence").made) == (2, 0)  # no contract defeated
    assert stats.figure("petit_won").value == 1 and stats.figure("petit_lost").value == 0
    assert stats.figure("handful_simple").value == 1 and stats.figure("handful_double").value == 0
    assert stats.figure("chelem_made").value == 0 and stats.figure("chelem_conceded").value == 0
    # the summary has no tricks: the tricks figure says it lacks one deal of five
    tricks = stats.figure("tricks")
    assert tricks.missing == 1 and tricks.of == 5 and "détail absent de 1 donne sur 5" in tricks.text()


def test_tarot_figures_of_david_by_hand():
    # David (seat 3 in the four- and five-player records): taker in 1 (garde made) and 2 (garde fallen); defends
    # in 3 (Émile's garde sans made) and in 5 (Ana's garde made, her petit au bout: lost by David's camp)
    stats = tarot_stats(seen(["tarot-garde-4p", "tarot-called-king-5p", "tarot-mort-5p", "tarot-summary-fft-106"], 3))
    assert (stats.figure("taken_garde").value, stats.figure("taken_garde").made) == (2, 1)
    assert (stats.figure("defence").value, stats.figure("defence").made) == (2, 0)
    assert stats.figure("petit_lost").value == 1 and stats.figure("petit_won").value == 0
    assert stats.figure("partner").value == 0


def test_tricks_read_from_the_stored_verdict_and_not_available_from_summaries_alone():
    record = {"format": "levee.deal/1", "game": "tarot", "players": ["A", "B", "C", "D"], "tricks": [["x"]]}
    result = {"contract": "garde", "taker": 0, "partner": None, "defenders": [1, 2, 3], "made": True,
              "petit_au_bout": None, "handfuls": [], "chelem": "attack"}
    verdict = {"deals": [{"result": result, "tricks_won": [18, 0, 0, 0]}]}
    stats = tarot_stats([SeenDeal("tarot", record, verdict, 0), SeenDeal("tarot", record, verdict, 2)])
    # seat 0 took the 18 tricks (a chelem); seat 2 none: but one SeenDeal per seat, so the figure is 18 + 0
    assert stats.figure("tricks").value == 18
    assert tarot_stats([SeenDeal("tarot", record, verdict, 0)]).figure("chelem_made").value == 1
    assert tarot_stats([SeenDeal("tarot", record, verdict, 1)]).figure("chelem_conceded").value == 1
    only_summary = tarot_stats(seen(["tarot-summary-fft-106"], 0))
    assert only_summary.figure("tricks").value is None
    assert only_summary.figure("tricks").text() == "non disponible"


def test_a_tarot_deal_stored_without_its_result_is_replayed():
    record = load("tarot-petite-3p")
    stats = tarot_stats([SeenDeal("tarot", record, {}, 0)])
    # replayed by rules/: Ana's petite, fallen
    assert (stats.figure("taken_petite").value, stats.figure("taken_petite").made) == (1, 0)


def test_ecarte_marks_and_exchanges_by_hand():
    # ecarte-match-2p, Ana seat 0, Bruno seat 1:
    # deal 1: Ana proposes, Bruno accepts, both exchange; Ana wins 3 tricks: the point.
    # deal 2: Bruno (first hand) plays d'autorité and loses 2–3: the point and the refusal's point to Ana.
    # deal 3: Bruno turns up the KC (a point for the dealer), Ana proposes, Bruno refuses; Ana takes all 5: point
    #         and vole (the refusal's point is not added to a vole: the rule gives the vole to the attacker).
    ana, bruno = (player_stats(seen(["ecarte-match-2p"], seat))[0] for seat in (0, 1))
    assert ana.game == "ecarte" and ana.deals == 3
    assert [ana.figure(k).value for k in ("point", "vole", "refus", "king", "turned_king")] == [3, 1, 1, 0, 0]
    assert [ana.figure(k).value for k in ("proposed", "accepted", "refused", "autorite")] == [2, 0, 0, 0]
    assert [bruno.figure(k).value for k in ("point", "turned_king", "accepted", "refused", "autorite")] == [
        0, 1, 1, 1, 1]


def test_ecarte_summary_without_exchanges_marks_the_proposals_missing():
    record = {"format": "levee.deal/1", "game": "ecarte", "players": ["A", "B"], "options": {"players": 2},
              "summary": {"tricks": [3, 2]}}
    verdict = {"deals": [{"result": {"marks": [{"kind": "point", "seats": [0], "points": 1}]}}]}
    stats = player_stats([SeenDeal("ecarte", record, verdict, 0)])[0]
    assert stats.figure("point").value == 1
    assert stats.figure("proposed").value is None and stats.figure("proposed").text() == "non disponible"


def test_triomphe_marks_by_hand():
    # triomphe-match-2p: 1 point Ana; 2 vole Bruno; 3 Ana's vole engagée missed; 4 point Bruno (stopped);
    # 5 Ana concedes (abandon): Bruno's point; 6 vole Bruno (abandon refused)
    ana, bruno = (player_stats(seen(["triomphe-match-2p"], seat))[0] for seat in (0, 1))
    assert [ana.figure(k).value for k in ("point", "vole", "vole_failed", "abandon_received", "abandon_conceded")
            ] == [1, 0, 1, 0, 1]
    assert [bruno.figure(k).value for k in ("point", "vole", "vole_failed", "abandon_received", "abandon_conceded")
            ] == [1, 2, 0, 1, 0]


def test_imperiale_impériales_by_hand():
    # imperiale-protected-retourne-and-end, Ana seat 0: deal 2 her quatrième majeure (AS KS QS JS) and the capote;
    # deal 3 the retourne (7C, dealer Ana) and two carrés (kings, queens). Bruno: the Point in deals 1 and 2,
    # the retourne in deal 2 (dealer), cartes blanches in deal 3.
    ana, bruno = (player_stats(seen(["imperiale-protected-retourne-and-end"], seat))[0] for seat in (0, 1))
    assert [ana.figure(k).value for k in ("imperiales", "capote", "retourne", "point")] == [3, 1, 1, 0]
    assert [bruno.figure(k).value for k in ("imperiales", "point", "retourne", "cartes_blanches")] == [0, 2, 1, 1]


def test_every_mark_s_label_is_written_out():
    """The walk: « Honneur retourné (le roi …) » on a player's page. L'Impériale's honours are the trump ace, king,
    queen, jack and seven (RULES.md §4.1 rule 5); the retourne that is one gives the dealer a jeton (§4.2 rule 7)."""
    from scoring.player_stats import MARK_KINDS

    for kinds in MARK_KINDS.values():
        for _pattern, _key, fr, en in kinds:
            assert "…" not in fr and "..." not in fr and "…" not in en and "..." not in en, (fr, en)
    imperiale = {key: (fr, en) for _p, key, fr, en in MARK_KINDS["imperiale"]}
    assert imperiale["retourne"] == ("Honneur retourné (as, roi, dame, valet ou sept d'atout)",
                                     "Honour turned up (ace, king, queen, jack or seven of trumps)")


def test_the_words_of_a_figure_agree_with_their_number():
    """French: singular below two (« 0 prise », « 1 réussie »), plural from two; never « (s) » on a page."""
    from scoring.player_stats import Figure, counted

    assert counted(0, "prise(s)") == "0 prise" and counted(1, "réussie(s)") == "1 réussie"
    assert counted(2, "contrat(s) chuté(s)") == "2 contrats chutés"
    assert Figure("taken", "Donnes prises", 0, 3, made=0).text() == "0 prise, 0 réussie"
    assert Figure("defence", "En défense", 3, 5, missing=2, made=1,
                  words=("donne(s)", "contrat(s) chuté(s)")).text() == \
        "3 donnes, 1 contrat chuté (33 %) — détail absent de 2 donnes sur 5"
    assert Figure("taken", "Deals taken", 1, 3, missing=1, made=1).text("en") == \
        "1 taken, 1 made (100 %) — detail missing from 1 deal of 3"
