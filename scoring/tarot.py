"""French Tarot marks (FFT « la marque en donnes libres »), per deal and summed over a match.

``RULES.md`` §1.9–1.11 and A-T1, A-T3…A-T7. A deal is scored from its facts — the bouts and card
points of the taker's side, the petit au bout, the chelem — taken either from the tricks of a full
entry (derived, never entered) or from the arbiter's ``summary``; both ways go through the same
:func:`score_facts`, so a full deal and its own summary score the same.

Card points are counted in **half-points** (integers, 182 in a deal). The per-defender unit::

    S = sign·(25 + diff)·coef + pab·10·coef + sign·Σ poignées + chelem term

with ``diff = ceil(|P − needed|)`` (a stray half point goes to the winning side, A-T7). Marks: at
4 players (and in the « mort » format) the taker +3S and each defender −S; at 3 players the taker
+2S; at 5 players with a partner the taker +2S and the partner +S; alone against four, +4S. The
mort scores 0. Marks always sum to zero. Tarot has no target: a match is the sum of its deals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.cards import (
    BIT,
    EXCUSE,
    JACK,
    KING,
    KNIGHT,
    PETIT,
    QUEEN,
    CardCodeError,
    card,
    card_name,
    cards_of,
    format_card,
    mask_of,
    parse_card,
)
from rules.errors import Violation
from rules.frozen import quick_init
from rules.messages import register
from rules.replay import DealReplay, Replay
from rules.tarot import BOUTS_MASK, EXCUSE_BIT, HALF_POINTS, PACK_MASK, TarotDeal

from .base import DealScore, MatchScore
from .explain import Explanation, words
from .explain import name as seat_name
from .summary import mismatch

NEEDED_HALF = (112, 102, 82, 72)
"""Points required by bouts held (56 / 51 / 41 / 36), in half-points (rule 5)."""
HANDFUL_VALUES = {"simple": 20, "double": 30, "triple": 40}
BASE = 25
PETIT_AU_BOUT = 10
CHELEM_ANNOUNCED_MADE, CHELEM_MADE, CHELEM_FAILED, CHELEM_DEFENCE = 400, 200, -200, -200

register({
    "summary_points_range": {
        "fr": "Le résumé donne {points} points au camp du preneur : il y en a de 0 à 91.",
        "en": "The summary gives the taker's side {points} points: there are 0 to 91.",
    },
    "summary_points_half": {
        "fr": "Le résumé donne {points} points : les points se comptent au demi-point.",
        "en": "The summary gives {points} points: points are counted to the half point.",
    },
    "summary_half_point_at_four": {
        "fr": "À 4 joueurs le total du preneur est toujours entier ; le résumé donne {points}.",
        "en": "At 4 players the taker's total is always a whole number; the summary gives {points}.",
    },
    "summary_oudlers": {
        "fr": "Le résumé donne {oudlers} bouts au camp du preneur : il y en a de 0 à 3.",
        "en": "The summary gives the taker's side {oudlers} bouts: there are 0 to 3.",
    },
    "summary_points_oudlers": {
        "fr": "Avec ce nombre de bouts ({oudlers}), le camp du preneur ne peut pas avoir {points} points.",
        "en": "With that many bouts ({oudlers}), the taker's side cannot have {points} points.",
    },
    "summary_petit_au_bout": {
        "fr": "Petit au bout impossible : {reason_fr}",
        "en": "Impossible petit au bout: {reason_en}",
    },
    "summary_chelem": {
        "fr": "Chelem impossible : {reason_fr}",
        "en": "Impossible chelem: {reason_en}",
    },
    "summary_mismatch": {
        "fr": "Le résumé ne correspond pas aux plis : {field_fr}, {given} dans le résumé, {actual} d'après les plis.",
        "en": "The summary does not match the tricks: {field_en}, {given_en} in the summary, {actual_en} from the "
              "tricks.",
    },
})


@quick_init
@dataclass(frozen=True)
class DealFacts:
    """What the marks of a deal depend on, besides the bid and the poignées.

    ``points_half``: card points of the taker's side in half-points; ``petit_au_bout`` and ``chelem``:
    ``"attack"``, ``"defence"`` or None.
    """

    oudlers: int
    points_half: int
    petit_au_bout: str | None
    chelem: str | None


def points_text(half: int) -> str:
    """Half-points for people: ``81`` → ``"40.5"``."""
    return str(half // 2) + (".5" if half % 2 else "")


# -- facts from the tricks --------------------------------------------------------------------------

def facts_from_tricks(deal: DealReplay) -> DealFacts | None:
    """The facts of a complete deal (None unless every card of the pack is accounted for exactly once).

    The Excuse (§1.9): kept by its side, which gives the trick's winners a half-point card (or,
    having no trick, counts it 4 — the same numbers, A-T4); played to the last trick it goes to the
    side winning that trick, except when led there by a side that won every trick (A-T3).
    """
    rules: TarotDeal = deal.rules  # type: ignore[assignment]
    if not deal.complete:
        return None
    if deal.won is not None:
        return _facts_from_won(deal, rules)
    attack = rules.attack
    tricks = deal.tricks
    played = 0  # sums of distinct bits are their unions; a repeated card shows as a carry (checked below)
    held = 0  # the attack's cards
    total = 0
    with_excuse = None
    for trick in tricks:
        mask = sum([BIT[c] for c in trick.cards])
        played += mask
        total += len(trick.cards)
        if trick.winner in attack:
            held += mask
        if mask & EXCUSE_BIT:
            with_excuse = trick
    if played.bit_count() != total or played & ~PACK_MASK:
        return None
    exchange = 0
    last = len(tricks) - 1
    if with_excuse is not None and with_excuse.index != last:
        owner_attack = with_excuse.seats[with_excuse.cards.index(EXCUSE)] in attack
        held = held | EXCUSE_BIT if owner_attack else held & ~EXCUSE_BIT
        if owner_attack != (with_excuse.winner in attack):  # the half-point card given in exchange
            exchange = -1 if owner_attack else 1
    if rules.contract != "garde_contre":
        held |= PACK_MASK & ~played  # the écart, or the chien apart on a garde sans
    points = half_points(held) + exchange
    chelem = None
    if all(t.winner in attack for t in tricks):
        chelem = "attack"
    elif not any(t.winner in attack for t in tricks):
        chelem = "defence"
    pab = None
    final = tricks[last]
    if PETIT in final.cards:
        pab = "attack" if final.winner in attack else "defence"
    elif (chelem is not None and final.cards[0] == EXCUSE and final.winner == final.leader
          and last > 0 and PETIT in tricks[last - 1].cards):
        pab = chelem  # rule 20: in a chelem with the Excuse led last, the Petit au bout is at the penultimate trick
    return DealFacts((held & BOUTS_MASK).bit_count(), points, pab, chelem)


def _facts_from_won(deal: DealReplay, rules: TarotDeal) -> DealFacts:
    """:func:`facts_from_tricks` from the cards each seat won, as the replay gathered them (``deal.won``: a
    complete deal whose every card came from its player's hand, none twice); the same facts without walking
    the tricks again (``tests/scoring/test_tarot_fast.py`` compares both on every kind of deal)."""
    won = deal.won
    assert won is not None
    attack = rules.attack
    tricks = deal.tricks
    held = 0
    for seat in attack:
        held |= won[seat]
    played = 0
    for mask in won:
        played |= mask
    exchange = 0
    last = len(tricks) - 1
    final = tricks[last]
    if played & EXCUSE_BIT and EXCUSE not in final.cards:  # the Excuse kept by its side (§1.9)
        owner_attack = any(deal.start[seat] & EXCUSE_BIT for seat in attack)  # type: ignore[index]
        winner_attack = bool(held & EXCUSE_BIT)
        held = held | EXCUSE_BIT if owner_attack else held & ~EXCUSE_BIT
        if owner_attack != winner_attack:  # the half-point card given in exchange
            exchange = -1 if owner_attack else 1
    if rules.contract != "garde_contre":
        held |= PACK_MASK & ~played  # the écart, or the chien apart on a garde sans
    points = half_points(held) + exchange
    chelem = None
    if not any(won[seat] for seat in rules.defence):
        chelem = "attack"
    elif not any(won[seat] for seat in attack):
        chelem = "defence"
    pab = None
    if PETIT in final.cards:
        pab = "attack" if final.winner in attack else "defence"
    elif (chelem is not None and final.cards[0] == EXCUSE and final.winner == final.leader
          and last > 0 and PETIT in tricks[last - 1].cards):
        pab = chelem  # rule 20: in a chelem with the Excuse led last, the Petit au bout is at the penultimate trick
    return DealFacts((held & BOUTS_MASK).bit_count(), points, pab, chelem)


_EXTRA = ((8, BOUTS_MASK | mask_of(card(KING, s) for s in range(4))), (6, mask_of(card(QUEEN, s) for s in range(4))),
          (4, mask_of(card(KNIGHT, s) for s in range(4))), (2, mask_of(card(JACK, s) for s in range(4))))


def half_points(mask: int) -> int:
    """The card points of a set of cards, in half-points (each card 1, plus its honour's extra)."""
    points = mask.bit_count()
    for extra, cards in _EXTRA:
        points += extra * (mask & cards).bit_count()
    return points


# -- facts from the summary -------------------------------------------------------------------------

def _top_values(count: int, allowed: int) -> int:
    """The largest total in half-points of ``count`` cards among ``allowed`` (a mask)."""
    values = sorted((HALF_POINTS[c] for c in cards_of(allowed)), reverse=True)
    return sum(values[:count])


def check_summary(rules: TarotDeal, deal: int | None = None) -> tuple[DealFacts | None, list[Violation]]:
    """The facts of the summary and what in it cannot be true (only what truly cannot be)."""
    summary = rules.summary
    assert summary is not None
    out: list[Violation] = []

    def bad(code: str, **params: Any) -> None:
        out.append(Violation(code, deal, params=params))

    doubled = summary.points * 2
    text = str(float(summary.points)) if doubled.denominator != 1 else points_text(int(doubled))
    if doubled.denominator != 1:
        bad("summary_points_half", points=text)
        return None, out
    half = int(doubled)
    if not 0 <= half <= 182:
        bad("summary_points_range", points=text)
    elif half % 2 and rules.table == 4:
        bad("summary_half_point_at_four", points=text)
    oudlers = summary.oudlers
    if not 0 <= oudlers <= 3:
        bad("summary_oudlers", oudlers=oudlers)
        return None, out
    # each bout is worth 4.5, the Excuse 4 when exchanged: what each side's bouts alone are worth
    if half < 9 * oudlers - 1 or half > 182 - (9 * (3 - oudlers) - 1):
        bad("summary_points_oudlers", oudlers=oudlers, points=text)
    pab, chelem = summary.petit_au_bout, summary.chelem
    if pab == "attack" and oudlers == 0:
        bad("summary_petit_au_bout", reason_fr="le camp du preneur l'aurait mené au bout sans avoir le Petit.",
            reason_en="the taker's side would have it without holding the Petit.")
    if pab == "defence" and oudlers == 3:
        bad("summary_petit_au_bout", reason_fr="la défense l'aurait mené au bout alors que le preneur a les 3 bouts.",
            reason_en="the defence would have it while the taker's side holds all 3 bouts.")
    if chelem is not None and pab is not None and pab != chelem:
        bad("summary_petit_au_bout", reason_fr="le camp qui n'a fait aucun pli ne peut pas gagner le dernier.",
            reason_en="the side that won no trick cannot win the last one.")
    if chelem == "attack":
        if rules.contract != "garde_contre":
            if (half, oudlers) not in ((182, 3), (174, 2)):
                bad("summary_chelem", reason_fr="le camp du preneur a tous les plis : il a 91 points et 3 bouts, "
                                                "ou 87 points et 2 bouts si la défense garde l'Excuse.",
                    reason_en="the taker's side has every trick: 91 points and 3 bouts, or 87 points and 2 bouts "
                              "when the defence keeps the Excuse.")
        elif half < 182 - _top_values(rules.dog_size, PACK_MASK) - 8:
            bad("summary_chelem", reason_fr="la défense n'a que le chien et au plus l'Excuse.",
                reason_en="the defence holds only the chien and at most the Excuse.")
    elif chelem == "defence":
        if rules.contract == "garde_contre":
            extra = 0
        elif rules.contract == "garde_sans":
            extra = _top_values(rules.dog_size, PACK_MASK)
        else:
            extra = _top_values(rules.dog_size, _DISCARDABLE)
        if half > extra + 8 or (rules.contract != "garde_sans" and oudlers > 1):
            bad("summary_chelem", reason_fr="le camp du preneur n'a au plus que l'écart ou le chien et l'Excuse.",
                reason_en="the taker's side holds at most the écart or the chien, and the Excuse.")
    if out:
        return None, out
    return DealFacts(oudlers, half, pab, chelem), out


_DISCARDABLE = PACK_MASK & ~BOUTS_MASK & ~sum(BIT[14 + 16 * s] for s in range(4))  # no King, no bout (rule 15)


# -- the marks -------------------------------------------------------------------------------------

_PAB_SIGN = {"attack": 1, "defence": -1, None: 0}
_NOBODY: frozenset[int] = frozenset()


def score_facts(rules: TarotDeal, facts: DealFacts, void_handfuls: frozenset[int] = frozenset()
                ) -> tuple[list[int], dict[str, Any]]:
    """The marks of every seat and the detail of the result.

    ``void_handfuls``: the seats whose poignée was shown against the rules (the wrong number of trumps for its
    size, the Excuse shown while a trump stays hidden, a card not held …: RULES.md §1.5 rule 19, A-T9). One rule
    for all of them: such a poignée is not a poignée and gives no bonus; the deal is scored without it, and any
    sanction is the arbiter's (§1.13 rule 40).
    """
    coef = rules.coefficient
    needed = NEEDED_HALF[facts.oudlers]
    margin = facts.points_half - needed
    made = margin >= 0
    diff = (abs(margin) + 1) // 2  # ceil of the half-point difference (A-T7)
    sign = 1 if made else -1
    pab = _PAB_SIGN[facts.petit_au_bout]
    sizes = [(seat, size) for seat, size in rules.handful_sizes() if seat not in void_handfuls]
    handfuls = [{"seat": seat, "size": size, "value": HANDFUL_VALUES[size]} for seat, size in sizes]
    chelem_term = 0
    if facts.chelem == "attack":
        chelem_term = CHELEM_ANNOUNCED_MADE if rules.chelem_announced else CHELEM_MADE
    else:
        if rules.chelem_announced:
            chelem_term += CHELEM_FAILED
        if facts.chelem == "defence":
            chelem_term += CHELEM_DEFENCE  # cumulative with a failed announcement (A-T5)
    s = (sign * (BASE + diff) * coef + pab * PETIT_AU_BOUT * coef
         + sign * sum(HANDFUL_VALUES[size] for _, size in sizes) + chelem_term)
    scores = [0] * rules.players
    defenders = sorted(rules.defence)
    for seat in defenders:
        scores[seat] = -s
    total = s * len(defenders)
    if rules.partner is not None:
        scores[rules.partner] = s
        scores[rules.taker] = total - s
    else:
        scores[rules.taker] = total
    result = {
        "contract": rules.contract,
        "coefficient": coef,
        "taker": rules.taker,
        "partner": rules.partner,
        "called": format_card(rules.called) if rules.called is not None else None,
        "defenders": defenders,
        "mort": rules.mort,
        "bouts": facts.oudlers,
        "points": points_text(facts.points_half),
        "points_half": facts.points_half,
        "needed": needed // 2,
        "made": made,
        "margin_half": margin,
        "diff": diff,
        "petit_au_bout": facts.petit_au_bout,
        "handfuls": handfuls,
        "chelem": facts.chelem,
        "chelem_announced": rules.chelem_announced,
        "chelem_term": chelem_term,
        "S": s,
    }
    return scores, result


def _compare(derived: DealFacts, rules: TarotDeal, deal: int) -> list[Violation]:
    given = rules.summary
    assert given is not None
    out = []
    pairs = [("oudlers", given.oudlers, derived.oudlers),
             ("points", given.points, Fraction(derived.points_half, 2)),
             ("petit_au_bout", given.petit_au_bout, derived.petit_au_bout),
             ("chelem", given.chelem, derived.chelem)]
    for name, value, actual in pairs:
        if value != actual:
            shown = points_text(derived.points_half) if name == "points" else actual
            given_text = (points_text(int(given.points * 2)) if name == "points" and (given.points * 2).denominator == 1
                          else value)
            out.append(mismatch(deal, name, given_text, shown))
    return out


def score_deal(deal: DealReplay) -> DealScore:
    """The marks of one replayed deal: from its tricks when complete, else from its summary."""
    rules: TarotDeal = deal.rules  # type: ignore[assignment]
    violations: list[Violation] = []
    facts = None
    source = None
    if deal.tricks or deal.unfinished:
        if deal.complete:
            facts = facts_from_tricks(deal)
            source = "tricks"
            if facts is None:
                return DealScore(None, {"reason": "cards_not_conserved"}, ())
            if rules.summary is not None:
                violations += check_summary(rules, deal.index)[1]
                violations += _compare(facts, rules, deal.index)
        elif rules.summary is None:
            return DealScore(None, {"reason": "unfinished", "tricks": len(deal.tricks)}, ())
    if facts is None and rules.summary is not None:
        facts, found = check_summary(rules, deal.index)
        violations += found
        source = "summary"
        if facts is None:
            return DealScore(None, {"reason": "impossible_summary"}, tuple(violations))
    if facts is None:
        return DealScore(None, {"reason": "no_tricks_or_summary"}, ())
    void = frozenset(v.seat for v in deal.violations if v.rule.startswith("handful") and v.seat is not None) \
        if deal.violations else _NOBODY
    scores, result = score_facts(rules, facts, void)
    result["source"] = source
    return DealScore(scores, result, tuple(violations))


def score_match(replay: Replay) -> MatchScore:
    """Every deal of a Tarot record scored and summed (Tarot has no target: no winner, never ended)."""
    players = len(replay.record.players)
    deals = [score_deal(d) for d in replay.deals]
    totals = [0] * players
    unscored = []
    for i, d in enumerate(deals):
        if d.scores is None:
            unscored.append(i)
            continue
        for seat, mark in enumerate(d.scores):
            totals[seat] += mark
    detail: Mapping[str, Any] = {"unscored": unscored} if unscored else {}
    last = replay.record.deals[-1].dealer if replay.record.deals else None
    # the deal passes to the dealer's right-hand neighbour, the first hand (§1.2, A-X1; at five with a mort too)
    following = None if last is None else ((last + 1) % players,)
    return MatchScore(deals, totals, None, None, detail, next_dealers=following)



# -- the result for people ---------------------------------------------------------------------------

#: the contracts as the score sheet names them (the same in French and English)
CONTRACT_NAMES = {"petite": "Petite", "garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre"}

_WORDS: dict[str, tuple[str, str]] = {
    "contract": ("Contrat", "Contract"), "taker": ("Preneur", "Taker"), "called": ("Roi appelé", "Called king"),
    "partner": ("Partenaire", "Partner"), "mort": ("Mort (ne joue pas)", "Sits out (mort)"),
    "bouts": ("Bouts", "Bouts"), "points": ("Points", "Points"), "needed": ("Points nécessaires", "Points needed"),
    "result": ("Résultat", "Result"), "made": ("passé de {n}", "made by {n}"),
    "fallen": ("chuté de {n}", "fallen by {n}"),
    "rounded": (" ({n} arrondi au point)", " ({n} rounded up)"), "petit_au_bout": ("Petit au bout", "Petit au bout"),
    "pab_attack": ("gagné par le camp du preneur", "won by the taker's side"),
    "pab_defence": ("gagné par la défense", "won by the defence"), "no": ("non", "no"),
    "handfuls": ("Poignées", "Poignées"), "handful": ("{who} : {size} ({value})", "{who}: {size} ({value})"),
    "no_handful": ("aucune", "none"), "simple": ("simple", "simple"), "double": ("double", "double"),
    "triple": ("triple", "triple"), "chelem": ("Chelem", "Chelem"),
    "chelem_attack": ("réalisé par le camp du preneur", "made by the taker's side"),
    "chelem_defence": ("réalisé par la défense", "made by the defence"), "announced": ("annoncé", "announced"),
    "S": ("Marque de chaque défenseur", "Each defender's mark"), "entered": ("Saisie", "Entered"),
    "summary": ("résumé", "summary"), "tricks": ("pli par pli", "trick by trick"),
}


def _card_words(code: str, lang: str) -> str:
    """A card by its name (« roi de cœur »), never its record code; the code itself if it cannot be read."""
    try:
        return card_name(parse_card(code), "en" if lang.startswith("en") else "fr")
    except CardCodeError:
        return code


def explain(result: Mapping[str, Any], players: Sequence[str], lang: str = "fr") -> Explanation:
    """A Tarot deal's result: the taker and contract as a headline; contract, bouts, points and the points
    needed, made or fallen by how much, petit au bout, poignées, chelem — the terms of the FFT formula
    (RULES.md §1.11) — as lines. Empty for a deal that was not scored."""
    out = Explanation()
    if "contract" not in result:
        return out

    def w(key: str) -> str:
        return words(_WORDS, key, lang)

    code = str(result.get("contract") or "")
    contract = CONTRACT_NAMES.get(code, code or "—")
    if isinstance(result.get("taker"), int) and 0 <= result["taker"] < len(players):
        out.headline = " · ".join(p for p in (players[result["taker"]], contract) if p)
    add = out.lines.append
    coef = result.get("coefficient")
    add((w("contract"), f"{contract} (×{coef})" if coef else contract))
    add((w("taker"), seat_name(players, result.get("taker")) or "—"))
    if result.get("called"):
        add((w("called"), _card_words(str(result["called"]), lang)))
    if result.get("partner") is not None:
        add((w("partner"), seat_name(players, result.get("partner"))))
    if result.get("mort") is not None:
        add((w("mort"), seat_name(players, result.get("mort"))))
    add((w("bouts"), str(result.get("bouts", "—"))))
    points = result.get("points")
    add((w("points"), str(points).replace(".", ",") if points is not None else "—"))
    add((w("needed"), str(result.get("needed", "—"))))
    margin = result.get("margin_half")
    if isinstance(margin, int):
        whole, half = divmod(abs(margin), 2)
        # the mark counts the difference rounded up (A-T7): « chuté de 1 (0,5 arrondi) », as computed
        by = str(whole + half) + (w("rounded").format(n=f"{whole},5" if lang == "fr" else f"{whole}.5") if half else "")
        add((w("result"), w("made" if result.get("made") else "fallen").format(n=by)))
    add((w("petit_au_bout"), words(_WORDS, f"pab_{result.get('petit_au_bout')}", lang, w("no"))))
    handfuls = result.get("handfuls") or []
    shown = [w("handful").format(who=seat_name(players, h.get("seat")), value=h.get("value"),
                                 size=words(_WORDS, h.get("size"), lang) if h.get("size") in HANDFUL_VALUES
                                 else h.get("size")) for h in handfuls]
    add((w("handfuls"), ", ".join(shown) or w("no_handful")))
    chelem = words(_WORDS, f"chelem_{result.get('chelem')}", lang, w("no"))
    if result.get("chelem_announced"):
        chelem += " · " + w("announced")
    if result.get("chelem_term"):
        chelem += f" ({result['chelem_term']:+d})"
    add((w("chelem"), chelem))
    if isinstance(result.get("S"), int):
        # S is what each defender pays the taker's side (RULES.md §1.11): shown as the defender's own mark, with
        # its sign, so that « −40 » never stands for a defender who gained 40
        add((w("S"), f"{-result['S']:+d}"))
    if result.get("source") in ("summary", "tricks"):
        add((w("entered"), w(result["source"])))
    return out
