"""The draw of a round: :mod:`scoring.seating` decides, ``services.round_seat`` writes.

* Tarot: :func:`scoring.seating.seat_tarot_round` — ``rotation`` (nobody meets twice while it is
  possible), ``random`` (seeded), ``ranking`` (best against best, by the live ranking of the rounds
  before this one); tables of 5 or 3 when the count is not a multiple of 4, nobody at a short table
  twice while avoidable, team-mates apart.
* Games of two sides: :func:`scoring.seating.swiss_pair` — ``swiss`` pairs by the ranking of the
  rounds before, ``random`` pairs a seeded shuffle; the bye is a table with a single seat (ranked as
  a bye by :func:`tournaments.standings.rankings.match_results`; no deal is entered there).
* Match games played at more than two a table (``players`` of the tournament's options: Écarté à
  trois and à quatre, Triomphe at 3 to 6 or by teams, Impériale à trois, Vingt-quatre at 4 or 5):
  :func:`scoring.seating.seat_match_round` — tables of exactly that size, one single-seat bye table
  per entry left over, same two methods; in partnership games the partners' seats are those the
  rules read from the options (:func:`tournaments.common.games.partnerships`).

:func:`round_swap` exchanges two players by hand; :func:`round_repeats` lists the pairs who have
met more than once up to this round (the checker of repeated meetings).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import cast

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.errors import MalformedRecord
from scoring import seating as pure
from tournaments.common import games
from tournaments.common.collation import french_key
from tournaments.common.errors import InvalidInput
from tournaments.duplicate.results import setup_of
from tournaments.event.middle import present_for
from tournaments.event.models import Entry, Round, Seat, Table, Team, Tournament
from tournaments.event.setup import round_seat
from tournaments.standings import rankings

SWISS_METHODS = ("swiss", "random")


def methods_for(tournament: Tournament) -> tuple[str, ...]:
    return pure.METHODS if not tournament.is_match_game else SWISS_METHODS


def _seatings(tournament: Tournament, *, before: int | None = None, upto: int | None = None) -> list[pure.Seating]:
    """The seatings of the tournament's rounds (numbers < ``before`` or <= ``upto``) from the database."""
    qs = Seat.objects.filter(table__round__tournament=tournament)
    if before is not None:
        qs = qs.filter(table__round__number__lt=before)
    if upto is not None:
        qs = qs.filter(table__round__number__lte=upto)
    tables: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for rnd, table, position, entry in qs.values_list("table__round__number", "table__number", "position",
                                                      "entry_id"):
        tables[(rnd, table)].append((position, entry))
    by_round: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for (rnd, _table), seats in sorted(tables.items()):
        by_round[rnd].append(tuple(e for _position, e in sorted(seats)))
    return [pure.Seating(rnd, tuple(ts)) for rnd, ts in sorted(by_round.items())]


def _teams(tournament: Tournament) -> dict[int, list[int]] | None:
    if tournament.format != Tournament.Format.TEAMS:
        return None
    teams: dict[int, list[int]] = defaultdict(list)
    for entry_id, team_id in tournament.entries.filter(team__isnull=False).values_list("id", "team_id"):
        teams[team_id].append(entry_id)
    return dict(teams)


def _present_teams(tournament: Tournament, present: Sequence[int],
                   standings: Sequence[int]) -> list[tuple[str, list[int]]]:
    """The teams with members present (name, members' ids), best first by their best member in ``standings``;
    a player present in no team is refused: in a team event played by sides every player is a team's."""
    rank = {entry: i for i, entry in enumerate(standings)}
    here = set(present)
    by_team: dict[int, list[int]] = defaultdict(list)
    alone: list[str] = []
    for entry_id, team_id, name in (tournament.entries.filter(pk__in=here).order_by("pk")
                                    .values_list("id", "team_id", "player__name")):
        if team_id is None:
            alone.append(name)
        else:
            by_team[team_id].append(entry_id)
    if alone:
        raise InvalidInput(_("Jeu par équipes : %(names)s n'est dans aucune équipe (page « Équipes et forfaits »).")
                           % {"names": ", ".join(sorted(alone))}, field="method")
    names = dict(Team.objects.filter(pk__in=by_team).values_list("id", "name"))
    teams = sorted(by_team.items(), key=lambda tm: (min(rank.get(e, len(rank)) for e in tm[1]), names[tm[0]]))
    return [(names[team], members) for team, members in teams]


