"""A player's statistics over the deals he played, from their stored records and verdicts.

Pure Python (no Django). Each deal is a :class:`SeenDeal`: the deal's own record (``levee.deal/1``, or one deal of
a match with the match's ``game``, ``options`` and ``players``), its verdict as the service stored it (the result
that the game's rules gave when the deal was replayed and scored: ``deals[0].result``) and the player's seat.
A deal stored without its result (an old export) is judged again here for Tarot, whose deals stand alone
(:func:`scoring.verdict.judge`); a deal of a match needs its match, and is then counted as lacking the detail.

What is counted, by game (the words of the table):

* **Tarot**: deals played; as taker, by contract, taken and made (the success rate); as the called partner (at
  five); in defence, and the contracts the defence brought down; petits au bout won and lost (by his camp);
  poignées shown, by size; chelems made and conceded; the tricks his seat won — that last one needs the tricks:
  a deal entered as a summary (« résumé ») has no tricks, and the figure says on how many deals it is missing.
* **La Triomphe**: the point, the vole, the vole missed, the abandons received and conceded.
* **L'Écarté**: the point, the vole, the king (turned up, announced), the refusals; the proposals (« je propose »),
  accepted and refused, and the deals played d'autorité — from the exchanges, which a summary may leave out.
* **L'Impériale**: impériales (en main, de retourne, tombées), cartes blanches, the Point, the honours taken
  (jetons), the retourne (the king or an honour turned up), the cartes and the capote.
* **Le Vingt-quatre**: the séquences (they need the hands: a deal without them lacks them), the Point, the honours,
  the carte (most tricks), the retourne.

Each figure is a :class:`Figure`: its value (None when no deal had the detail: « non disponible »), the deals it
was counted over, and the deals that lacked the detail.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.errors import MalformedRecord
from scoring.verdict import judge

NOT_AVAILABLE_FR = "non disponible"
NOT_AVAILABLE_EN = "not available"

CONTRACTS = ("petite", "garde", "garde_sans", "garde_contre")
CONTRACT_FR = {"petite": "Petite", "garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre"}
CONTRACT_EN = {"petite": "Petite", "garde": "Garde", "garde_sans": "Garde sans", "garde_contre": "Garde contre"}
HANDFULS = ("simple", "double", "triple")


@dataclass(frozen=True)
class SeenDeal:
    """One deal the player played: its record, its stored verdict (``{"deals": [{"result": …}]}``) and his seat."""

    game: str
    record: Mapping[str, Any]
    verdict: Mapping[str, Any]
    seat: int

    def result(self) -> Mapping[str, Any] | None:
        deals = self.verdict.get("deals") or ()
        if deals and isinstance(deals[0], Mapping) and isinstance(deals[0].get("result"), Mapping):
            result: Mapping[str, Any] = deals[0]["result"]
            if result:
                return result
        return None

    @property
    def has_tricks(self) -> bool:
        return bool(self.record.get("tricks"))


def counted(n: int, words: str) -> str:
    """``n`` and its words, singular or plural: each « (s) » of ``words`` dropped below two (French: « 0 prise »,
    « 1 réussie », « 2 contrats chutés »), written « s » from two."""
    return f"{n} {words.replace('(s)', 's' if n >= 2 else '')}"


@dataclass(frozen=True)
class Figure:
    """One statistic: ``value`` (None: « non disponible »), over ``of`` deals, ``missing`` of which lacked the
    detail; ``made`` for a rate (taken ``value`` times, made ``made`` times)."""

    key: str
    label: str
    value: int | None
    of: int
    missing: int = 0
    made: int | None = None
    #: the words of a rate: what was counted, and what succeeded (« prise(s) », « réussie(s) »)
    words: tuple[str, str] = ("prise(s)", "réussie(s)")

    @property
    def rate(self) -> Fraction | None:
        """``made / value`` (a success rate), None without a rate or with nothing taken."""
        if self.made is None or not self.value:
            return None
        return Fraction(self.made, self.value)

    def text(self, lang: str = "fr") -> str:
        """The figure in words: « 3 », « 3 prises, 2 réussies (67 %) », « non disponible », with the deals that
        lacked the detail."""
        fr = lang == "fr"
        if self.value is None:
            return NOT_AVAILABLE_FR if fr else NOT_AVAILABLE_EN
        out = str(self.value)
        if self.made is not None:
            rate = self.rate
            percent = "" if rate is None else f" ({round(rate * 100)} %)"
            out = (f"{counted(self.value, self.words[0])}, {counted(self.made, self.words[1])}{percent}" if fr else
                   f"{self.value} taken, {self.made} made{percent}")
        if self.missing:
            out += (f" — détail absent de {counted(self.missing, 'donne(s)')} sur {self.of}" if fr else
                    f" — detail missing from {counted(self.missing, 'deal(s)')} of {self.of}")
        return out


@dataclass(frozen=True)
class Section:
    title: str
    figures: tuple[Figure, ...]


@dataclass(frozen=True)
class GameStats:
    """A player's statistics in one game: the deals counted and the sections of figures."""

    game: str
    deals: int
    sections: tuple[Section, ...]
    #: deals stored without the detail of their result (counted nowhere above)
    unreadable: int = 0

    def figure(self, key: str) -> Figure:
        for section in self.sections:
            for fig in section.figures:
                if fig.key == key:
                    return fig
        raise KeyError(key)


