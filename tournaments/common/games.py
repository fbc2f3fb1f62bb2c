"""The bridge to the game registry (:mod:`rules.game`) and the scoring modules: all the Django side knows of a
game comes from here.

Pages, forms, services and templates never branch on a game's name: they ask this module for the game's
label, whether it plays matches, at how many players, which seats play as partners under the tournament's
options, which contracts wait for the chief arbiter's visa, whether it is played in duplicate deals, the expert
entry's skeleton, and a deal's result explained (:mod:`scoring.explain`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.cards import CardCodeError, parse_card
from rules.errors import MalformedRecord
from rules.game import Game, all_games, get_game
from rules.tarot import CONTRACT_LABELS
from rules.typed import typing_help
from scoring import ecarte as ecarte_scoring
from scoring import penalties
from scoring.explain import Explanation, explain_verdict

#: the seats per table offered for a game the registry does not know
ANY_COUNT = tuple(range(2, 7))


def game(name: str) -> Game:
    """The registered game of that name (:class:`rules.errors.MalformedRecord` for an unknown one)."""
    return get_game(name)


def known(name: str) -> Game | None:
    """The registered game of that name, or None."""
    return all_games().get(name)


def names() -> tuple[str, ...]:
    """Every registered game's code name, in the registry's order."""
    return tuple(all_games())


def choices() -> list[tuple[str, str]]:
    """Every game as a choice: (code name, label), in the registry's order."""
    return [(name, g.label) for name, g in all_games().items()]


def label(name: str) -> str:
    """The game's name for people (the code name for a game the registry does not know)."""
    g = known(name)
    return g.label if g is not None else name


def plays_matches(name: str) -> bool:
    """Whether a table of the game plays a match to a target (scores depend on earlier deals)."""
    g = known(name)
    return g is not None and g.plays_matches


def match_games() -> frozenset[str]:
    """The games whose tables play matches."""
    return frozenset(name for name, g in all_games().items() if g.plays_matches)


def duplicate_deals(name: str) -> bool:
    """Whether the game may be played in duplicate deals (étuis)."""
    g = known(name)
    return g is not None and g.duplicate_deals


def contracts(name: str) -> tuple[str, ...]:
    """The contracts a taker may bid in the game (none for games without a bid)."""
    g = known(name)
    return tuple(g.contracts) if g is not None else ()


def player_counts(name: str) -> tuple[int, ...]:
    """The seats a table of the game may have."""
    g = known(name)
    return tuple(g.player_counts) if g is not None else ANY_COUNT


def needs_visa(name: str, record: Mapping[str, Any]) -> bool:
    """Whether a deal of this record counts only once the chief arbiter approves it (its contract)."""
    g = known(name)
    return g is not None and g.needs_visa(record)


def record_fields(name: str) -> dict[str, Any]:
    """A deal's own fields as the expert entry starts from them (a fresh copy)."""
    import copy

    g = known(name)
    return copy.deepcopy(dict(g.record_fields)) if g is not None else {"hands": None, "tricks": []}


def record_help(name: str, options: Mapping[str, Any], lang: str = "fr") -> str:
    """One line of help on what a deal of the game says, above the expert entry's JSON: the phases of the game's
    entry form and their declarations, in the words of the table (:meth:`rules.entry.EntryForm.outline`)."""
    g = known(name)
    if g is None:
        return ""
    try:
        return g.entry_form(options).outline(lang)
    except (MalformedRecord, TypeError, ValueError):  # options the rules refuse (a table of one): the page says why
        return ""


def card_help(name: str, options: Mapping[str, Any] | None = None, lang: str = "fr") -> str:
    """How to type the cards of the game's own deck under ``options`` (:func:`rules.typed.typing_help`): no
    cavalier, trumps or Excuse at the piquet games; empty for a game unknown or options the rules refuse."""
    g = known(name)
    if g is None:
        return ""
    try:
        pack = [parse_card(c.code) for c in g.entry_form(options).pack]
    except (MalformedRecord, CardCodeError, NotImplementedError, TypeError, ValueError):
        return ""
    return typing_help(pack, lang)


def explain(name: str, verdict: Any, players: Sequence[str], lang: str = "fr") -> Explanation:
    """A saved deal's result in words (its verdict's last deal): headline, lines, marks."""
    return explain_verdict(name, verdict, players, lang)