def _clubs(tournament: Tournament, round: Round) -> dict[str, list[int]] | None:
    """Club → entry ids, when the organizer keeps clubs apart and this is the first round."""
    if not tournament.separate_clubs or round.number != 1:
        return None
    clubs: dict[str, list[int]] = defaultdict(list)
    for entry_id, club in tournament.entries.exclude(player__club="").values_list("id", "player__club"):
        clubs[" ".join(club.casefold().split())].append(entry_id)
    return dict(clubs)


def _standings(tournament: Tournament, number: int) -> list[int]:
    """Entry ids best first, by the ranking of every round before ``number`` (released or not)."""
    computed = rankings.ranking_compute(tournament=tournament, rounds=list(range(1, number)))
    return _ids(line.entry for line in computed.individual.lines)


def _ids(entries: Iterable[Hashable]) -> list[int]:
    """The entries the pure seating and rankings give back, as the entry ids they were given."""
    return cast("list[int]", list(entries))


@transaction.atomic
def round_draw(*, round: Round, method: str, seed: int = 0, odd_tables: str = "auto") -> list[Table]:
    """Draw and save the seating of ``round`` for the entries present (not withdrawn, arrived by this
    round); players of one club kept apart in the first round when the tournament asks for it."""
    tournament = round.tournament
    if setup_of(tournament) is not None:
        raise InvalidInput(_("Tournoi en donnes dupliquées : les tables de chaque manche sont placées par le "
                             "mouvement (page « Donnes dupliquées »), pas par le tirage des tables."), field="method")
    present = present_for(round)
    if method not in methods_for(tournament):
        raise InvalidInput(_("method is one of %(values)s") % {"values": ", ".join(methods_for(tournament))},
                           field="method")
    allowed = allowed_sizes(tournament)
    # a team event whose organizer chose partners (Triomphe par équipes): each team is one side of a table
    sides = games.partnerships(tournament, allowed[0]) if _by_sides(tournament) else None
    try:
        if sides is not None:
            draw = pure.seat_team_sides(
                _present_teams(tournament, present, _standings(tournament, round.number)), round=round.number,
                sides=sides, method=method, seed=seed, history=_seatings(tournament, before=round.number))
            return round_seat(round=round, tables=[_ids(t) for t in draw.tables])
        # the tables told on the round's page before the draw (:func:`draw_forecast`): the same plan
        try:
            plan = pure.plan_tables(len(present), allowed, byes=tournament.is_match_game)
        except pure.SeatingError as exc:  # the refusal the round's page told before the draw, and what to do
            said = exc.text(translation.get_language() or "fr").rstrip(".")
            raise InvalidInput(_("%(refusal)s. %(what_to_do)s")
                               % {"refusal": said, "what_to_do": _what_to_do(tournament)}, field="method") from None
        shape: tuple[int, ...] = () if allowed == (2,) else plan.sizes  # a game of two: Swiss pairing
        if not tournament.is_match_game:
            seating = pure.seat_tarot_round(
                present, round=round.number, method=method, history=_seatings(tournament, before=round.number),
                seed=seed, odd_tables=odd_tables, teams=_teams(tournament), clubs=_clubs(tournament, round),
                ranking=_standings(tournament, round.number) if method == "ranking" else None,
                sizes=None if odd_tables != "auto" else shape)
            return round_seat(round=round, tables=[_ids(t) for t in seating.tables])
        if shape:
            ranked = [e for e in _standings(tournament, round.number) if e in set(present)]
            standings = ranked + sorted(set(present) - set(ranked))
            draw = pure.seat_match_round(
                standings, round=round.number, size=shape[0], sizes=shape, method=method, seed=seed,
                history=_seatings(tournament, before=round.number), teams=_teams(tournament),
                partners={k: games.partnerships(tournament, k) for k in set(shape)})
            return _seat_with_bye(round, [_ids(t) for t in draw.tables], _ids(draw.byes))
        ranked = [e for e in _standings(tournament, round.number) if e in set(present)]
        standings = ranked + sorted(set(present) - set(ranked))
        if method == "random":
            random.Random(seed).shuffle(standings)
        # who sat together, not only the matches that ended (a game left unfinished met too: no rematch)
        history = pure.tables_met(_seatings(tournament, before=round.number))
        pairing = pure.swiss_pair(standings, round=round.number, history=history, teams=_teams(tournament))
    except pure.SeatingError as exc:
        raise InvalidInput(exc.text(translation.get_language() or "fr"), field="method") from None
    return _seat_with_bye(round, [_ids(p) for p in pairing.pairs], _ids(() if pairing.bye is None else (pairing.bye,)))


