"""Property tests of Impériale scoring over random matches: jetons never reach 6 without becoming a fiche,
fiches never go down, deal scores add up to the totals, the match ends at the first mark reaching the
target and nothing is scored after it; announcements of the impériales truly held are accepted."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import ACE, JACK, KING, QUEEN, SUIT, card, format_card, parse_card
from rules.replay import replay
from scoring.imperiale import score_match
from tests.rules.test_imperiale_properties import IMPERIALE, play_out, random_deal


def held_imperiales(hand: set[int], players: int, trump: int) -> list[list[str]]:
    out = []
    for s in range(4):
        four = [card(r, s) for r in (ACE, KING, QUEEN, JACK)]
        if all(c in hand for c in four):
            out.append(four)
    for r in (ACE, KING, QUEEN, JACK, 6 if players == 3 else 7):
        four = [card(r, s) for s in range(4)]
        if all(c in hand for c in four):
            out.append(four)
    return [[format_card(c) for c in four] for four in out]


def random_match(rng: random.Random, players: int, deals: int, announce: bool, options: dict) -> dict:
    from rules.cards import PIQUET_32, PIQUET_36
    opts = IMPERIALE.parse_options({"players": players, **options})
    out = []
    for k in range(deals):
        dealer = k % players
        deal = random_deal(IMPERIALE, opts, rng, dealer=dealer, players=players, hand_size=12,
                           pack=PIQUET_32 if players == 2 else PIQUET_36, turn_up_in_dealer_hand=players == 3)
        if announce:
            trump = SUIT[parse_card(deal["turn_up"])]
            shown = [{"seat": seat, "cards": four}
                     for seat, hand in enumerate(deal["hands"])
                     for four in held_imperiales({parse_card(c) for c in hand}, players, trump)]
            deal["announcements"] = {"imperiales": shown}
        deal["tricks"], _ = play_out(IMPERIALE, opts, deal, rng, players=players)
        out.append(deal)
    return {"format": "levee.match/1", "game": "imperiale", "options": {"players": players, **options},
            "players": [f"P{i}" for i in range(players)], "deals": out}


OPTIONS = st.fixed_dictionaries({
    "target": st.integers(1, 6),
    "imperiale_tombee": st.booleans(),
    "strict_auj_chronology": st.booleans(),
    "parlett_order": st.booleans(),
})


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([2, 3]), st.integers(1, 6), st.booleans(), OPTIONS)
def test_random_matches_keep_the_invariants(rng, players, deals, announce, options):
    data = random_match(rng, players, deals, announce, options)
    replayed = replay(data)
    assert replayed.violations == []
    score = score_match(replayed)
    fiches = [0] * players
    ended_seen = False
    for i, deal in enumerate(score.deals):
        if ended_seen:
            assert deal.scores is None
            continue
        assert deal.scores is not None
        for k, mark in enumerate(deal.result["marks"]):
            after = mark["after"]
            assert all(0 <= j < 6 for j in after["jetons"])
            assert all(a >= b for a, b in zip(after["fiches"], fiches, strict=True))
            fiches = after["fiches"]
            if mark["step"] == "cartes":   # one jeton per trick above 6 (2 players) or 4 (3 players)
                assert mark["jetons"] == mark["tricks"] - (6 if players == 2 else 4) > 0
            if mark.get("reaches_target"):
                assert score.ended == {"deal": i, "event": k}
                assert k == len(deal.result["marks"]) - 1
                ended_seen = True
    assert score.totals == [sum(d.scores[s] for d in score.deals if d.scores is not None) for s in range(players)]
    assert score.totals == fiches
    if score.winner is not None:
        assert score.totals[score.winner] >= options["target"]
        assert all(t < options["target"] for s, t in enumerate(score.totals) if s != score.winner)
    else:
        assert all(t < options["target"] for t in score.totals)


ANNOUNCEMENT_PHASE = {"cartes_blanches", "imperiale_quatrieme_majeure", "imperiale_carre", "imperiale_retourne"}


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.booleans())
def test_an_impériale_erases_every_opponent_jeton(rng, strict):
    data = random_match(rng, 3, 4, True, {"target": 99, "strict_auj_chronology": strict})
    score = score_match(replay(data))
    for deal in score.deals:
        for mark in deal.result["marks"]:
            if mark["fiches"] > 0:
                others = sum(j for s, j in enumerate(mark["after"]["jetons"]) if s != mark["seat"])
                # only the dealer's retourne jeton may survive, and only in the announcement phase (rule 14)
                assert others <= (0 if strict or mark["step"] not in ANNOUNCEMENT_PHASE else 1)