def partners_chosen(name: str) -> bool:
    """Whether the organizer of a tournament of ``name`` chooses to have partners play together (the
    ``partners`` convention: La Triomphe par équipes)."""
    return get_game(name).partners_chosen


def plays_with_partners(options: Mapping[str, Any]) -> bool:
    """Whether a tournament's options have partners play together (the sides the rules wrote: ``teams``)."""
    return bool(options.get("teams"))


def with_partners(name: str, options: Mapping[str, Any], partners: bool) -> dict[str, Any]:
    """The tournament's options with partners playing together or not (:meth:`rules.game.Game.with_partners`;
    :class:`MalformedRecord` at a table size the team game is not played at)."""
    return get_game(name).with_partners(options, partners)


def partnerships(tournament: Any, players: int) -> tuple[tuple[int, ...], ...] | None:
    """The seats playing as partners at a table of ``players`` (Triomphe ``options.teams``, Écarté à
    quatre), as the game's rules read the tournament's options; None when each plays alone."""
    if not tournament.is_match_game:
        return None
    try:
        options = get_game(tournament.game).parse_options({**tournament.record_options(), "players": players})
    except (MalformedRecord, TypeError, ValueError):
        # options the rules cannot read: no deal was saved with them either
        return None
    teams = getattr(options, "teams", None)
    return tuple(tuple(side) for side in teams) if teams else None


#: The sizes a table of a round may have, by game and by the « Joueurs par table » chosen (None: « selon
#: le jeu »), the main size first, the others completing the tables when the count of players asks:
#:
#: * Tarot (RULES.md §1.2, §1.12 rule 35, A-T6): tables of 4, of 3 and 5 where needed (the FFT's
#:   tournaments); « 4 »: tables of 4 and 3 only (homologable: tables of 5 are not); « 3 » or « 5 »:
#:   those first, then 4 (and 3).
#: * Le Vingt-quatre (§5 rule 1): 5 or 4, never fewer; at 6, 7 and 11 players the draw gives the fewest exempts
#:   (:func:`scoring.seating.plan_tables`), as in every game played in matches.
#: * L'Impériale (§4.1 rule 1), L'Écarté (§3.1, §3.6, §3.7), La Triomphe (§2.2 rule 4): played at 2
#:   (a Swiss pairing, one bye when the count is odd); at 3 (Impériale, Écarté à trois, Triomphe) the
#:   other tables are of 2 (and 4 for Triomphe); Écarté à quatre is completed by tables of 2 and 3;
#:   Triomphe at 3 to 6 each for himself by the nearest other sizes. Triomphe by teams (``teams``) plays
#:   at its size only: the sides fix it.
TABLE_SIZES: dict[str, dict[int | None, tuple[int, ...]]] = {
    "tarot": {None: (4, 3, 5), 3: (3, 4), 4: (4, 3), 5: (5, 4, 3)},
    "vingt-quatre": {None: (5, 4), 4: (4, 5), 5: (5, 4)},
    "imperiale": {None: (2,), 2: (2,), 3: (3, 2)},
    "ecarte": {None: (2,), 2: (2,), 3: (3, 2), 4: (4, 2, 3)},
    "triomphe": {None: (2,), 2: (2,), 3: (3, 4, 2), 4: (4, 3, 5), 5: (5, 4, 6, 3), 6: (6, 5, 4)},
}


def table_sizes(game: str, options: Mapping[str, Any] | None) -> tuple[int, ...]:
    """The sizes a table may have under a tournament's ``options`` (its « Joueurs par table »), the main
    size first (see :data:`TABLE_SIZES`); ``(2,)`` is a game of two, paired with a bye when the count is
    odd. :class:`rules.errors.MalformedRecord` when the options cannot be read or the size chosen is not
    one the game is played at."""
    spec = get_game(game)
    parsed = spec.parse_options(dict(options or {}))
    chosen = (options or {}).get("players")
    if (options or {}).get("teams"):
        return (int(parsed.players),)  # sides chosen in the options (Triomphe by teams) fix the size
    by_choice = TABLE_SIZES.get(game)
    if by_choice is None:  # a game added to the registry without its line here: its counts, the default first
        main = int(getattr(parsed, "players", spec.player_counts[0]))
        return (main, *(c for c in spec.player_counts if c != main))
    return by_choice.get(chosen, by_choice[None])