class _Tally:
    """Counts per key, and the deals that lacked each key's detail."""

    def __init__(self, deals: int) -> None:
        self.deals = deals
        self.count: dict[str, int] = {}
        self.made: dict[str, int] = {}
        self.missing: dict[str, int] = {}

    def add(self, key: str, n: int = 1) -> None:
        self.count[key] = self.count.get(key, 0) + n

    def win(self, key: str, n: int = 1) -> None:
        self.made[key] = self.made.get(key, 0) + n

    def lack(self, key: str) -> None:
        self.missing[key] = self.missing.get(key, 0) + 1

    def figure(self, key: str, label: str, *, rate: bool = False, of: int | None = None,
               words: tuple[str, str] = ("prise(s)", "réussie(s)")) -> Figure:
        of = self.deals if of is None else of
        missing = self.missing.get(key, 0)
        value = None if not of or missing >= of else self.count.get(key, 0)
        made = self.made.get(key, 0) if rate and value is not None else None
        return Figure(key, label, value, of, missing, made, words)


def _tarot_result(deal: SeenDeal) -> Mapping[str, Any] | None:
    result = deal.result()
    if result is not None and "taker" in result:
        return result
    if deal.record.get("format") != "levee.deal/1":
        return None
    # judged again from the record itself (rules/ replays it): a Tarot deal stands alone
    try:
        verdict = judge(deal.record)
    except MalformedRecord:
        return None
    if not verdict.deals or verdict.deals[0].scores is None:
        return None
    return verdict.deals[0].result


