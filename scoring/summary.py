"""What the scoring of Triomphe, Écarté, L'Impériale and Le Vingt-quatre reads from a deal: its tricks,
or the quick summary entered instead (``summary``, :mod:`rules.summary`).

:class:`PlayFacts` holds what the marks depend on — the tricks won by each seat, the honours taken in
the order taken — built the same way from the tricks
(:func:`facts_from_tricks`) or from the summary (:func:`facts_from_summary`), so that a deal and its
own summary score the same. A summary that cannot be true is a list of violations (codes
``summary_*``), and a summary given beside complete tricks must agree with them
(``summary_mismatch``, as for Tarot).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.cards import BIT, Card, cards_of, format_card, mask_of
from rules.entry import french_name
from rules.errors import Violation
from rules.messages import register
from rules.replay import DealReplay
from rules.summary import TricksSummary


@dataclass(frozen=True)
class PlayFacts:
    """What a deal's play gave: tricks per seat and honours taken in order.

    ``honours``: (trick index — None from a summary —, seat, honour cards) in the order taken.
    """

    tricks_won: tuple[int, ...]
    honours: tuple[tuple[int | None, int, tuple[Card, ...]], ...]
    complete: bool
    source: str = "tricks"

    def taken_mask(self, seat: int) -> int:
        """The honours a seat took."""
        return mask_of(c for _, s, cards in self.honours if s == seat for c in cards)

    @property
    def played(self) -> int:
        """How many tricks were played."""
        return sum(self.tricks_won)


def facts_from_tricks(deal: DealReplay, players: int, honours: int = 0) -> PlayFacts:
    """The facts of a deal's tricks (``honours``: the mask of the cards that are honours in this deal)."""
    won = [0] * players
    taken = []
    honour_set = _honour_sets.get(honours)
    if honour_set is None:
        honour_set = _honour_sets[honours] = frozenset(cards_of(honours))
    for trick in deal.tricks:
        winner = trick.winner
        if winner is None:
            continue
        won[winner] += 1
        if not honour_set.isdisjoint(trick.cards):
            taken.append((trick.index, winner, tuple([c for c in trick.cards if c in honour_set])))
    return PlayFacts(tuple(won), tuple(taken), deal.complete)


_honour_sets: dict[int, frozenset[Card]] = {}
"""The honours of a mask as a set (a deal's trump and convention give a handful of masks)."""


def facts_from_summary(summary: TricksSummary, tricks_per_deal: int) -> PlayFacts:
    """The facts a summary gives (tricks per seat; ``by_side`` summaries are expanded by the game)."""
    return PlayFacts(summary.tricks, tuple((None, h.seat, h.cards) for h in summary.honours),
                     summary.total == tricks_per_deal, "summary")


#: a summary's fields in words, for the refusal of a summary that does not match the tricks (French, English)
MISMATCH_FIELDS = {
    "tricks": ("les plis gagnés", "the tricks won"), "honours": ("les honneurs levés", "the honours taken"),
    "engaged": ("la vole engagée", "the vole engagée"), "first_to_two": ("le premier à deux plis", "the first to two "
                                                                                                  "tricks"),
    "turned_king": ("le roi retourné", "the king turned"), "declined_by": ("l'échange refusé par", "the exchange "
                                                                                                 "declined by"),
    "oudlers": ("les bouts", "the bouts"), "points": ("les points", "the points"),
    "petit_au_bout": ("le petit au bout", "the petit au bout"), "chelem": ("le chelem", "the chelem"),
}
_VALUE_WORDS = {None: ("personne", "nobody"), True: ("oui", "yes"), False: ("non", "no"),
                "attack": ("l'attaque", "the attack"), "defence": ("la défense", "the defence")}


@dataclass(frozen=True)
class SeatValue:
    """A seat as a summary's value (« joueur 2 »)."""

    seat: int


def _value_words(value: Any) -> tuple[str, str]:
    if isinstance(value, SeatValue):
        return f"joueur {value.seat + 1}", f"player {value.seat + 1}"
    if isinstance(value, (list, tuple)):
        text = ", ".join(str(v) for v in value)
        return text, text
    if value is None or isinstance(value, bool) or value in ("attack", "defence"):
        return _VALUE_WORDS[value]
    return str(value), str(value)


def mismatch(deal: int, field: str, given: Any, actual: Any) -> Violation:
    """A summary that does not match the tricks (``summary_mismatch``): the field and both values in words, in
    French and English (``field``, the record's key, stays in the verdict's params for programs)."""
    (given_fr, given_en), (actual_fr, actual_en) = _value_words(given), _value_words(actual)
    field_fr, field_en = MISMATCH_FIELDS.get(field, (field, field))
    return Violation("summary_mismatch", deal, params={
        "field": field, "field_fr": field_fr, "field_en": field_en, "given": given_fr, "actual": actual_fr,
        "given_en": given_en, "actual_en": actual_en})


def honour_runs(honours: Sequence[tuple[int | None, int, tuple[Card, ...]]]) -> list[tuple[int, int]]:
    """Honours taken as runs (seat, mask): consecutive takings by one seat merged, so that only the order
    between seats counts (the order within one seat's run never changes a score)."""
    runs: list[tuple[int, int]] = []
    for _, seat, cards in honours:
        mask = mask_of(cards)
        if runs and runs[-1][0] == seat:
            runs[-1] = (seat, runs[-1][1] | mask)
        else:
            runs.append((seat, mask))
    return runs


def _runs_text(runs: list[tuple[int, int]]) -> str:
    if not runs:
        return "aucun"
    return " ; ".join(f"joueur {seat + 1} : {', '.join(format_card(c) for c in cards_of(mask))}"
                      for seat, mask in runs)