def players_choices(game: str) -> tuple[int, ...]:
    """The « Joueurs par table » an organizer may choose for ``game`` (the counts it is played at)."""
    return player_counts(game)


def irregular_decisions(name: str, options: Mapping[str, Any] | None = None) -> tuple[str, ...]:
    """What the chief arbiter may decide on an irregular deal of game ``name``, from the rule texts:
    L'Écarté, the adversary's choice of law 43 (``let_stand`` or ``replay``, RULES.md §3.5 rule 20); the games
    whose texts fix penalties (``penalty``, ``scoring.penalties``); every game: ``as_played``, ``annul`` and
    ``adjustment`` (the arbiter's marks with a reason, RULES.md §1.13 rule 40, A-T10)."""
    out: list[str] = []
    if name == "ecarte":
        out += ["let_stand", "replay"]
    if penalties.presets_for(name, options):
        out.append("penalty")
    return (*out, "as_played", "annul", "adjustment")


def zero_sum_marks(name: str) -> bool:
    """Whether a deal's marks in game ``name`` sum to zero, so that their sum is a check to show (Tarot only)."""
    g = known(name)
    return g is not None and g.zero_sum_marks


def score_unit(name: str, lang: str = "fr") -> str:
    """What a deal's scores (and an arbiter's typed marks) count in game ``name``: « points », « impériales »,
    « jetons »."""
    g = known(name)
    unit = g.score_unit if g is not None else ("points", "points")
    return unit[1] if lang.lower().startswith("en") else unit[0]


def target_unit(name: str, lang: str = "fr") -> str:
    """What a match's target counts in game ``name`` (the registry's ``target_unit``): « impériales », « points »."""
    g = known(name)
    unit = g.target_unit if g is not None else ("points", "points")
    return unit[1] if lang.lower().startswith("en") else unit[0]


def default_target(name: str, options: Mapping[str, Any] | None = None) -> int | None:
    """The target of a match of game ``name`` when the tournament sets none (the registry's), None for a game of
    single deals or options that cannot be read."""
    g = known(name)
    try:
        return g.default_target(options) if g is not None else None
    except MalformedRecord:
        return None


def target_default_words(name: str, lang: str = "fr") -> str:
    """The game's own target in words, by table size where it changes: « 5 impériales », « 5 points à 2 joueurs
    par table, 7 à 3 ou 4 ». Empty for a game of single deals."""
    en = lang.lower().startswith("en")
    groups: list[tuple[int, list[int]]] = []
    for count in players_choices(name):
        value = default_target(name, {"players": count})
        if value is None:
            continue
        if groups and groups[-1][0] == value:
            groups[-1][1].append(count)
        else:
            groups.append((value, [count]))
    unit = target_unit(name, lang)
    if len(groups) <= 1:
        return f"{groups[0][0]} {unit}" if groups else ""

    def counts(numbers: list[int]) -> str:
        words = [str(n) for n in numbers]
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {'or' if en else 'ou'} {words[-1]}"

    first, *rest = groups
    head = (f"{first[0]} {unit} at {counts(first[1])} players a table" if en
            else f"{first[0]} {unit} à {counts(first[1])} joueurs par table")
    return ", ".join([head, *(f"{v} {'at' if en else 'à'} {counts(c)}" for v, c in rest)])


def as_played_joins_match(name: str) -> bool:
    """Whether an irregular deal ruled « as played » joins its table's match as a deal (its jetons carried to the
    next deals, its impériales erasing: ``Game.carries_marks``) rather than as the ruling's points."""
    g = known(name)
    return g is not None and g.plays_matches and g.carries_marks


def fault_before_ending_deal(name: str) -> bool:
    """Whether a ruling on a fault made in the deal that ended a match of game ``name`` counts before that deal's
    marks (``Game.fault_before_ending_deal``; docs/deal-record.md, "A fault in the deal that ended the match")."""
    g = known(name)
    return g is not None and g.plays_matches and g.fault_before_ending_deal


def renonce_let_stand(name: str, deal_verdict: Mapping[str, Any], offender: int) -> list[int]:
    """The marks of an irregular deal let stand (``irregular_decisions`` ``let_stand``): L'Écarté's law 43."""
    if name != "ecarte":
        raise ValueError(f"no renonce let stand in {name}")
    result = deal_verdict.get("result") or {}
    scores = list(deal_verdict.get("scores") or [])
    return ecarte_scoring.renonce_let_stand(scores, list(result.get("marks") or []), offender)


