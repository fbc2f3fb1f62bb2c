"""Property tests (hypothesis) of L'Impériale's card play: random legal play-outs are accepted by the
replay; the legal-card generator agrees with the checker; an injected illegal card is reported at its
trick and seat; cards are conserved. The play-out helpers serve Le Vingt-quatre's tests too."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.game
import rules.imperiale
from rules.cards import BIT, PIQUET_32, PIQUET_36, cards_of, format_card, mask_of, parse_card
from rules.game import Game
from rules.play import DealState
from rules.replay import replay

PROPERTY = settings(max_examples=120, deadline=None)



def random_deal(game: Game, options, rng: random.Random, *, dealer: int, players: int, hand_size: int,
                pack, turn_up_in_dealer_hand: bool = False) -> dict:
    """A shuffled deal as record fields (no tricks yet)."""
    cards = list(pack)
    rng.shuffle(cards)
    hands = [cards[i * hand_size:(i + 1) * hand_size] for i in range(players)]
    turn_up = hands[dealer][-1] if turn_up_in_dealer_hand else cards[players * hand_size]
    return {"dealer": dealer, "turn_up": format_card(turn_up),
            "hands": [[format_card(c) for c in h] for h in hands]}


def play_out(game: Game, options, deal: dict, rng: random.Random, *, players: int, inject_at: int | None = None,
             check_generator: bool = False):
    """Play the deal at random with legal cards; at play number ``inject_at`` play an illegal card if the
    player holds one. Returns (tricks as codes, injected (trick, seat, rule) or None)."""
    rules_ = game.deal_rules(options, deal, players=players, field="")
    hands = [mask_of(parse(c) for c in h) for h in deal["hands"]]
    state = DealState(rules_, hands)
    tricks, current, injected, n = [], [], None, 0
    while not state.over:
        seat = state.seat_to_play
        hand = state.hands[seat]
        legal, rule = rules_.requirement(hand, state.current, state.trick_no, seat)
        if check_generator:
            for c in cards_of(rules_.pack_mask):
                assert state.can_play(c) == bool(legal & BIT[c]), (format_card(c), state.current)
        illegal = hand & ~legal
        if inject_at is not None and n >= inject_at and injected is None and illegal:
            card = rng.choice(cards_of(illegal))
            injected = (state.trick_no, seat, rule)
            assert not state.can_play(card)
            state.apply(card)
        else:
            card = rng.choice(cards_of(legal))
            state.play(card)
        n += 1
        current.append(format_card(card))
        if len(current) == len(rules_.seats):
            tricks.append(current)
            current = []
    return tricks, injected


def parse(code: str) -> int:
    return parse_card(code)


IMPERIALE = rules.game.GAMES["imperiale"]


def imperiale_record(rng: random.Random, players: int, dealer: int, *, inject_at=None, check_generator=False,
                     **options):
    opts = IMPERIALE.parse_options({"players": players, **options})
    deal = random_deal(IMPERIALE, opts, rng, dealer=dealer, players=players, hand_size=12,
                       pack=PIQUET_32 if players == 2 else PIQUET_36, turn_up_in_dealer_hand=players == 3)
    tricks, injected = play_out(IMPERIALE, opts, deal, rng, players=players, inject_at=inject_at,
                                check_generator=check_generator)
    deal["tricks"] = tricks
    record = {"format": "levee.deal/1", "game": "imperiale", "options": {"players": players, **options},
              "players": [f"P{i}" for i in range(players)], **deal}
    return record, injected


@PROPERTY
@given(st.randoms(use_true_random=False), st.sampled_from([2, 3]), st.integers(0, 2), st.booleans())
def test_random_legal_playouts_are_accepted(rng, players, dealer, lead_trump):
    record, _ = imperiale_record(rng, players, dealer % players, check_generator=True,
                                 first_lead_trump_at_3=lead_trump)
    result = replay(record)
    assert result.violations == []
    deal = result.deals[0]
    assert deal.complete
    # cards conserved: every card dealt is played exactly once, and the tricks hold them all
    played = [c for t in deal.tricks for c in t.cards]
    assert len(played) == len(set(played)) == 12 * players
    assert mask_of(played) == mask_of(parse(c) for h in record["hands"] for c in h)
    assert sum(deal.tricks_won(players)) == 12
    # the same plays without the hands: nothing can be proved against them
    del record["hands"]
    assert replay(record).violations == []


@PROPERTY
@given(st.randoms(use_true_random=False), st.sampled_from([2, 3]), st.integers(0, 35))
def test_injected_illegal_card_is_reported_at_its_trick_and_seat(rng, players, inject_at):
    record, injected = imperiale_record(rng, players, 0, inject_at=inject_at)
    violations = replay(record).violations
    if injected is None:
        assert violations == []
        return
    trick, seat, rule = injected
    assert [(v.trick, v.seat, v.rule) for v in violations] == [(trick, seat, rule)]