def tarot_stats(deals: Sequence[SeenDeal], lang: str = "fr") -> GameStats:
    """A Tarot player's figures (see the module's docstring)."""
    fr = lang == "fr"
    t = _Tally(0)
    for deal in deals:
        result = _tarot_result(deal)
        if result is None:
            t.lack("*")
            continue
        t.deals += 1
        seat = deal.seat
        taker, partner = result.get("taker"), result.get("partner")
        defenders = list(result.get("defenders") or ())
        made = bool(result.get("made"))
        camp = "attack" if seat in (taker, partner) else "defence" if seat in defenders else None
        if seat == taker:
            contract = str(result.get("contract"))
            t.add(f"taken_{contract}")
            t.add("taken")
            if made:
                t.win(f"taken_{contract}")
                t.win("taken")
        elif seat == partner:
            t.add("partner")
            if made:
                t.win("partner")
        elif camp == "defence":
            t.add("defence")
            if not made:
                t.win("defence")
        else:
            t.add("mort")
        pab = result.get("petit_au_bout")
        if pab is not None and camp is not None:
            t.add("petit_won" if pab == camp else "petit_lost")
        for handful in result.get("handfuls") or ():
            if handful.get("seat") == seat:
                t.add(f"handful_{handful.get('size')}")
        chelem = result.get("chelem")
        if chelem is not None and camp is not None:
            t.add("chelem_made" if chelem == camp else "chelem_conceded")
        if deal.has_tricks:
            won = (deal.verdict.get("deals") or [{}])[0].get("tricks_won") or ()
            if seat < len(won):
                t.add("tricks", int(won[seat]))
        else:
            t.lack("tricks")
    names = CONTRACT_FR if fr else CONTRACT_EN
    taken = [t.figure("taken", "Donnes prises" if fr else "Deals taken", rate=True)]
    taken += [t.figure(f"taken_{c}", names[c], rate=True) for c in CONTRACTS]
    roles = [
        t.figure("partner", "Partenaire appelé" if fr else "Called partner", rate=True,
                 words=("donne(s)", "gagnée(s)")),
        t.figure("defence", "En défense" if fr else "In defence", rate=True, words=("donne(s)", "contrat(s) chuté(s)")),
    ]
    if t.count.get("mort"):
        roles.append(t.figure("mort", "Mort (hors jeu)" if fr else "Sitting out"))
    events = [
        t.figure("petit_won", "Petits au bout gagnés" if fr else "Petit au bout won"),
        t.figure("petit_lost", "Petits au bout perdus" if fr else "Petit au bout lost"),
        *(t.figure(f"handful_{s}", (f"Poignées {s}s" if fr else f"{s.capitalize()} poignées")) for s in HANDFULS),
        t.figure("chelem_made", "Chelems réussis" if fr else "Chelems made"),
        t.figure("chelem_conceded", "Chelems subis" if fr else "Chelems conceded"),
        t.figure("tricks", "Plis faits (donnes jouées carte par carte)" if fr else "Tricks won (deals played card "
                 "by card)"),
    ]
    sections = (
        Section("Comme preneur" if fr else "As taker", tuple(taken)),
        Section("Partenaire et défense" if fr else "Partner and defence", tuple(roles)),
        Section("Primes" if fr else "Bonuses", tuple(events)),
    )
    return GameStats("tarot", t.deals, sections, t.missing.get("*", 0))


#: per game, each mark's kind (Triomphe, Écarté) or step (L'Impériale, Le Vingt-quatre) → (key, French, English)
MARK_KINDS: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    "triomphe": (
        ("point", "point", "Le point", "The point"),
        ("vole", "vole", "Voles", "Voles"),
        ("vole_failed", "vole_failed", "Voles manquées", "Voles missed"),
        ("abandon", "abandon_received", "Abandons reçus", "Abandons received"),
    ),
    "ecarte": (
        ("point", "point", "Le point", "The point"),
        ("vole", "vole", "Voles", "Voles"),
        ("king", "king", "Roi d'atout annoncé", "King of trumps announced"),
        ("turned_king", "turned_king", "Roi retourné", "King turned up"),
        ("false_king", "false_king", "Faux roi annoncé contre lui", "False king against him"),
        ("refus", "refus", "Points de refus", "Points for a refusal"),
    ),
    "imperiale": (
        ("imperiale_*", "imperiales", "Impériales", "Impériales"),
        ("cartes_blanches", "cartes_blanches", "Cartes blanches", "Cartes blanches"),
        ("point", "point", "Le Point", "The Point"),
        ("honours", "honours", "Honneurs (jetons)", "Honours (jetons)"),
        ("retourne", "retourne", "Honneur retourné (as, roi, dame, valet ou sept d'atout)",
         "Honour turned up (ace, king, queen, jack or seven of trumps)"),
        ("cartes", "cartes", "Les cartes", "The cards"),
        ("capote", "capote", "Capotes", "Capotes"),
    ),
    "vingt-quatre": (
        ("sequences", "sequences", "Séquences", "Sequences"),
        ("point", "point", "Le Point", "The Point"),
        ("honours", "honours", "Honneurs (jetons)", "Honours (jetons)"),
        ("carte", "carte", "La carte (le plus de plis)", "The card (most tricks)"),
        ("retourne", "retourne", "Honneur retourné", "Honour turned up"),
    ),
}