def is_renonce(rule_codes: Sequence[str] | set[str]) -> bool:
    """Whether the violations of an irregular deal (their rule codes) are a renonce: a card that did not follow, trump,
    overtrump or take when able, found from the hands (``must_follow`` …) or proved by a later card (``revoke`` …)."""
    words = ("revoke", "follow", "trump", "overtake", "take", "renonce")
    return any(word in str(code) for code in rule_codes for word in words)


def penalty_counts_deal(name: str, preset: penalties.Preset) -> bool:
    """Whether ``preset``, given on an irregular deal of game ``name``, counts the deal as played with the penalty
    added (``Preset.deal_counts``), rather than the penalty alone. Not where the deal would join the match
    (``as_played_joins_match``, L'Impériale): the deal joining the match with its penalty counted before its marks
    (``in_deal``, docs/deal-record.md, "A fault in the deal that ended the match") is not built for an irregular
    deal, so there the penalty stands alone and the form says so."""
    return preset.deal_counts and not as_played_joins_match(name)


def penalty_presets(name: str, options: Mapping[str, Any] | None = None) -> tuple[penalties.Preset, ...]:
    """The penalties the rule texts of game ``name`` fix as amounts (``scoring.penalties``)."""
    return penalties.presets_for(name, options)


def contract_label(name: str, record: Any) -> str:
    """A deal's contract in words (« Garde sans le chien »), empty for a game without a bid."""
    bid = record.get("bid") if isinstance(record, Mapping) else None
    code = bid.get("contract") if isinstance(bid, Mapping) else None
    if not code or not contracts(name):
        return ""
    return CONTRACT_LABELS.get(code, "") if name == "tarot" else ""


def carries_marks(name: str) -> bool:
    """Whether a deal of the game leaves in the match more than its scores say (L'Impériale: the jetons go on to
    the next deals): the score sheet then shows them beside the deal's scores."""
    g = known(name)
    return g is not None and g.carries_marks


def carried_words(name: str, count: int) -> str:
    """« 1 jeton », « 5 jetons »: a count of what a deal of the game leaves for the next ones (its registry's
    ``carried_unit``)."""
    g = known(name)
    one, several = g.carried_unit if g is not None else ("", "")
    return f"{count} {one if abs(count) < 2 else several}".strip()  # « 0 jeton », as French counts


def carried_label(name: str) -> str:
    """« Jetons »: the head of the score sheet's line of what is carried (the registry's ``carried_unit``)."""
    g = known(name)
    return (g.carried_unit[1] if g is not None else "").capitalize()


def carried_after(name: str, verdict: Any) -> list[int] | None:
    """Each seat's jetons carried to the next deal after a saved deal of a game that :func:`carries_marks` (its
    verdict's last deal's ``result["jetons"]``), None for another game or a deal without them."""
    if not carries_marks(name) or not isinstance(verdict, Mapping):
        return None
    deals = verdict.get("deals") or []
    result = deals[-1].get("result") if deals and isinstance(deals[-1], Mapping) else None
    jetons = result.get("jetons") if isinstance(result, Mapping) else None
    if not isinstance(jetons, list) or not all(type(j) is int for j in jetons):
        return None
    return list(jetons)


def match_won_here(name: str, verdict: Any) -> list[int] | None:
    """The winner's seats (one, or a side) when the saved deal of this ``verdict`` is the one that won the match
    (a game played to a target: the verdict's ``ended`` is at one of this deal's marks), else None."""
    if not plays_matches(name) or not isinstance(verdict, Mapping):
        return None
    ended = verdict.get("ended")
    if not isinstance(ended, Mapping) or "event" not in ended or ended.get("deal") != verdict.get("match_deal"):
        return None
    winner = verdict.get("winner")
    seats = winner if isinstance(winner, list) else [winner]
    return [s for s in seats if type(s) is int] or None


def winner_words(seats: Any, players: Sequence[str]) -> str:
    """The winner of a match by name (a side's names joined by « & »; ``seats``: a seat, a list of seats, as
    ``Table.match_winner`` holds them), empty when there is none."""
    chosen = seats if isinstance(seats, list) else [seats]
    return " & ".join(players[s] for s in chosen if type(s) is int and 0 <= s < len(players))
