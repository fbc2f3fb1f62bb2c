"""The entry description of each game (rules/entry.py) and the tap-to-play position (rules/tap.py)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import ecarte, imperiale, tarot, vingt_quatre
from rules.entry import KINDS, DeclarationField
from rules.game import all_games, get_game
from rules.replay import replay
from rules.tap import play_position

#: the deal fields of each game (docs/deal-record.md): a declaration names one of them
DEAL_FIELDS = {
    "tarot": {"dealer", "bid", "partner", "chelem_announced", "handfuls", "dog", "discard", "summary"},
    "triomphe": {"dealer", "turn_up", "talon", "pillage", "abandon", "stopped", "summary"},
    "ecarte": {"dealer", "turn_up", "talon", "exchanges", "king", "seats", "summary"},
    "imperiale": {"dealer", "turn_up", "announcements", "summary"},
    "vingt-quatre": {"dealer", "turn_up", "honours", "announcements", "summary"},
}
PACK_SIZES = {"tarot": 78, "triomphe": 32, "ecarte": 32, "imperiale": 32, "vingt-quatre": 52}


def every_form():
    for name, game in all_games().items():
        for players in game.player_counts:
            yield name, players, game.entry_form({"players": players})


def walk(fields: tuple[DeclarationField, ...]):
    for f in fields:
        yield f
        yield from walk(f.fields)


def test_every_game_describes_its_entry_as_json() -> None:
    for name, players, form in every_form():
        data = json.loads(json.dumps(form.to_json()))
        assert data["game"] == name and data["players"] == players
        names = [p["name"] for p in data["phases"]]
        assert "tricks" in names and names[0] in ("bid", "deal")
        assert {f.name.split(".")[0] for p in form.phases for f in p.fields} <= DEAL_FIELDS[name], name
        known = {f.name for p in form.phases for f in walk(p.fields)}
        for phase in form.phases:
            for f in walk(phase.fields):
                assert f.kind in KINDS and f.label and f.label[0].isupper()
                for cond in f.when:  # a deal field, or a sibling inside the same item
                    assert cond.field in known


def test_the_packs_in_order_with_french_names() -> None:
    for name, players, form in every_form():
        codes = [c.code for c in form.pack]
        expected = 36 if name == "imperiale" and players == 3 else PACK_SIZES[name]
        assert len(codes) == len(set(codes)) == expected
    form = get_game("tarot").entry_form()
    by_code = {c.code: c for c in form.pack}
    assert (by_code["KH"].name, by_code["KH"].label) == ("roi de cœur", "R♥")
    assert (by_code["10C"].name, by_code["10C"].label) == ("10 de trèfle", "10♣")
    assert (by_code["T21"].name, by_code["T21"].label) == ("21 d'atout", "21")
    assert (by_code["EX"].name, by_code["EX"].label) == ("l'Excuse", "Excuse")
    assert by_code["NC"].name == "cavalier de trèfle" and by_code["QD"].label == "D♦"
    # Tarot spades R D C V 10 … As, then trumps 21 down to 1, then the Excuse (§1.1)
    assert [c.code for c in form.pack[:5]] == ["KS", "QS", "NS", "JS", "10S"]
    assert [c.code for c in form.pack[-3:]] == ["T2", "T1", "EX"]
    # Triomphe 1725: R D V As 10 9 8 7; as qui pille: the piquet order, the Ace first (§2.1, A-R1)
    tri = get_game("triomphe")
    assert [c.label for c in tri.entry_form({"players": 2}).pack[:8]] == \
        ["R♠", "D♠", "V♠", "A♠", "10♠", "9♠", "8♠", "7♠"]
    assert [c.label for c in tri.entry_form({"players": 3, "as_qui_pille": True}).pack[:2]] == ["A♠", "R♠"]
    # Vingt-quatre: the Ace lowest (§5)
    assert [c.label for c in get_game("vingt-quatre").entry_form().pack[:13]][-2:] == ["2♠", "A♠"]


def test_declarations_follow_the_options() -> None:
    tarot5 = get_game("tarot").entry_form({"players": 5, "five": "called_king"})
    assert tarot5.field("bid.called").required
    assert tarot5.field("dog").max == 3 and tarot5.field("handfuls.size").choices[0].label == "Simple (8 atouts)"
    with pytest.raises(KeyError):
        get_game("tarot").entry_form({"players": 4}).field("bid.called")
    assert get_game("tarot").entry_form({"players": 4}).field("summary.points").step == 1
    assert get_game("tarot").entry_form({"players": 3}).field("summary.points").step == 0.5
    discard = tarot5.field("discard")
    assert discard.when[0].field == "bid.contract" and discard.when[0].values == ("petite", "garde")
    tri = get_game("triomphe")
    assert [p.name for p in tri.entry_form({"players": 4, "as_qui_pille": True}).phases][1] == "pillage"
    assert tri.entry_form({"players": 2}).field("abandon.accepted").kind == "boolean"
    with pytest.raises(KeyError):  # the abandon du point: 1 v 1 or team v team only (A-R6)
        tri.entry_form({"players": 3}).field("abandon")
    assert tri.entry_form({"players": 4, "teams": [[0, 1], [2, 3]]}).field("abandon.by")
    assert tri.entry_form({"players": 2}).field("talon").max == 32 - 10 - 1
    ec = get_game("ecarte")
    assert ec.entry_form({"players": 2}).field("exchanges.discards").when[0].values == ("exchange",)
    with pytest.raises(KeyError):  # no exchange at four (A-E8)
        ec.entry_form({"players": 4}).field("exchanges")
    assert ec.entry_form({"players": 2}).field("king.trick").nullable
    imp = get_game("imperiale").entry_form({"players": 3})
    assert imp.field("announcements.imperiales.cards").help.endswith("six.")
    assert imp.field("announcements.point.count").kind == "integer"
    for name in ("triomphe", "ecarte", "imperiale", "vingt-quatre"):
        form = get_game(name).entry_form()
        assert form.phase("summary").kind == "summary"
        assert form.field("summary.tricks").kind == "counts" and form.field("summary.tricks").total == form.tricks
    assert get_game("ecarte").entry_form({"players": 3}).field("summary.first_to_two").kind == "seat"
    assert get_game("imperiale").entry_form().field("summary.honours.seat").required
    vq = get_game("vingt-quatre").entry_form({"players": 4, "honours": "point"})
    assert vq.field("honours").default == "point" and vq.tricks == 12


# -- tap to play ------------------------------------------------------------------------------------

TRIOMPHE = {"format": "levee.deal/1", "game": "triomphe", "players": ["Ana", "Bruno"], "dealer": 0,
            "turn_up": "9H", "hands": [["KS", "QS", "7H", "8D", "9C"], ["AS", "10H", "JD", "7C", "8C"]]}


def test_triomphe_tap_with_hands() -> None:
    # Bruno (first hand, dealer + 1) leads; everything he holds may be led
    start = play_position(TRIOMPHE)
    assert (start.seat, start.trick_no, start.trick_complete) == (1, 0, False)
    assert {c for c in start.to_json()["playable"]} == {"AS", "10H", "JD", "7C", "8C"}
    # AS led, Ana must follow and go higher (forcée; K and Q beat the Ace in the 1725 order K Q J A …)
    after_lead = play_position({**TRIOMPHE, "tricks": [["AS"]]}).to_json()
    assert after_lead["seat"] == 0 and sorted(after_lead["playable"]) == ["KS", "QS"]
    assert [f["card"] for f in after_lead["forbidden"]] == ["7H", "8D", "9C"]
    assert after_lead["forbidden"][0]["reason"].startswith("Pli 1 : Ana")
    # the trick is complete: Ana won it with the king and leads; then Bruno, void in spades, must trump
    done = play_position({**TRIOMPHE, "tricks": [["AS", "KS"]]}).to_json()
    assert done["trick_complete"] and done["winner"] == 0 and done["seat"] == 0 and done["tricks_won"] == [1, 0]
    trumped = play_position({**TRIOMPHE, "tricks": [["AS", "KS"], ["QS"]]}).to_json()
    assert trumped["playable"] == ["10H"] and not trumped["trick_complete"]
    assert {f["rule"] for f in trumped["forbidden"]} == {"must_trump"}
    assert "doit couper" in trumped["forbidden"][0]["reason"]


def test_triomphe_tap_stops_where_the_rules_end_the_deal() -> None:
    record = {k: v for k, v in TRIOMPHE.items() if k != "hands"}
    # Bruno leads; Ana's king wins trick 1, Bruno trumps trick 2: nobody has the first three tricks
    two = [["AS", "KS"], ["QS", "10H"]]
    assert not play_position({**record, "tricks": two}).over
    # §2.4 rule 12: the point conceded by Ana and accepted: over as the first card is played, after that trick
    conceded = {**record, "abandon": {"by": 0, "accepted": True}}
    assert not play_position(conceded).over
    assert play_position({**conceded, "tricks": two[:1]}).to_json()["seat"] is None
    # refused: Bruno must make the vole; he lost trick 1 (Ana's king): over
    refused = {**record, "abandon": {"by": 0, "accepted": False}}
    assert play_position({**refused, "tricks": two[:1]}).over
    # §2.4 rule 11: Bruno wins the first three tricks and leads to the fourth: engaged; losing it ends the deal
    engaged = [["KD", "7D"], ["KC", "9C"], ["KH", "7H"], ["8S", "QS"]]
    assert not play_position({**record, "tricks": engaged[:3]}).over
    assert not play_position({**record, "tricks": [*engaged[:3], ["8S"]]}).over
    assert play_position({**record, "tricks": engaged}).over
    assert play_position({**record, "stopped": True, "tricks": engaged[:3]}).over


def test_triomphe_tap_illegal_card_entered_is_reported() -> None:
    position = play_position({**TRIOMPHE, "tricks": [["AS", "KS"], ["QS", "8C"]]})
    assert [(v.rule, v.trick, v.seat) for v in position.violations] == [("must_trump", 1, 1)]
    assert position.to_json()["violations"][0]["message"].startswith("Pli 2 : Bruno")


def test_tap_without_hands_shows_the_revoke_a_card_would_prove() -> None:
    record = {k: v for k, v in TRIOMPHE.items() if k != "hands"}
    # Bruno did not follow spades at trick 2 (he played a club on QS): a spade from him later proves a revoke
    position = play_position({**record, "tricks": [["AS", "KS"], ["QS", "8C"], ["7S"]]}).to_json()
    assert position["hand"] is None and position["seat"] == 1
    assert {f["card"] for f in position["forbidden"]} >= {"8S", "10S"}
    assert "8C" not in position["playable"] and "AS" not in position["playable"]
    # the retourne is in no hand: never offered
    assert "9H" not in position["playable"] and "9H" not in {f["card"] for f in position["forbidden"]}


def test_tap_note_under_the_pack_names_no_marked_card() -> None:
    """The walk's Tarot deal: a seat that did not follow spades at trick 1 (3♥ on R♠) may play neither a spade (it
    would prove he could follow) nor a trump (that he could trump, RULES.md §1.7). Each marked card has its own
    reason naming it; the note under the pack, for all of them, names the earlier play only — not the last marked
    card (it said « … contenait l'atout 21 » while the card tapped was a spade)."""
    data = tarot.random_record(random.Random(7), players=4, contract="garde")
    head = {k: v for k, v in data.items() if k not in ("hands", "tricks")}
    assert head["dealer"] == 2 and head["players"] == ["P1", "P2", "P3", "P4"]  # P4 leads trick 1
    position = play_position({**head, "tricks": [["KS", "3H", "2S", "4S"], ["8S"]]}).to_json()
    assert position["seat"] == 0
    reasons = {f["card"]: f["reason"] for f in position["forbidden"]}
    assert reasons["9S"] == ("Pli 1 : Renonce : P1 a joué le 3 de cœur sans fournir à pique alors que sa main "
                             "contenait le 9 de pique (carte jouée au pli 2).")
    assert reasons["T21"] == ("Pli 1 : Renonce : P1 a joué le 3 de cœur sans couper alors que sa main contenait "
                              "l'atout 21 (carte jouée au pli 2).")
    assert position["forbidden_note"] == (
        "Pli 1 : P1 a joué le 3 de cœur sans fournir à pique : une carte marquée, jouée maintenant, prouverait "
        "une renonce. Pli 1 : P1 a joué le 3 de cœur sans couper : une carte marquée, jouée maintenant, "
        "prouverait une renonce.")
    english = play_position({**head, "tricks": [["KS", "3H", "2S", "4S"], ["8S"]]}, lang="en").forbidden_note
    assert english == ("Trick 1: P1 played the 3 of hearts without following spades: a marked card, played now, "
                       "would prove a revoke. Trick 1: P1 played the 3 of hearts without trumping: a marked card, "
                       "played now, would prove a revoke.")
    # no card marked: no note
    first = play_position({**head, "tricks": []}).to_json()
    assert first["forbidden_note"] is None and not first["forbidden"]


def test_tap_without_hands_leaves_out_the_cards_the_declarations_put_aside() -> None:
    ecarte_deal = {"format": "levee.deal/1", "game": "ecarte", "players": ["Ana", "Bruno"], "dealer": 1,
                   "turn_up": "9H", "exchanges": [
                       {"seat": 0, "action": "propose"}, {"seat": 1, "action": "accept"},
                       {"seat": 0, "action": "exchange", "discards": ["7C", "8C"], "draws": ["KS", "QS"]}]}
    playable = play_position(ecarte_deal).to_json()["playable"]
    assert len(playable) == 29 and not {"9H", "7C", "8C"} & set(playable)  # 32 − retourne − 2 laid down
    rng = random.Random(3)
    data = tarot.random_record(rng, players=4, contract="garde")
    without_hands = {k: v for k, v in data.items() if k not in ("hands", "tricks")}
    position = play_position({**without_hands, "discard": data["discard"]}).to_json()
    assert len(position["playable"]) == 78 - 6 and not set(data["discard"]) & set(position["playable"])


def test_tarot_tap_called_suit_and_excuse() -> None:
    rng = random.Random(7)
    data = tarot.random_record(rng, players=4)
    first = play_position({**data, "tricks": []}).to_json()
    assert first["seat"] == (data["dealer"] + 1) % 4 and not first["forbidden"]
    assert set(first["playable"]) == set(first["hand"])
    # every card of the hands' trick 1 is playable when its turn comes; the Excuse always is
    for k in range(1, 4):
        position = play_position({**data, "tricks": [data["tricks"][0][:k]]}).to_json()
        assert data["tricks"][0][k] in position["playable"]
        assert "EX" not in {f["card"] for f in position["forbidden"]}


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["tarot", "ecarte", "imperiale", "vingt-quatre"]))
def test_tap_follows_a_legal_playout(seed: int, game: str) -> None:
    rng = random.Random(seed)
    data = {"tarot": lambda: tarot.random_record(rng, players=rng.choice([3, 4, 5])),
            "ecarte": lambda: ecarte.random_record(rng, players=rng.choice([2, 3, 4])),
            "imperiale": lambda: imperiale.random_record(rng, players=rng.choice([2, 3])),
            "vingt-quatre": lambda: vingt_quatre.random_record(rng, players=rng.choice([4, 5]))}[game]()
    tricks = data["tricks"]
    winners = [t.winner for t in replay(data).deals[0].tricks]
    cut = rng.randrange(len(tricks))
    size = len(tricks[0])
    for k in range(size):
        partial = tricks[:cut] + ([tricks[cut][:k]] if k else [])
        position = play_position({**data, "tricks": partial}).to_json()
        assert tricks[cut][k] in position["playable"]
        assert not position["violations"]
        if k == 0 and cut:
            assert position["trick_complete"] and position["winner"] == winners[cut - 1]
            assert position["seat"] == winners[cut - 1]
    final = play_position(data).to_json()
    assert final["over"] and final["seat"] is None and final["winner"] == winners[-1]