def _by_sides(tournament: Tournament) -> bool:
    """A team event whose organizer chose partners (Triomphe par équipes): each team is one side of a table."""
    return tournament.format == Tournament.Format.TEAMS and games.partners_chosen(tournament.game)


def _what_to_do(tournament: Tournament) -> str:
    """What the organizer does when no draw seats the players present: more or fewer players (or teams)."""
    if _by_sides(tournament):
        return _("Pour tirer les tables : une équipe de plus ou de moins (page « Équipes et forfaits »).")
    return _("Pour tirer les tables : inscrivez ou retirez des joueurs (page « Joueurs »), ou déclarez un forfait "
             "(page « Équipes et forfaits »).")


def draw_forecast(*, round: Round) -> tuple[str, bool]:
    """What the draw of ``round`` will make, told on the round's page before the organizer draws, and whether it
    can be made: « 11 joueurs : 1 table de 5, 2 tables de 3. », « 7 joueurs : 1 table de 5, 2 exempts. », or the
    refusal the draw would give and what to do (:func:`scoring.seating.plan_tables`, the plan the draw follows).

    Exempts only in the games played in matches, where a bye is a result of the ranking (it counts as a match won:
    :class:`scoring.ranking.MatchPoints`); Tarot has none in free deals (a player left out would score nothing),
    so a count its tables cannot seat is refused and the organizer told to add or remove players."""
    tournament = round.tournament
    if setup_of(tournament) is not None:  # duplicate: the movement seats the rounds
        return "", True
    present = present_for(round)
    try:
        allowed = allowed_sizes(tournament)
        if _by_sides(tournament):
            sides = games.partnerships(tournament, allowed[0]) or ()
            teams = len(set(tournament.entries.filter(pk__in=present, team__isnull=False)
                            .values_list("team_id", flat=True)))
            if not sides or teams < len(sides) or teams % len(sides):
                return ngettext(
                    "%(n)s équipe présente ne remplit pas des tables de %(k)s équipes : il en faut un nombre pair.",
                    "%(n)s équipes présentes ne remplissent pas des tables de %(k)s équipes : il en faut un nombre "
                    "pair.", teams) % {"n": teams, "k": len(sides) or 2} + " " + _what_to_do(tournament), False
            plan = pure.TablePlan(len(present), (allowed[0],) * (teams // len(sides)))
        else:
            plan = pure.plan_tables(len(present), allowed, byes=tournament.is_match_game)
    except pure.SeatingError as exc:
        said = exc.text(translation.get_language() or "fr")
        return _("%(refusal)s. %(what_to_do)s") % {"refusal": f"{said[:1].upper()}{said[1:].rstrip('.')}",
                                                   "what_to_do": _what_to_do(tournament)}, False
    except InvalidInput as exc:
        return exc.message, False
    parts = [ngettext("%(k)s table de %(size)s", "%(k)s tables de %(size)s", k) % {"k": k, "size": size}
             for size, k in sorted(((size, plan.sizes.count(size)) for size in set(plan.sizes)),
                                   key=lambda sk: plan.sizes.index(sk[0]))]
    if plan.byes:
        parts.append(ngettext("%(k)s exempt", "%(k)s exempts", plan.byes) % {"k": plan.byes})
    return _("%(players)s : %(tables)s.") % {
        "players": ngettext("%(n)s joueur", "%(n)s joueurs", plan.players) % {"n": plan.players},
        "tables": ", ".join(parts)}, True


def allowed_sizes(tournament: Tournament) -> tuple[int, ...]:
    """The sizes a table of this tournament may have, the main size first
    (:func:`tournaments.common.games.table_sizes`: the game's counts under its « Joueurs par table »)."""
    try:
        return games.table_sizes(tournament.game, tournament.record_options())
    except MalformedRecord as exc:
        raise InvalidInput(_("the tournament's options cannot be read: %(why)s")
                           % {"why": exc.text(translation.get_language() or "fr")}, field="options") from None


def table_size(tournament: Tournament) -> int:
    """The main size of this tournament's tables (2 for a game of two, 5 at Le Vingt-quatre by default)."""
    return allowed_sizes(tournament)[0]


def _seat_with_bye(round: Round, tables: list[list[int]], byes: Sequence[int]) -> list[Table]:
    """Seat the full tables, then one table of a single seat per bye (no deal is entered there)."""
    created = round_seat(round=round, tables=tables) if tables else []
    for bye in byes:
        table = Table.objects.create(round=round, number=len(created) + 1)
        Seat.objects.create(table=table, position=0, entry_id=bye)
        created.append(table)
    return created


@transaction.atomic
def round_swap(*, round: Round, a: int, b: int) -> pure.SwapResult:
    """Exchange two entries seated at different tables of ``round``; returns the repeats it creates."""
    tournament = round.tournament
    current = next((s for s in _seatings(tournament, upto=round.number) if s.round == round.number), None)
    if current is None:
        raise InvalidInput(_("this round is not seated yet"), field="round")
    for field, entry in (("a", a), ("b", b)):
        if entry not in current.entries:
            raise InvalidInput(_("entry %(entry)s is not seated in this round") % {"entry": entry}, field=field)
    try:
        result = pure.swap(current, a, b, history=_seatings(tournament, before=round.number))
    except pure.SeatingError as exc:
        raise InvalidInput(exc.text(translation.get_language() or "fr"), field="b") from None
    tables = [_ids(t) for t in result.seating.tables]
    substitutes = dict(Seat.objects.filter(table__round=round).exclude(substitute="")
                       .values_list("entry_id", "substitute"))  # a one-round replacement follows his player
    if tournament.is_match_game:
        singles = [t[0] for t in tables if len(t) == 1]
        _seat_with_bye(round, [t for t in tables if len(t) > 1], singles)
    else:
        round_seat(round=round, tables=tables)
    for entry_id, name in substitutes.items():
        Seat.objects.filter(table__round=round, entry_id=entry_id).update(substitute=name)
    return result


def round_repeats(*, round: Round) -> list[pure.Meeting]:
    """Pairs seated together more than once, up to this round, where this round is one of the meetings."""
    history = _seatings(round.tournament, upto=round.number)
    names: dict[Hashable, str] = dict(Entry.objects.filter(tournament=round.tournament)
                                      .values_list("id", "player__name"))
    # in French order, accents aside, as the players page lists them (the database's order put « É » after « Z »)
    pairs: list[tuple[str, str, tuple[int, ...]]] = []
    for m in pure.meetings_report(history):
        if round.number in m.rounds:
            a, b = sorted((str(names.get(m.a, m.a)), str(names.get(m.b, m.b))), key=french_key)
            pairs.append((a, b, m.rounds))
    pairs.sort(key=lambda p: (french_key(p[0]), french_key(p[1])))
    return [pure.Meeting(a, b, rounds) for a, b, rounds in pairs]
