"""Property tests (hypothesis) of Le Vingt-quatre's card play, with the play-out helpers of L'Impériale."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.game
import rules.vingt_quatre
from rules.cards import FRENCH_52, mask_of, parse_card
from rules.replay import replay
from tests.rules.test_imperiale_properties import play_out, random_deal

PROPERTY = settings(max_examples=80, deadline=None)
VINGT_QUATRE = rules.game.GAMES["vingt-quatre"]



def vingt_quatre_deal(rng: random.Random, players: int, dealer: int, *, inject_at=None, check_generator=False,
                      **options) -> tuple[dict, tuple | None]:
    opts = VINGT_QUATRE.parse_options({"players": players, **options})
    deal = random_deal(VINGT_QUATRE, opts, rng, dealer=dealer, players=players,
                       hand_size=10 if players == 5 else 12, pack=FRENCH_52)
    deal["tricks"], injected = play_out(VINGT_QUATRE, opts, deal, rng, players=players, inject_at=inject_at,
                                        check_generator=check_generator)
    return deal, injected


def as_record(deal: dict, players: int, **options) -> dict:
    return {"format": "levee.deal/1", "game": "vingt-quatre", "options": {"players": players, **options},
            "players": [f"P{i}" for i in range(players)], **deal}


@PROPERTY
@given(st.randoms(use_true_random=False), st.sampled_from([4, 5]), st.integers(0, 4))
def test_random_legal_playouts_are_accepted(rng, players, dealer):
    deal, _ = vingt_quatre_deal(rng, players, dealer % players, check_generator=True)
    record = as_record(deal, players)
    result = replay(record)
    assert result.violations == []
    replayed = result.deals[0]
    assert replayed.complete
    played = [c for t in replayed.tricks for c in t.cards]
    size = 10 if players == 5 else 12
    assert len(played) == len(set(played)) == size * players
    assert mask_of(played) == mask_of(parse_card(c) for h in deal["hands"] for c in h)
    del record["hands"]
    assert replay(record).violations == []


@PROPERTY
@given(st.randoms(use_true_random=False), st.sampled_from([4, 5]), st.integers(0, 50))
def test_injected_illegal_card_is_reported_at_its_trick_and_seat(rng, players, inject_at):
    deal, injected = vingt_quatre_deal(rng, players, 1, inject_at=inject_at)
    violations = replay(as_record(deal, players)).violations
    if injected is None:
        assert violations == []
        return
    trick, seat, rule = injected
    assert [(v.trick, v.seat, v.rule) for v in violations] == [(trick, seat, rule)]