#: the marks a deal can only give when its record has the hands (a summary without them cannot say them)
NEEDS_HANDS = {"vingt-quatre": frozenset({"sequences"})}
#: games whose marks are counted in jetons (a mark's ``jetons`` is summed for these keys)
JETONS_KEYS = frozenset({"honours"})


def _mark_key(game: str, mark: Mapping[str, Any]) -> str | None:
    kind = str(mark.get("kind") or mark.get("step") or "")
    for pattern, key, _fr, _en in MARK_KINDS.get(game, ()):
        if pattern == kind or (pattern.endswith("*") and kind.startswith(pattern[:-1])):
            return key
    return None


def _mark_seats(mark: Mapping[str, Any]) -> list[int]:
    if "seats" in mark:
        return [int(s) for s in mark["seats"]]
    return [int(mark["seat"])] if isinstance(mark.get("seat"), int) else []


def _ecarte_exchanges(deal: SeenDeal, t: _Tally) -> None:
    players = len(deal.record.get("players") or ()) or int((deal.record.get("options") or {}).get("players", 2))
    if players >= 4:
        return
    steps = deal.record.get("exchanges")
    if steps is None:
        for key in ("proposed", "accepted", "refused", "autorite"):
            t.lack(key)
        return
    for step in steps:
        if step.get("seat") != deal.seat:
            continue
        action = step.get("action")
        if action == "propose":
            t.add("proposed")
        elif action == "accept":
            t.add("accepted")
        elif action == "refuse":
            t.add("refused")
    first = steps[0] if steps else None
    if first and first.get("seat") == deal.seat and first.get("action") == "play":
        t.add("autorite")


def match_game_stats(game: str, deals: Sequence[SeenDeal], lang: str = "fr") -> GameStats:
    """A player's figures in a game played in matches (Triomphe, Écarté, L'Impériale, Le Vingt-quatre)."""
    fr = lang == "fr"
    t = _Tally(0)
    needs_hands = NEEDS_HANDS.get(game, frozenset())
    for deal in deals:
        result = deal.result()
        if result is None:
            t.lack("*")
            continue
        t.deals += 1
        if needs_hands and not deal.record.get("hands"):
            for lacking in needs_hands:
                t.lack(lacking)
        for mark in result.get("marks") or ():
            key = _mark_key(game, mark)
            if key is None:
                continue
            seats = _mark_seats(mark)
            if game == "triomphe" and key == "abandon_received" and deal.seat in (mark.get("conceded_by") or ()):
                t.add("abandon_conceded")
            if deal.seat in seats:
                t.add(key, int(mark.get("jetons", 1)) if key in JETONS_KEYS else 1)
        if game == "ecarte":
            _ecarte_exchanges(deal, t)
    figures = [t.figure(key, fr_label if fr else en_label) for _p, key, fr_label, en_label in MARK_KINDS[game]]
    if game == "triomphe":
        figures.append(t.figure("abandon_conceded", "Abandons concédés" if fr else "Abandons conceded"))
    sections = [Section("Marques" if fr else "Marks", tuple(figures))]
    if game == "ecarte":
        sections.append(Section("Échanges" if fr else "Exchanges", (
            t.figure("proposed", "Propositions (« je propose »)" if fr else "Proposals"),
            t.figure("accepted", "Propositions acceptées" if fr else "Proposals accepted"),
            t.figure("refused", "Propositions refusées (« jouez »)" if fr else "Proposals refused"),
            t.figure("autorite", "Joué d'autorité" if fr else "Played without exchange"),
        )))
    return GameStats(game, t.deals, tuple(sections), t.missing.get("*", 0))


def player_stats(deals: Iterable[SeenDeal], lang: str = "fr") -> tuple[GameStats, ...]:
    """Every game's figures for the deals a player played, one :class:`GameStats` per game (Tarot first)."""
    by_game: dict[str, list[SeenDeal]] = {}
    for deal in deals:
        by_game.setdefault(deal.game, []).append(deal)
    out = []
    for game in sorted(by_game, key=lambda g: (g != "tarot", g)):
        if game == "tarot":
            out.append(tarot_stats(by_game[game], lang))
        elif game in MARK_KINDS:
            out.append(match_game_stats(game, by_game[game], lang))
    return tuple(out)
