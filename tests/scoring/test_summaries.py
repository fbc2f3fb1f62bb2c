"""Quick summaries of Triomphe, Écarté, L'Impériale and Le Vingt-quatre (docs/deal-record.md "Quick summaries").

Expected values are worked by hand from RULES.md (section cited on each test); the property test checks that a
summary taken from a random legal play-out scores the same as the play-out.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import ecarte, imperiale, vingt_quatre
from rules.cards import ACE, JACK, KING, PIQUET_32, QUEEN, SUIT, card, format_card
from rules.errors import MalformedRecord
from rules.play import DealState, play_out_randomly
from rules.record import read_record
from rules.replay import replay
from scoring.verdict import judge


def deal(game: str, players: list[str], **fields: Any) -> dict[str, Any]:
    return {"format": "levee.deal/1", "game": game, "players": players, **fields}


def rules_of(verdict) -> list[str]:
    return [v.rule for v in verdict.violations]


# -- La Triomphe (RULES.md §2.4) ---------------------------------------------------------------------

def tri(summary: dict[str, Any], players: tuple[str, ...] = ("Ana", "Bruno"), **fields: Any):
    return judge(deal("triomphe", list(players), dealer=fields.pop("dealer", 1), turn_up="9H", summary=summary,
                      **fields))


def test_triomphe_point_vole_and_vole_engagee() -> None:
    assert tri({"tricks": [3, 2]}).deals[0].scores == [1, 0]  # rule 9: most tricks, 1 point
    assert tri({"tricks": [2, 3]}).deals[0].scores == [0, 1]
    assert tri({"tricks": [0, 5]}).deals[0].scores == [0, 2]  # rule 10: the vole, 2
    assert tri({"tricks": [5, 0], "engaged": True}).deals[0].scores == [2, 0]
    # rule 11: committed after the first three tricks, a trick lost: −2, and the other scores nothing (rule 13)
    lost = tri({"tricks": [4, 1], "engaged": True}).deals[0]
    assert lost.scores == [-2, 0] and lost.result["marks"][0]["kind"] == "vole_failed"
    assert tri({"tricks": [3, 1], "engaged": True}).deals[0].scores == [-2, 0]  # the record stops at the lost trick
    # the same 4 tricks to 1 without the commitment (one of the first three lost): the point
    assert tri({"tricks": [4, 1]}).deals[0].scores == [1, 0]
    # rule 11: three first tricks, cards laid down: 1
    assert tri({"tricks": [3, 0]}, stopped=True).deals[0].scores == [1, 0]


def test_triomphe_ties_go_by_primaute() -> None:
    names = ("Ana", "Bruno", "Chloé")
    # rule 9: the tied player nearest the first hand wins; dealer 2 → first hand 0, then 1, then 2
    assert tri({"tricks": [2, 2, 1]}, names, dealer=2).deals[0].scores == [1, 0, 0]
    assert tri({"tricks": [1, 2, 2]}, names, dealer=2).deals[0].scores == [0, 1, 0]
    # dealer 0 → order 1, 2, 0: between seats 0 and 1, seat 1 comes first
    assert tri({"tricks": [2, 2, 1]}, names, dealer=0).deals[0].scores == [0, 1, 0]


def test_triomphe_abandon_du_point() -> None:
    # rule 12: accepted → +1 to the accepting party, deal over
    assert tri({"tricks": [0, 0]}, abandon={"by": 0, "accepted": True}).deals[0].scores == [0, 1]
    assert tri({"tricks": [1, 0]}, abandon={"by": 0, "accepted": True}).deals[0].scores == [0, 1]
    assert "play_after_abandon" in rules_of(tri({"tricks": [2, 0]}, abandon={"by": 0, "accepted": True}))
    # refused → the refusing party must make the vole: +2, or −2 at the first trick lost
    assert tri({"tricks": [0, 5]}, abandon={"by": 0, "accepted": False}).deals[0].scores == [0, 2]
    assert tri({"tricks": [1, 4]}, abandon={"by": 0, "accepted": False}).deals[0].scores == [0, -2]
    assert tri({"tricks": [1, 0]}, abandon={"by": 0, "accepted": False}).deals[0].scores == [0, -2]


def test_triomphe_teams_per_side_or_per_seat() -> None:
    names = ("Ana", "Bruno", "Chloé", "David")
    teams = {"options": {"teams": [[0, 1], [2, 3]]}, "dealer": 3}
    assert tri({"tricks": [3, 2]}, names, **teams).deals[0].scores == [1, 1, 0, 0]
    assert tri({"tricks": [1, 2, 2, 0]}, names, **teams).deals[0].scores == [1, 1, 0, 0]
    assert tri({"tricks": [1, 0, 2, 1]}, names, **teams, abandon={"by": 0, "accepted": False}).deals[0].scores \
        == [0, 0, -2, -2]


def test_triomphe_impossible_summaries() -> None:
    too_many = tri({"tricks": [3, 3]})
    assert rules_of(too_many) == ["summary_tricks_total"] and too_many.deals[0].scores is None
    assert rules_of(tri({"tricks": [2, 2], "engaged": True})) == ["summary_engaged"]
    unfinished = tri({"tricks": [3, 1]})
    assert rules_of(unfinished) == ["summary_incomplete"]
    assert unfinished.violations[0].message("fr").startswith("Le résumé compte 4 plis sur 5")
    assert rules_of(tri({"tricks": [2, 1]}, stopped=True)) == ["stop_not_allowed"]
    for bad, where in (({"tricks": [3]}, "summary.tricks"), ({"tricks": [3, -2]}, "summary.tricks"),
                       ({"tricks": [3, 2], "vole": True}, "summary.vole"),
                       ({"tricks": [3, 2], "engaged": "oui"}, "summary.engaged"), ([3, 2], "summary")):
        with pytest.raises(MalformedRecord) as caught:
            tri(bad)  # type: ignore[arg-type]
        assert caught.value.field == where


TRIOMPHE_HANDS = {"dealer": 0, "turn_up": "9H",
                  "hands": [["KS", "QS", "7H", "8D", "9C"], ["AS", "10H", "JD", "7C", "8C"]],
                  # Bruno leads AS, Ana KS; Ana QS, Bruno trumps 10H; Bruno JD, Ana 8D; Bruno 7C, Ana 9C;
                  # Ana 7H, Bruno 8C
                  "tricks": [["AS", "KS"], ["QS", "10H"], ["JD", "8D"], ["7C", "9C"], ["7H", "8C"]]}


def test_triomphe_summary_beside_the_tricks_must_agree() -> None:
    # tricks: Ana, Bruno, Bruno, Ana, Ana → Ana 3, Bruno 2: the point to Ana
    plain = judge(deal("triomphe", ["Ana", "Bruno"], **TRIOMPHE_HANDS))
    assert plain.legal and plain.deals[0].scores == [1, 0]
    agreeing = judge(deal("triomphe", ["Ana", "Bruno"], **TRIOMPHE_HANDS, summary={"tricks": [3, 2]}))
    assert agreeing.legal and agreeing.deals[0].scores == [1, 0]
    wrong = judge(deal("triomphe", ["Ana", "Bruno"], **TRIOMPHE_HANDS, summary={"tricks": [2, 3], "engaged": True}))
    assert rules_of(wrong) == ["summary_mismatch", "summary_mismatch"]  # the tricks, and the vole engagée
    assert wrong.deals[0].scores == [1, 0]  # the tricks are the score
    assert "les plis gagnés, 2, 3 dans le résumé, 3, 2 d'après les plis" in wrong.violations[0].message("fr")


# -- L'Écarté (RULES.md §3.4, §3.6, §3.7) -----------------------------------------------------------

def eca(summary: dict[str, Any], exchanges: list[dict[str, Any]] | None, players=("Ana", "Bruno"),
        **fields: Any):
    extra = {"exchanges": exchanges} if exchanges is not None else {}
    return judge(deal("ecarte", list(players), dealer=fields.pop("dealer", 1), turn_up=fields.pop("turn_up", "9H"),
                      summary=summary, **extra, **fields))


AUTORITE = [{"seat": 0, "action": "play"}]  # Ana (first hand, dealer Bruno) plays d'autorité
REFUSED = [{"seat": 0, "action": "propose"}, {"seat": 1, "action": "refuse"}]


def test_ecarte_point_vole_and_refusal() -> None:
    assert eca({"tricks": [3, 2]}, AUTORITE).deals[0].scores == [1, 0]  # rule 12: the point
    # rule 13a: Ana played d'autorité and the dealer wins: 1 + the point de refus
    assert eca({"tricks": [2, 3]}, AUTORITE).deals[0].scores == [0, 2]
    # rule 13b: Bruno refused the proposal and Ana wins: 2
    assert eca({"tricks": [4, 1]}, REFUSED).deals[0].scores == [2, 0]
    # rule 14: vole and refusal are not cumulative
    assert eca({"tricks": [0, 5]}, AUTORITE).deals[0].scores == [0, 2]
    # rule 4: a turned king gives the dealer 1 at once, and then the deal
    assert eca({"tricks": [3, 2]}, AUTORITE, turn_up="KH").deals[0].scores == [1, 1]


def test_ecarte_a_trois_and_a_quatre() -> None:
    names = ("Ana", "Bruno", "Chloé")
    play = [{"seat": 0, "action": "play"}]  # dealer 2: first hand 0
    # rule 23: 2-2-1, the point to the first to two tricks; rule 24: the refuser (Ana, d'autorité) does not win,
    # so the third player (Bruno) scores the point de refus
    scored = eca({"tricks": [2, 1, 2], "first_to_two": 2}, play, names, dealer=2).deals[0]
    assert scored.scores == [0, 1, 1]
    missing = eca({"tricks": [2, 1, 2]}, play, names, dealer=2)
    assert rules_of(missing) == ["summary_first_to_two_missing"] and missing.deals[0].scores is None
    assert rules_of(eca({"tricks": [2, 1, 2], "first_to_two": 1}, play, names, dealer=2)) == ["summary_first_to_two"]
    # §3.7: two teams (0, 2) and (1, 3), given per side
    four = ("Ana", "Bruno", "Chloé", "David")
    assert eca({"tricks": [3, 2]}, None, four, dealer=3).deals[0].scores == [1, 0, 1, 0]
    assert eca({"tricks": [1, 1, 2, 1]}, None, four, dealer=3).deals[0].scores == [1, 0, 1, 0]


@pytest.mark.parametrize(("summary", "scores"), [
    ({"tricks": [3, 2], "declined_by": 0}, [1, 0]),   # Ana played d'autorité and wins: the point alone (r13)
    ({"tricks": [2, 3], "declined_by": 0}, [0, 2]),   # ... and the dealer wins: point + refus (r13a)
    ({"tricks": [3, 2], "declined_by": 1}, [2, 0]),   # Bruno refused, Ana wins: point + refus (r13b)
    ({"tricks": [5, 0], "declined_by": 1}, [2, 0]),   # the vole, the refusal not on top (r14)
    ({"tricks": [3, 2], "declined_by": None}, [1, 0]),  # cards exchanged: no refusal point
    ({"tricks": [3, 2], "declined_by": None, "turned_king": True}, [1, 1]),  # the dealer's turned king (r4)
])
def test_ecarte_summary_without_the_retourne_and_the_steps(summary: dict[str, Any], scores: list[int]) -> None:
    """The « Résumé » asks the turned king and who declined the exchange instead of the retourne and the steps:
    the same marks as the full declarations (RULES.md §3.4; dealer Bruno, Ana first hand)."""
    assert eca(summary, None, turn_up=None).deals[0].scores == scores


def test_ecarte_summary_extras_must_agree_with_the_declarations() -> None:
    found = eca({"tricks": [3, 2], "turned_king": False, "declined_by": 0}, AUTORITE, turn_up="KH")
    assert rules_of(found) == ["summary_mismatch"] and found.deals[0].scores is None
    assert rules_of(eca({"tricks": [3, 2], "declined_by": 1}, AUTORITE)) == ["summary_mismatch"]
    assert eca({"tricks": [3, 2], "declined_by": 0}, AUTORITE).deals[0].scores == [1, 0]
    # the target set by the retourne needs it (A-E5)
    with pytest.raises(MalformedRecord) as caught:
        judge(deal("ecarte", ["Ana", "Bruno"], dealer=1, options={"players": 2, "target": "retourne"},
                   summary={"tricks": [3, 2], "declined_by": 0}))
    assert caught.value.field == "turn_up"


def test_ecarte_summary_needs_the_exchange_and_five_tricks() -> None:
    with pytest.raises(MalformedRecord) as caught:
        eca({"tricks": [3, 2]}, None)
    assert caught.value.field == "summary.declined_by"  # who declined the exchange, or the exchange's steps
    assert rules_of(eca({"tricks": [3, 1]}, AUTORITE)) == ["summary_tricks_total"]


# -- L'Impériale (RULES.md §4.2, §4.3) --------------------------------------------------------------

def imp_match(*deals: dict[str, Any]):
    return judge({"format": "levee.match/1", "game": "imperiale", "players": ["Ana", "Bruno"], "deals": list(deals)})


FIRST = {"dealer": 0, "turn_up": "7S",  # the 7 of trumps is an honour: the dealer's jeton (rule 7)
         "summary": {"tricks": [8, 4],
                     "honours": [{"seat": 1, "cards": ["AS", "KS"]}, {"seat": 0, "cards": ["QS", "JS"]}]}}


def test_imperiale_summary_jetons() -> None:
    verdict = imp_match(FIRST)
    assert verdict.legal
    result = verdict.deals[0].result
    # Ana: retourne 1 + honours 2 + les cartes 8 − 6 = 2 → 5 jetons; Bruno: 2 honours → 2 jetons
    assert result["jetons"] == [5, 2] and verdict.deals[0].scores == [0, 0]
    assert [m["step"] for m in result["marks"]] == ["retourne", "honours", "honours", "cartes"]


@pytest.mark.parametrize(("honours", "fiches", "jetons"), [
    # Ana's sixth jeton first: an impériale, Bruno's 2 jetons erased; then Bruno's four honours → 4 (rule 13)
    ([{"seat": 0, "cards": ["AH"]}, {"seat": 1, "cards": ["KH", "QH", "JH", "7H"]}], [1, 0], [0, 4]),
    # Bruno's honours first: 2 + 4 = 6, an impériale, Ana's 5 jetons erased; then Ana's ace → 1
    ([{"seat": 1, "cards": ["KH", "QH", "JH", "7H"]}, {"seat": 0, "cards": ["AH"]}], [0, 1], [1, 0]),
])
def test_imperiale_the_order_of_the_honours_decides(honours, fiches, jetons) -> None:
    second = {"dealer": 1, "turn_up": "8H", "summary": {"tricks": [6, 6], "honours": honours}}
    verdict = imp_match(FIRST, second)
    assert verdict.legal
    assert verdict.totals == fiches and verdict.deals[1].result["jetons"] == jetons


def test_imperiale_capote_and_tombee_from_a_summary() -> None:
    every = [{"seat": 0, "cards": ["AS", "KS", "QS", "JS", "7S"]}]
    capote = judge(deal("imperiale", ["Ana", "Bruno"], dealer=1, turn_up="8S", options={"imperiale_tombee": True},
                        summary={"tricks": [12, 0], "honours": every}))
    assert capote.legal
    steps = [(m["step"], m["fiches"]) for m in capote.deals[0].result["marks"]]
    # rule 11: the impériale tombée (1), then the capote (2) instead of les cartes
    assert steps == [("honours", 0), ("imperiale_tombee", 1), ("capote", 2)]
    assert capote.deals[0].scores == [3, 0]


def test_imperiale_impossible_summaries() -> None:
    def bad(summary: dict[str, Any], **fields: Any) -> list[str]:
        return rules_of(judge(deal("imperiale", ["Ana", "Bruno"], dealer=0, turn_up=fields.pop("turn_up", "8S"),
                                   summary=summary, **fields)))

    assert bad({"tricks": [7, 6]}) == ["summary_tricks_total"]
    assert bad({"tricks": [7, 5], "honours": [{"seat": 0, "cards": ["10S"]}]}) == ["summary_not_honour"]
    assert bad({"tricks": [7, 5], "honours": [{"seat": 0, "cards": ["AS"]}, {"seat": 1, "cards": ["AS"]}]}) \
        == ["summary_honour_twice"]
    assert bad({"tricks": [12, 0], "honours": [{"seat": 1, "cards": ["AS"]}]}) == ["summary_honour_without_trick"]
    # at 2 players the retourne is in no hand: nobody takes it
    assert bad({"tricks": [7, 5], "honours": [{"seat": 0, "cards": ["7S"]}]}, turn_up="7S") \
        == ["summary_honour_not_played"]
    # at 3 the whole pack is dealt: every honour is taken by somebody
    three = judge(deal("imperiale", ["Ana", "Bruno", "Chloé"], dealer=0, turn_up="8S",
                       summary={"tricks": [4, 4, 4], "honours": [{"seat": 0, "cards": ["AS"]}]}))
    assert rules_of(three) == ["summary_honours_missing"]
    assert "roi de pique" in three.violations[0].message("fr")


# -- Le Vingt-quatre (RULES.md §5) ------------------------------------------------------------------

FOUR = ["Ana", "Bruno", "Chloé", "David"]


def test_vingt_quatre_summary() -> None:
    # clubs are trump, honours aux figures (9, 10, V, D, R of clubs); the virade 2C is not one
    verdict = judge(deal("vingt-quatre", FOUR, dealer=3, turn_up="2C", summary={
        "tricks": [4, 3, 3, 2],
        "honours": [{"seat": 1, "cards": ["KC", "QC"]}, {"seat": 0, "cards": ["9C"]},
                    {"seat": 2, "cards": ["10C", "JC"]}]}))
    assert verdict.legal
    # honours 1 jeton each to the taker; la carte (most tricks: Ana, 4) 1 jeton (§5 rule 4)
    assert verdict.deals[0].scores == [2, 2, 2, 0]
    tie = judge(deal("vingt-quatre", FOUR, dealer=1, turn_up="2C", summary={"tricks": [3, 3, 3, 3]}))
    # a tie for la carte goes by primauté: dealer 1, so Chloé (seat 2) is first hand
    assert tie.deals[0].scores == [0, 0, 1, 0]


@pytest.mark.parametrize(("first", "winner"), [(1, 1), (0, 0)])
def test_vingt_quatre_the_first_to_the_target_wins_at_once(first: int, winner: int) -> None:
    honours = [{"seat": first, "cards": ["KC"]}, {"seat": 1 - first, "cards": ["9C"]}]
    verdict = judge(deal("vingt-quatre", FOUR, options={"target": 4}, dealer=3, turn_up="2C",
                         summary={"tricks": [3, 3, 3, 3], "honours": honours}))
    assert verdict.winner == winner and verdict.deals[0].result["partie_won_by"] == winner


def test_vingt_quatre_impossible_summaries() -> None:
    def bad(summary: dict[str, Any], turn_up: str = "2C") -> list[str]:
        return rules_of(judge(deal("vingt-quatre", FOUR, dealer=3, turn_up=turn_up, summary=summary)))

    assert bad({"tricks": [4, 3, 3, 3]}) == ["summary_tricks_total"]
    assert bad({"tricks": [3, 3, 3, 3], "honours": [{"seat": 0, "cards": ["AC"]}]}) == ["summary_not_honour"]
    assert bad({"tricks": [3, 3, 3, 3], "honours": [{"seat": 0, "cards": ["KC"]}]}, turn_up="KC") \
        == ["summary_honour_not_played"]


# -- a summary scores as its play-out -----------------------------------------------------------------

HONOUR_RANKS = {"imperiale": (ACE, KING, QUEEN, JACK, 7), "figures": (9, 10, JACK, QUEEN, KING)}


def random_triomphe(rng: random.Random) -> dict[str, Any]:
    players = rng.choice([2, 3, 4])
    pack = list(PIQUET_32)
    rng.shuffle(pack)
    hands = [pack[5 * i:5 * i + 5] for i in range(players)]
    data = deal("triomphe", [f"J{i}" for i in range(players)], dealer=rng.randrange(players),
                turn_up=format_card(pack[5 * players]), hands=[[format_card(c) for c in h] for h in hands])
    if players == 4 and rng.random() < 0.5:
        data["options"] = {"teams": [[0, 1], [2, 3]]}
    record = read_record(data)
    d = record.deals[0]
    rules = record.game.deal_rules(record.options, d.raw, players=players, field="")
    data["tricks"] = play_out_randomly(DealState(rules, rules.setup([sum(1 << c for c in h) for h in hands]).hands),
                                       rng)
    return data


def summary_of(data: dict[str, Any]) -> dict[str, Any]:
    """The summary of a played-out record, from the trick winners of the replay and the honours of RULES.md."""
    replayed = replay(data).deals[0]
    game = data["game"]
    players = len(data["players"])
    won = [0] * players
    for trick in replayed.tricks:
        won[trick.winner] += 1
    summary: dict[str, Any] = {"tricks": won}
    if game == "triomphe":
        winners = [t.winner for t in replayed.tricks]
        teams = data.get("options", {}).get("teams")
        side = (lambda s: 0 if s in teams[0] else 1) if teams else (lambda s: s)
        summary["engaged"] = len({side(w) for w in winners[:3]}) == 1
    elif game == "ecarte":
        counts = [0] * players
        for trick in replayed.tricks:
            counts[trick.winner] += 1
            if counts[trick.winner] == 2:
                summary["first_to_two"] = trick.winner
                break
    else:
        trump = SUIT[replayed.rules.turn_up]
        if game == "imperiale":
            ranks = (ACE, KING, QUEEN, JACK, 7 if players == 2 else 6)
        else:
            ranks = HONOUR_RANKS["figures"] if replayed.rules.honours_convention == "figures" else (ACE, 2, 3, 4, 5)
        honours = {card(r, trump) for r in ranks}
        summary["honours"] = [{"seat": t.winner, "cards": [format_card(c) for c in t.cards if c in honours]}
                              for t in replayed.tricks if honours & set(t.cards)]
    return summary


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100_000), st.sampled_from(["triomphe", "ecarte", "imperiale", "vingt-quatre"]))
def test_a_summary_scores_as_its_playout(seed: int, game: str) -> None:
    rng = random.Random(seed)
    data = {"triomphe": lambda: random_triomphe(rng),
            "ecarte": lambda: ecarte.random_record(rng, players=rng.choice([2, 3, 4])),
            "imperiale": lambda: imperiale.random_record(rng, players=rng.choice([2, 3])),
            "vingt-quatre": lambda: vingt_quatre.random_record(rng, players=rng.choice([4, 5]))}[game]()
    played = judge(data)
    assert played.legal
    summary = summary_of(data)
    alone = judge({**{k: v for k, v in data.items() if k != "tricks"}, "summary": summary})
    assert alone.legal, [v.rule for v in alone.violations]
    assert alone.deals[0].scores == played.deals[0].scores
    assert alone.totals == played.totals and alone.winner == played.winner
    both = judge({**data, "summary": summary})
    assert both.legal and both.deals[0].scores == played.deals[0].scores


def test_a_summary_that_does_not_match_the_tricks_says_so_in_words() -> None:
    """``summary_mismatch`` names the field and its values in the table's words, never the record's key or a JSON
    list (issue 20: « tricks vaut [3, 2] »)."""
    found = eca({"tricks": [3, 2], "turned_king": False, "declined_by": 1}, AUTORITE, turn_up="KH")
    texts = [v.message("fr", ["Ana", "Bruno"]) for v in found.violations]
    assert texts == ["Le résumé ne correspond pas aux plis : le roi retourné, non dans le résumé, oui d'après les "
                     "plis.",
                     "Le résumé ne correspond pas aux plis : l'échange refusé par, joueur 2 dans le résumé, joueur 1 "
                     "d'après les plis."]
    english = found.violations[0].message("en", ["Ana", "Bruno"])
    assert english == "The summary does not match the tricks: the king turned, no in the summary, yes from the tricks."
    assert found.violations[0].params["field"] == "turned_king"  # the key stays for programs