def check_tricks(summary: TricksSummary, deal: int, *, expected: int, playing: Sequence[int],
                 exact: bool = True) -> list[Violation]:
    """The tricks of a summary: as many as a deal holds (``exact``) or no more, and none for a seat that
    does not play."""
    out = []
    if not summary.by_side:
        for seat, n in enumerate(summary.tricks):
            if n and seat not in playing:
                out.append(Violation("summary_tricks_not_playing", deal, None, seat, None, {"count": n}))
    total = summary.total
    if total > expected or (exact and total != expected):
        out.append(Violation("summary_tricks_total", deal, params={"count": total, "expected": expected}))
    return out


def check_honours(summary: TricksSummary, deal: int, *, honours: int, played: int | None,
                  unplayed: int = 0) -> list[Violation]:
    """The honours of a summary: honours of the deal, each taken once, by a seat that won a trick; with
    ``played`` (the cards known to be played: the hands, or the whole pack when all of it is dealt) every
    honour played taken by somebody; ``unplayed``: cards known not to be played (a retourne in no hand)."""
    out = []
    seen = 0
    for _, seat, cards in facts_from_summary(summary, 0).honours:
        for c in cards:
            if not BIT[c] & honours:
                out.append(Violation("summary_not_honour", deal, None, seat, c,
                                     {"honours": ", ".join(french_name(h) for h in cards_of(honours))}))
            elif seen & BIT[c]:
                out.append(Violation("summary_honour_twice", deal, None, seat, c))
            elif BIT[c] & unplayed or (played is not None and not BIT[c] & played):
                out.append(Violation("summary_honour_not_played", deal, None, seat, c))
            seen |= BIT[c]
        if not summary.by_side and summary.tricks[seat] == 0:
            out.append(Violation("summary_honour_without_trick", deal, None, seat, cards[0]))
    if played is not None:
        missing = honours & played & ~seen
        if missing:
            out.append(Violation("summary_honours_missing", deal, params={
                "cards": ", ".join(french_name(c) for c in cards_of(missing))}))
    return out


def compare(summary: TricksSummary, derived: PlayFacts, deal: int, *, tricks: Sequence[int] | None = None,
            honours: bool = False) -> list[Violation]:
    """A summary given beside complete tricks must agree with them (``tricks``: the derived tricks in the
    summary's own terms, per seat or per side)."""
    out = []
    actual = list(tricks if tricks is not None else derived.tricks_won)
    if list(summary.tricks) != actual:
        out.append(mismatch(deal, "tricks", list(summary.tricks), actual))
    if honours:
        given = honour_runs(facts_from_summary(summary, 0).honours)
        found = honour_runs(derived.honours)
        if given != found:
            out.append(mismatch(deal, "honours", _runs_text(given), _runs_text(found)))
    return out


register({
    # the same code and text as Tarot's (scoring/tarot.py)
    "summary_mismatch": {
        "fr": "Le résumé ne correspond pas aux plis : {field_fr}, {given} dans le résumé, {actual} d'après les plis.",
        "en": "The summary does not match the tricks: {field_en}, {given_en} in the summary, {actual_en} from the "
              "tricks.",
    },
    "summary_tricks_total": {
        "fr": "Le résumé compte {count} plis gagnés ; la donne en compte {expected}.",
        "en": "The summary counts {count} tricks won; the deal has {expected}.",
    },
    "summary_tricks_not_playing": {
        "fr": "Le résumé donne {count} pli(s) à {who}, qui ne joue pas cette donne.",
        "en": "The summary gives {count} trick(s) to {who}, who does not play this deal.",
    },
    "summary_not_honour": {
        "fr": "Le résumé fait lever {card} à {who}, mais ce n'est pas un honneur de cette donne ({honours}).",
        "en": "The summary has {who} take {card}, which is not an honour of this deal ({honours}).",
    },
    "summary_honour_twice": {
        "fr": "Le résumé fait lever {card} deux fois (la seconde par {who}).",
        "en": "The summary has {card} taken twice (the second time by {who}).",
    },
    "summary_honour_not_played": {
        "fr": "Le résumé fait lever {card} à {who}, mais cette carte n'a pas été jouée dans cette donne.",
        "en": "The summary has {who} take {card}, but that card was not played in this deal.",
    },
    "summary_honour_without_trick": {
        "fr": "Le résumé fait lever {card} à {who}, qui n'a fait aucun pli.",
        "en": "The summary has {who} take {card}, but they won no trick.",
    },
    "summary_honours_missing": {
        "fr": "Le résumé ne dit pas qui a levé {cards}, joué(s) dans cette donne.",
        "en": "The summary does not say who took {cards}, played in this deal.",
    },
})


def honours_play_facts(deal: DealReplay, summary: Any, honours: int, players: int, tricks: int,
                       check: Callable[[], list[Violation]]) -> tuple[PlayFacts | None, list[Violation]]:
    """What a deal of an honours game (L'Impériale, Le Vingt-quatre) gave: from its tricks, or from its
    ``summary`` when the tricks are not complete (None, with the violations, when that summary cannot be
    true: ``check`` gives the game's own checks of it). A summary beside complete tricks is checked against
    them. ``tricks``: the tricks a summary accounts for."""
    if summary is None or ((deal.tricks or deal.unfinished) and deal.complete):
        facts = facts_from_tricks(deal, players, honours)
        if summary is None:
            return facts, []
        return facts, check() + compare(summary, facts, deal.index, honours=True)
    found = check()
    if found:
        return None, found
    return facts_from_summary(summary, tricks), []
