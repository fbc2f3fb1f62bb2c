"""Writing a tournament's setup: the tournament, players, registrations, teams, rounds and seating, roles."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, Q
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.errors import MalformedRecord
from tournaments.clubs.models import Club, Licence
from tournaments.common import games, hooks
from tournaments.common.collation import french_slug
from tournaments.common.elision import with_name
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.event import identity, permissions
from tournaments.event.models import Entry, Player, Round, Seat, Table, Team, Tournament, TournamentRole

Status = Tournament.Status

#: the allowed moves of a tournament's status
TRANSITIONS: Mapping[str, frozenset[str]] = {
    Status.DRAFT: frozenset({Status.OPEN}),
    Status.OPEN: frozenset({Status.DRAFT, Status.RUNNING}),
    Status.RUNNING: frozenset({Status.FINISHED}),
    Status.FINISHED: frozenset({Status.RUNNING}),
}

DAY_FIELDS = frozenset({"date", "venue", "start_time", "round_minutes", "separate_clubs"})
"""The day of a tournament: set at creation, changed any time."""

TIE_BREAKS = frozenset({"best_deal", "contracts_won", "deals_won", "matches_won", "head_to_head"})
"""Tie-breaks an organizer may declare in advance (RULES.md A-T11); none by default: shared rank."""


def _check_options(game: str, options: Any) -> dict[str, Any]:
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise InvalidInput(_("options is a JSON object"), field="options")
    try:
        games.game(game).parse_options(dict(options))
    except MalformedRecord as exc:
        raise InvalidInput(exc.text(translation.get_language() or "fr"), field=exc.field) from None
    except (ImportError, KeyError):
        pass  # the game's module is not installed: options are checked when the first deal is judged
    return dict(options)


def _check_target(game: str, options: Mapping[str, Any] | None, target: int | None) -> None:
    """Refuse a match's target the game cannot play (Le Vingt-quatre's partie is a multiple of 4 points), naming
    the field ``target``: the records' options take it (:meth:`Tournament.record_options`), and a target accepted
    here would make every deal of the tournament unreadable later (the expert page answered 500)."""
    if target is None or not games.plays_matches(game):
        return
    try:
        games.game(game).parse_options({**(options or {}), "target": target})
    except MalformedRecord as exc:
        raise InvalidInput(exc.text(translation.get_language() or "fr"), field="target") from None
    except (ImportError, KeyError):
        pass  # the game's module is not installed: checked when the first deal is judged


def _unique_slug(name: str, slug: str | None) -> str:
    base = french_slug(slug or name)[:180] or "tournoi"
    candidate, n = base, 1
    while Tournament.objects.filter(slug=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def creation_club(user: Any, club_id: int | None) -> Club | None:
    """The club a user's new tournament belongs to: one he organizes, chosen (or his only one); none for a user
    who organizes no club (a superuser may leave it empty). Another club's number is refused."""
    allowed = permissions.creation_clubs(user)
    if club_id is not None:
        club = allowed.filter(pk=club_id).first()
        if club is None:
            raise InvalidInput(_("You do not organize this club: choose one of your clubs."), field="club")
        return club
    if user is not None and user.is_authenticated and user.is_superuser:
        return None
    mine = list(allowed[:2])
    if len(mine) > 1:
        raise InvalidInput(_("Choose the club that organizes this tournament."), field="club")
    return mine[0] if mine else None


@transaction.atomic
def tournament_create(*, name: str, game: str, user: Any, options: Mapping[str, Any] | None = None,
                      format: str = Tournament.Format.INDIVIDUAL, rounds_planned: int = 1,
                      deals_per_round: int | None = None, target: int | None = None, is_public: bool = False,
                      tie_breaks: Sequence[str] = (), slug: str | None = None, club: Club | None = None,
                      **day: Any) -> Tournament:
    """A new tournament in draft; its creator becomes its organizer. ``day``: its date, venue, start_time,
    round_minutes and separate_clubs (the day itself, :data:`DAY_FIELDS`). ``club``: the club that runs it (its
    organizers manage it), from :func:`creation_club`."""
    unknown_day = set(day) - DAY_FIELDS
    if unknown_day:
        raise InvalidInput(_("%(field)s cannot be changed here") % {"field": sorted(unknown_day)[0]},
                           field=sorted(unknown_day)[0])
    if not name or not name.strip():
        raise InvalidInput(_("a tournament needs a name"), field="name")
    if game not in games.names():
        raise InvalidInput(_("unknown game %(game)s (one of %(known)s)")
                           % {"game": repr(game), "known": ", ".join(games.names())}, field="game")
    if format not in Tournament.Format.values:
        raise InvalidInput(_("format is one of %(values)s") % {"values": ", ".join(Tournament.Format.values)},
                           field="format")
    unknown = [t for t in tie_breaks if t not in TIE_BREAKS]
    if unknown:
        raise InvalidInput(_("unknown tie-break %(name)s (known: %(known)s)")
                           % {"name": repr(unknown[0]), "known": ", ".join(sorted(TIE_BREAKS))}, field="tie_breaks")
    if rounds_planned < 1:
        raise InvalidInput(_("at least one round"), field="rounds_planned")
    _check_target(game, options, target)
    tournament = Tournament.objects.create(
        name=name.strip(), slug=_unique_slug(name, slug), game=game, options=_check_options(game, options),
        format=format, rounds_planned=rounds_planned, deals_per_round=deals_per_round, target=target,
        is_public=is_public, tie_breaks=list(tie_breaks), created_by=user if user and user.is_authenticated else None,
        club=club, **{k: v for k, v in day.items() if v is not None})
    if user is not None and user.is_authenticated:
        TournamentRole.objects.create(tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER)
    hooks.scores_changed(tournament.pk)
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, **changes: Any) -> Tournament:
    """Change a tournament's settings; conventions and format are frozen once it runs."""
    allowed = {"name", "options", "format", "rounds_planned", "deals_per_round", "target", "is_public",
               "tie_breaks", "released_round", *DAY_FIELDS}
    for key, value in changes.items():
        if key not in allowed:
            raise InvalidInput(_("%(field)s cannot be changed here") % {"field": key}, field=key)
        if key in {"options", "format", "deals_per_round", "target", "tie_breaks"} and \
                tournament.status in (Status.RUNNING, Status.FINISHED) and value != getattr(tournament, key):
            raise StateConflict(_("%(field)s is fixed once the tournament runs") % {"field": key}, field=key,
                                code="frozen")
        if key == "options":
            value = _check_options(tournament.game, value)
        if key == "target":
            _check_target(tournament.game, changes.get("options", tournament.options), value)
        setattr(tournament, key, value)
    tournament.save()
    hooks.scores_changed(tournament.pk)
    return tournament


@transaction.atomic
def tournament_set_partners(*, tournament: Tournament, partners: bool) -> Tournament:
    """Have partners play together or each alone (La Triomphe par équipes: the ``partners`` convention of the
    create form, ``options.teams``), until the first round starts — the tournament may be running, its first
    round drawn but not begun. Tables drawn for the sides of then are dropped with the change (no deal is entered
    at them: :func:`partners_redraw` names their rounds, to be drawn again). Refused (StateConflict ``frozen`` on
    ``partners``) once a round has begun or a deal is entered: its players already play the sides of then."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not games.partners_chosen(tournament.game):
        raise InvalidInput(_("%(game)s ne se joue pas par équipes de partenaires.")
                           % {"game": games.label(tournament.game)}, field="partners")
    if games.plays_with_partners(tournament.options) == partners:
        return tournament
    if partners_frozen(tournament):
        raise StateConflict(_("La première manche a commencé : le jeu par équipes ne change plus. Il se choisit "
                              "avant de commencer la première manche."), field="partners", code="frozen")
    try:
        options = games.with_partners(tournament.game, tournament.options or {}, partners)
    except MalformedRecord as exc:
        raise InvalidInput(exc.text(translation.get_language() or "fr"), field="partners") from None
    tournament.options = _check_options(tournament.game, options)
    tournament.save(update_fields=["options", "updated_at"])
    # the seats drawn for the other sides (partners together, or each alone) no longer fit: drawn again
    Table.objects.filter(round__tournament=tournament).delete()
    hooks.scores_changed(tournament.pk)
    return tournament


def partners_frozen(tournament: Tournament) -> bool:
    """Whether the partners of a team game no longer change: a round has begun or a deal is entered."""
    return (tournament.rounds.exclude(status=Round.Status.PLANNED).exists()
            or Table.objects.filter(round__tournament=tournament, deals__isnull=False).exists())


def partners_redraw(tournament: Tournament) -> list[int]:
    """The rounds already drawn whose tables a change of partners drops (:func:`tournament_set_partners`)."""
    return sorted(set(Table.objects.filter(round__tournament=tournament).values_list("round__number", flat=True)))


def status_path(old: str, new: str) -> list[str]:
    """The shortest chain of allowed moves from ``old`` to ``new`` (both included), or [] if none."""
    paths: dict[str, list[str]] = {old: [old]}
    queue = [old]
    while queue:
        here = queue.pop(0)
        for step in sorted(TRANSITIONS[here]):
            if step not in paths:
                paths[step] = [*paths[here], step]
                queue.append(step)
    return paths.get(new, [])


@transaction.atomic
def tournament_set_status(*, tournament: Tournament, status: str, confirm_unfinished: bool = False,
                          confirm_pending: bool = False) -> Tournament:
    """Move a tournament along draft → open → running → finished (back steps: open → draft, finished → running).
    Finished with a round still in play only with ``confirm_unfinished`` (StateConflict ``rounds_unfinished``
    naming them: a walk ended a tournament in one tap during its round 1); with deals awaiting the chief
    arbiter's visa only with ``confirm_pending`` (StateConflict ``deals_pending`` naming each deal, as ending or
    publishing a round does: they would silently not count)."""
    if status not in Status.values:
        raise InvalidInput(_("status is one of %(values)s") % {"values": ", ".join(Status.values)}, field="status")
    if status == tournament.status:
        return tournament
    if status not in TRANSITIONS[tournament.status]:
        path = status_path(tournament.status, status)
        if len(path) > 2:
            raise StateConflict(_("Un tournoi ne passe pas de « %(old)s » à « %(new)s » directement : l'étape "
                                  "suivante est « %(next)s ».")
                                % {"old": Status(tournament.status).label, "new": Status(status).label,
                                   "next": Status(path[1]).label}, field="status", code="bad_transition")
        raise StateConflict(_("a tournament cannot go from %(old)s to %(new)s")
                            % {"old": Status(tournament.status).label, "new": Status(status).label}, field="status",
                            code="bad_transition")
    if status == Status.FINISHED and not confirm_unfinished:
        playing = tournament_rounds_in_play(tournament)
        if playing:
            raise StateConflict(ngettext("la manche %(list)s n'est pas terminée", "les manches %(list)s ne sont pas "
                                         "terminées", len(playing)) % {"list": ", ".join(map(str, playing))},
                                field="confirm_unfinished", code="rounds_unfinished")
    if status == Status.FINISHED and not confirm_pending:
        pending = tournament_pending_deals(tournament)
        if pending:
            _pending_conflict([(table, deal, rnd) for rnd, table, deal, _pk in pending], "confirm_pending")
    finished = Status.FINISHED in (status, tournament.status)
    tournament.status = status
    tournament.save(update_fields=["status", "updated_at"])
    if finished:
        hooks.tournament_finished_changed(tournament.pk)
    return tournament


def tournament_rounds_in_play(tournament: Tournament) -> list[int]:
    """The numbers of the tournament's rounds not finished, in order."""
    return list(tournament.rounds.exclude(status=Round.Status.FINISHED).order_by("number")
                .values_list("number", flat=True))


def tournament_pending_deals(tournament: Tournament) -> list[tuple[int, int, int, int]]:
    """Every deal of the tournament awaiting the chief arbiter's visa, as (round number, table number, deal number,
    deal id) in order: they do not count until approved."""
    # the deals' status by its value: this layer sits under the deals' package (as round_pending_deals)
    return list(Table.objects.filter(round__tournament=tournament, deals__status="pending")
                .order_by("round__number", "number", "deals__number")
                .values_list("round__number", "number", "deals__number", "deals__pk"))


@dataclass(frozen=True)
class ShortTables:
    """The tables of a round of a game of deals that have not played the round's deals: ``expected`` is the
    number each should have (the tournament's deals per round, else the most any table played; 0 when no deal
    is entered at all), ``tables`` the (table number, deals played) of those below it, ``entered`` the deals
    played in the round."""

    expected: int
    tables: list[tuple[int, int]]
    entered: int = 0

    @property
    def none_entered(self) -> bool:
        """Tables are playing and none of them has entered a deal."""
        return bool(self.tables) and self.entered == 0


def round_short_tables(round: Round) -> ShortTables:
    """The tables of a game of deals with fewer deals than the others or than planned (a bye or a forfeit has
    none to play; an annulled deal was not played and is dealt again — except a duplicate's étui, which is not
    replayed: the arbiter gives its artificial result)."""
    rows = list(Table.objects.filter(round=round, forfeit__isnull=True)
                .annotate(players=Count("seats", distinct=True),
                          played=Count("deals", filter=~Q(deals__status="annulled") | Q(duplicate__isnull=False),
                                       distinct=True))
                .filter(players__gte=2).order_by("number").values_list("number", "played"))
    expected = round.tournament.deals_per_round or max((played for _n, played in rows), default=0)
    return ShortTables(expected, [(n, played) for n, played in rows if expected == 0 or played < expected],
                       sum(played for _n, played in rows))


@transaction.atomic
def round_unfinished(round: Round) -> list[int]:
    """The numbers of the round's tables not done: in a game played in matches, those whose match is not over
    (a table of one player — a bye — and a table declared forfeit are over); in a game of deals, those with
    fewer deals than planned or than the others (:func:`round_short_tables`)."""
    if not games.plays_matches(round.tournament.game):
        return [number for number, _played in round_short_tables(round).tables]
    return list(Table.objects.filter(round=round, match_ended=False, forfeit__isnull=True)
                .annotate(players=Count("seats")).filter(players__gte=2)
                .order_by("number").values_list("number", flat=True))


def round_open_tables(round: Round, *, publishing: bool = False) -> tuple[list[int], ShortTables | None]:
    """The tables that ending (``publishing``: publishing) the round leaves unfinished, and in a game of deals its
    short tables: a round in play is published so that the public ranking follows each deal, so publishing asks
    only when no deal at all is entered."""
    if games.plays_matches(round.tournament.game):
        return round_unfinished(round), None
    short = round_short_tables(round)
    if publishing and not short.none_entered:
        return [], short
    return [number for number, _played in short.tables], short


def fouled_etuis_waiting(round: Round) -> list[tuple[int, int]]:
    """(table, étui) of each fouled étui of a duplicate round still waiting for the arbiter: its call « étui
    faussé » not answered yet (``tournaments.duplicate.service``: the artificial results given, or a correction that
    follows the étui, answer it)."""
    rows = (Table.objects.filter(round=round, arbiter_calls__reason="fouled_etui",
                                 arbiter_calls__state__in=["open", "taken"], duplicate__isnull=False)
            .order_by("number", "arbiter_calls__deal__number")
            .values_list("number", "arbiter_calls__deal__number", "duplicate__boards"))
    return [(number, boards[deal - 1]) for number, deal, boards in rows
            if deal is not None and 0 < deal <= len(boards or [])]


def _with_fouled_etuis(round: Round, text: str, tables: list[int]) -> tuple[str, list[int]]:
    """:func:`unfinished_check`'s sentence and tables with the fouled étuis still waiting for the arbiter said
    first: the round is then finished or published only when confirmed, as with tables unfinished."""
    waiting = fouled_etuis_waiting(round)
    if not waiting:
        return text, tables
    etuis = ", ".join(_("étui %(etui)s (table %(table)s)") % {"etui": e, "table": t} for t, e in waiting)
    said = ngettext("Un étui faussé attend la décision de l'arbitre : %(etuis)s.",
                    "Des étuis faussés attendent la décision de l'arbitre : %(etuis)s.", len(waiting)) % {
        "etuis": etuis}
    said = said.replace("%", "%%")  # the sentence is formatted again with the tables' counts
    if tables:
        return f"{said} {text}", tables
    return f"{said} " + _("Confirmez pour continuer quand même."), [t for t, _e in waiting]


def unfinished_check(round: Round, *, confirmed: bool, field: str, publishing: bool = False) -> None:
    """Refuse to end or publish a round with matches still in play unless the organizer confirmed it; in a game
    of deals, to end it with tables short of deals, or to end or publish it with no deal at all (a round in play
    is published so that the public ranking follows each deal: its tables are short until the end)."""
    if confirmed:
        return
    expected = 0
    tables, short = round_open_tables(round, publishing=publishing)
    if short is None:
        text = ngettext("%(count)s partie n'est pas terminée (table %(tables)s) : confirmez pour continuer quand "
                        "même.", "%(count)s parties ne sont pas terminées (tables %(tables)s) : confirmez pour "
                        "continuer quand même.", len(tables))
    else:
        expected = short.expected
        if short.none_entered:
            text = _("Aucune donne n'est saisie dans cette manche : confirmez pour continuer quand même.")
        else:
            text = ngettext("%(count)s table n'a pas joué ses %(expected)s donnes (table %(tables)s) : confirmez "
                            "pour continuer quand même.", "%(count)s tables n'ont pas joué leurs %(expected)s donnes "
                            "(tables %(tables)s) : confirmez pour continuer quand même.", len(tables))
    text, tables = _with_fouled_etuis(round, text, tables)
    if tables:
        raise StateConflict(text % {"count": len(tables), "tables": ", ".join(map(str, tables)),
                                    "expected": expected},
                            field=field, code="matches_unfinished")


def round_pending_deals(round: Round) -> list[tuple[int, int]]:
    """The round's deals awaiting the chief arbiter's visa (a garde sans or contre entered by someone who cannot
    give it: they do not count until approved), as (table number, deal number) in order."""
    # the deals' status by its value: this layer sits under the deals' package (as round_short_tables' "annulled")
    return list(Table.objects.filter(round=round, deals__status="pending")
                .order_by("number", "deals__number").values_list("number", "deals__number"))


def pending_deals_words(pending: Sequence[tuple[int, ...]]) -> str:
    """« la donne 3 de la table 2 et la donne 1 de la table 4 »; with the round when given (table, deal, round):
    « la donne 1 de la table 2 (manche 1) »."""
    items = [(_("la donne %(deal)s de la table %(table)s (manche %(round)s)") if len(item) > 2 else
              _("la donne %(deal)s de la table %(table)s"))
             % {"table": item[0], "deal": item[1], "round": item[2] if len(item) > 2 else ""} for item in pending]
    if len(items) < 2:
        return "".join(items)
    return _("%(first)s et %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def pending_check(round: Round, *, confirmed: bool, field: str = "confirm_pending") -> None:
    """Refuse to end or publish a round with deals awaiting the chief arbiter's visa unless the organizer confirmed
    it (StateConflict ``deals_pending`` naming each deal): they would silently not count."""
    if confirmed:
        return
    pending = round_pending_deals(round)
    if pending:
        _pending_conflict(pending, field)


def _pending_conflict(pending: Sequence[tuple[int, ...]], field: str) -> None:
    """The refusal naming the deals awaiting the visa (:func:`pending_deals_words`), to be confirmed."""
    text = ngettext("%(list)s attend le visa de l'arbitre principal : elle ne compte pas tant qu'elle n'est pas "
                    "visée. Confirmez pour continuer quand même.",
                    "%(count)s donnes attendent le visa de l'arbitre principal (%(list)s) : elles ne comptent pas "
                    "tant qu'elles ne sont pas visées. Confirmez pour continuer quand même.", len(pending))
    text %= {"count": len(pending), "list": pending_deals_words(pending)}
    raise StateConflict(text[:1].upper() + text[1:], field=field, code="deals_pending")


def round_disputes(round: Round) -> tuple[list[tuple[int, int]], list[int]]:
    """What the arbiter has not answered in the round: its contested deals (a player's « Je conteste »), as (table
    number, deal number), and the tables of its calls still open or taken (one number a call; a duplicate's fouled
    étui is told apart, :func:`fouled_etuis_waiting`)."""
    # by their values and related names: this layer sits under the deals' and the links' packages
    disputed = [(number, deal) for number, deal, status in
                Table.objects.filter(round=round, deals__sheet__state="disputed")
                .order_by("number", "deals__number").values_list("number", "deals__number", "deals__status")
                if status != "annulled"]
    calls = [number for number, reason in
             Table.objects.filter(round=round, arbiter_calls__state__in=["open", "taken"])
             .order_by("number", "arbiter_calls__created_at").values_list("number", "arbiter_calls__reason")
             if reason != "fouled_etui"]
    return disputed, calls


def disputes_words(disputed: Sequence[object], calls: Sequence[object]) -> str:
    """« 1 donne contestée et 2 appels sans réponse », as much as there is."""
    parts = []
    if disputed:
        parts.append(ngettext("%(count)s donne contestée", "%(count)s donnes contestées", len(disputed))
                     % {"count": len(disputed)})
    if calls:
        parts.append(ngettext("%(count)s appel sans réponse", "%(count)s appels sans réponse", len(calls))
                     % {"count": len(calls)})
    return _("%(first)s et %(last)s") % {"first": parts[0], "last": parts[1]} if len(parts) == 2 else "".join(parts)


def disputes_check(round: Round, *, confirmed: bool, field: str = "confirm_disputes") -> None:
    """Refuse to publish a round while a deal is contested or a call unanswered, unless the organizer confirmed it
    (StateConflict ``deals_disputed``): the public would read results the arbiter may still change."""
    if confirmed:
        return
    disputed, calls = round_disputes(round)
    if disputed or calls:
        text = _("%(what)s : l'arbitre principal n'a pas encore répondu, les résultats publiés peuvent encore "
                 "changer. Confirmez pour continuer quand même.") % {"what": disputes_words(disputed, calls)}
        raise StateConflict(text[:1].upper() + text[1:], field=field, code="deals_disputed")


def round_release(*, round: Round, released: bool = True, confirm_unfinished: bool = False,
                  confirm_pending: bool = False, confirm_disputes: bool = False) -> Round:
    """Publish (or withdraw) a round's results; the tournament remembers the last round released. A
    tournament still in draft publishes nothing; a round whose matches are not all over, or a round of a game
    of deals without any deal, is published only with ``confirm_unfinished`` (its unfinished tables count for
    nobody); a round with deals awaiting the visa, only with ``confirm_pending``; a round with a deal contested
    or a call unanswered, only with ``confirm_disputes``."""
    if released and round.tournament.status == Status.DRAFT:
        raise StateConflict(_("Le tournoi est encore en brouillon : ouvrez les inscriptions puis passez-le « en "
                              "cours » avant de publier une manche."), field="released", code="draft")
    if released and not round.released:
        unfinished_check(round, confirmed=confirm_unfinished, field="confirm_unfinished", publishing=True)
        pending_check(round, confirmed=confirm_pending)
        disputes_check(round, confirmed=confirm_disputes)
    round.released = released
    round.save(update_fields=["released"])
    tournament = round.tournament
    numbers = list(tournament.rounds.filter(released=True).values_list("number", flat=True))
    tournament.released_round = max(numbers, default=0)
    tournament.save(update_fields=["released_round", "updated_at"])
    hooks.scores_changed(tournament.pk)
    return round


# -- players ---------------------------------------------------------------------------------------

def player_create(*, name: str, club: str = "", licence: str = "", birth_date: Any = None,
                  tournament: Tournament | None = None) -> Player:
    """A player, or the existing one with the same licence number — unless that one has another name: two players
    on one licence are refused (the register, ``tournaments.event.register``). Without a licence on record, the
    register's one record of the same name and club that nothing contradicts, not yet entered in ``tournament``
    (``identity.known_player``): the same person at the club's next tournament, a licence typed now given to him.

    A licence of the federation's file (``Licence``) gives the new player what the file knows: his name when none
    is typed (registering by licence), his birth date (the categories and the likely duplicates read it), his club
    (the club's members) — as the next import of the file would."""
    name, club, licence = (name or "").strip(), (club or "").strip(), (licence or "").strip()
    record = Licence.objects.filter(number=licence).select_related("club").first() if licence else None
    if not name and record is not None:
        name = " ".join(part for part in (record.first_name.strip(), record.last_name.strip()) if part)
    if not name:
        if licence:
            raise InvalidInput(_("La licence %(licence)s n'est pas dans le fichier des licences : donnez le nom du "
                                 "joueur.") % {"licence": licence}, field="name")
        raise InvalidInput(_("a player needs a name"), field="name")
    if record is not None:
        birth_date = birth_date or record.birth_date
    if licence:
        existing = Player.objects.filter(licence=licence).first()
        if existing is not None:
            if _header_key(existing.name) != _header_key(name):
                raise InvalidInput(with_name(_("La licence %(licence)s est celle de %(name)s : deux joueurs ne "
                                               "partagent pas une licence. S'il s'agit de la même personne, "
                                               "inscrivez-la sous ce nom."), existing.name, licence=licence),
                                   field="licence")
            if birth_date is not None and existing.birth_date is None:
                existing.birth_date = birth_date
                existing.save(update_fields=["birth_date"])
            return existing
    known = identity.known_player(name=name, club=club, licence=licence, birth_date=birth_date,
                                  tournament_id=tournament.pk if tournament is not None else None)
    if known is not None:
        filled = {"licence": licence, "birth_date": birth_date}
        changed = [f for f, value in filled.items() if value and not getattr(known, f)]
        for f in changed:
            setattr(known, f, filled[f])
        if changed:
            known.save(update_fields=changed)
        return known
    return Player.objects.create(name=name, club=club or (record.club_name if record else ""), licence=licence,
                                 birth_date=birth_date, home_club=record.club if record else None)


@transaction.atomic
def player_register(*, tournament: Tournament, player: Player, team: Team | None = None) -> Entry:
    """Register a player (again: the existing entry, no longer withdrawn)."""
    if tournament.status in (Status.RUNNING, Status.FINISHED) and not tournament.entries.filter(
            player=player).exists():
        pass  # late registrations are allowed: the organizer decides
    if team is not None and team.tournament_id != tournament.pk:
        raise InvalidInput(_("the team belongs to another tournament"), field="team")
    entry, created = Entry.objects.get_or_create(tournament=tournament, player=player, defaults={"team": team})
    if not created and (entry.withdrawn or (team is not None and entry.team_id != team.pk)):
        entry.withdrawn = False
        if team is not None:
            entry.team = team
        entry.save()
        created = True
    if created:
        hooks.scores_changed(tournament.pk)
    return entry


@transaction.atomic
def entry_update(*, entry: Entry, team: Team | Any | None = ..., withdrawn: bool | None = None) -> Entry:
    if team is not ...:
        if team is not None and team.tournament_id != entry.tournament_id:
            raise InvalidInput(_("the team belongs to another tournament"), field="team")
        entry.team = team
    if withdrawn is not None:
        entry.withdrawn = withdrawn
    entry.save()
    hooks.scores_changed(entry.tournament_id)
    return entry


@dataclass
class CsvImport:
    """What an import did: the entries registered, per line what could not be read, and the columns left aside.

    ``ignored``: the headers of the columns the import did not use, as the file spells them (« Sexe »,
    « Date »); the page says them, so that nothing is dropped without a word."""

    entries: list[Entry] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    #: the names of the rows left aside because their person is already entered in the tournament (or earlier in
    #: the file): same folded name, and no other club or licence to say it is someone else
    already: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


#: the headers understood, after :func:`_header_key` (accents, case, « N° » and punctuation folded)
CSV_HEADERS = {
    # the player's whole name; with a « prénom » column, « nom » is the family name
    "name": ("name", "nom", "joueur", "player", "nom complet", "nom et prenom", "full name"),
    "first_name": ("prenom", "prenoms", "first name", "firstname", "given name"),
    "club": ("club", "nom du club", "club name"),
    "licence": ("licence", "license", "licence number", "license number", "n licence", "no licence",
                "num licence", "numero licence", "numero de licence", "n de licence", "no de licence",
                "n licencie", "licence ffjt", "licence fft", "n licence fft", "n licence ffjt"),
    "team": ("team", "equipe", "nom de l equipe"),
}

#: understood, but the register has no field for them yet: reported as ignored
CSV_KNOWN_IGNORED = ("sexe", "genre", "categorie", "cat")


def _header_key(header: str) -> str:
    """A header folded for matching: « N° licence » → ``n licence``, « Prénom » → ``prenom``."""
    text = unicodedata.normalize("NFKD", header.replace("\ufeff", "")).casefold()
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.replace("nº", "no ").replace("n°", "n ")
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text).split())


class CsvUnreadable(InvalidInput):
    """A player file that cannot be read as text; ``line``: where the first unreadable byte is (None: the whole
    file, a spreadsheet — never « Ligne 1 : c'est un classeur Excel »)."""

    def __init__(self, message: str, *, line: int | None = None, code: str | None = None) -> None:
        super().__init__(message, field="file", code=code)
        self.line = line


def csv_decode(data: str | bytes) -> str:
    """The text of an uploaded player file: UTF-8 (a BOM dropped), UTF-16 with its BOM (Excel's « texte
    Unicode »), else Windows-1252 (Excel's « CSV séparateur point-virgule » in France) — never latin-1,
    which reads cp1252's « œ » (0x9C) and « Œ » (0x8C) as control characters. A file that is none of them
    (a spreadsheet, an image, another code page) is refused with the line of its first unreadable byte."""
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    if data.startswith(b"PK\x03\x04") or data.startswith(b"\xd0\xcf\x11\xe0"):
        raise CsvUnreadable(_("C'est un classeur Excel, pas un fichier CSV : dans Excel, « Enregistrer sous » "
                              "puis « CSV (séparateur : point-virgule) », et importez ce fichier-là."),
                            code="not_csv")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise CsvUnreadable(_("le fichier n'est ni en UTF-8 ni en Windows-1252 (octet %(byte)s illisible). "
                              "Enregistrez-le depuis Excel en « CSV (séparateur : point-virgule) » ou en « CSV "
                              "UTF-8 ».") % {"byte": f"0x{data[exc.start]:02X}"},
                            line=data[:exc.start].count(b"\n") + 1, code="encoding") from None
    if "\x00" in text:
        raise CsvUnreadable(_("Ce fichier n'est pas du texte : enregistrez la liste des joueurs en « CSV "
                              "(séparateur : point-virgule) »."), line=text[:text.index("\x00")].count("\n") + 1,
                            code="not_csv")
    return text


def _read_csv(text: str) -> tuple[list[str], list[list[str]]]:
    """The header cells (as typed, trimmed) and the rows; ``;`` ``,`` or tab sniffed from the header line."""
    first = text.split("\n", 1)[0]
    counts = {d: first.count(d) for d in ";\t,"}
    delimiter = max(counts, key=lambda d: counts[d]) if any(counts.values()) else None
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:2048], delimiters=",;\t").delimiter
        except csv.Error:
            delimiter = ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter, quotechar='"', skipinitialspace=False))
    if not rows:
        return [], []
    return [h.strip() for h in rows[0]], rows[1:]


def csv_columns(header: list[str], rows: list[list[str]],
                headers: Mapping[str, Any] | None = None) -> tuple[dict[str, int], list[str]]:
    """Which column holds what, and the headers of the columns not used (a column without a header is
    named by its number, and only when it holds something). ``headers``: each field and the header names that
    give it (the players' file's by default, :data:`CSV_HEADERS`; the licence file passes its own)."""
    headers = CSV_HEADERS if headers is None else headers
    columns: dict[str, int] = {}
    ignored: list[str] = []
    for i, h in enumerate(header):
        key = _header_key(h)
        found = next((k for k, names in headers.items() if key in names and k not in columns), None)
        if found is not None:
            columns[found] = i
        elif key:
            ignored.append(h)
        elif any(i < len(row) and row[i].strip() for row in rows):
            ignored.append(_("colonne %(n)s (sans titre)") % {"n": i + 1})
    return columns, ignored


@transaction.atomic
def players_import_csv(*, tournament: Tournament, text: str | bytes, dry_run: bool = False) -> CsvImport:
    """Register players from a CSV file, all or nothing.

    Encodings: UTF-8 (with or without BOM), UTF-16 with BOM, Windows-1252 (:func:`csv_decode`); separator
    ``;`` ``,`` or tab, read from the header line. Headers (accents, case and « N° » folded): name/nom/joueur,
    prénom, club, licence/N° licence/numéro de licence, équipe/team. With a « Prénom » column the player's
    name is « Prénom Nom », each as typed (a French club's file lists Nom in capitals: « Marie BŒUF »).
    Any other column (Sexe, Catégorie — the register has no field for them yet —, Date …) is listed in
    ``ignored``. Every line that cannot be read is reported with its line number (the header is line 1)
    and nothing is saved; otherwise every player is created (or found by licence) and registered — but a row
    whose person is already entered in the tournament, or on an earlier row (same folded name, no other club or
    licence), which is left aside and named in ``already`` (:func:`_not_entered_twice`).
    """
    result = CsvImport()
    try:
        text = csv_decode(text)
    except CsvUnreadable as exc:
        result.errors.append({"line": exc.line, "field": "file", "message": exc.message})
        return result
    header, rows = _read_csv(text)
    columns, result.ignored = csv_columns(header, rows)
    if "name" not in columns:
        result.errors.append({"line": 1, "field": "name",
                              "message": _("La première ligne doit nommer une colonne « nom » (ou « name »).")})
        return result
    seen_licences: dict[str, int] = {}
    parsed = []
    for n, row in enumerate(rows, start=2):
        if not any(cell.strip() for cell in row):
            continue

        def cell(key: str, row: list[str] = row) -> str:
            i = columns.get(key)
            return row[i].strip() if i is not None and i < len(row) else ""

        if len(row) > len(header):
            result.errors.append({"line": n, "field": None,
                                  "message": _("%(cells)s cases pour %(columns)s colonnes : un « ; » ou une virgule "
                                               "de trop ?") % {"cells": len(row), "columns": len(header)}})
            continue
        name, club, licence, team = cell("name"), cell("club"), cell("licence"), cell("team")
        name = " ".join(part for part in (cell("first_name"), name) if part)
        if not name:
            result.errors.append({"line": n, "field": "name", "message": _("Le nom est vide.")})
            continue
        if len(name) > 120 or len(club) > 120:
            result.errors.append({"line": n, "field": "name" if len(name) > 120 else "club",
                                  "message": _("120 caractères au plus.")})
            continue
        if licence:
            if len(licence) > 40 or not licence.replace("-", "").replace(" ", "").isalnum():
                result.errors.append({"line": n, "field": "licence",
                                      "message": _("« %(licence)s » n'est pas un numéro de licence.")
                                      % {"licence": licence}})
                continue
            if licence in seen_licences:
                result.errors.append({"line": n, "field": "licence",
                                      "message": _("La licence %(licence)s figure déjà ligne %(line)s.")
                                      % {"licence": licence, "line": seen_licences[licence]}})
                continue
            seen_licences[licence] = n
            other = Player.objects.filter(licence=licence).first()
            if other is not None and other.name.casefold() != name.casefold():
                result.errors.append({"line": n, "field": "licence",
                                      "message": with_name(_("La licence %(licence)s est celle de %(name)s."),
                                                           other.name, licence=licence)})
                continue
        parsed.append((name, club, licence, team))
    if result.errors:
        return result
    parsed = _not_entered_twice(tournament, parsed, result.already)
    if dry_run:
        return result
    teams: dict[str, Team] = {}
    for name, club, licence, team_name in parsed:
        team = None
        if team_name:
            team = teams.get(team_name) or Team.objects.get_or_create(tournament=tournament, name=team_name)[0]
            teams[team_name] = team
        player = player_create(name=name, club=club, licence=licence, tournament=tournament)
        result.entries.append(player_register(tournament=tournament, player=player, team=team))
    return result


def _not_entered_twice(tournament: Tournament, rows: list[tuple[str, str, str, str]],
                       already: list[str]) -> list[tuple[str, str, str, str]]:
    """The import's rows but those whose person is already entered in ``tournament`` (an active entry) or on an
    earlier row: the same folded name (:func:`identity.name_key`) with no other club and no other licence to
    contradict it. Their names (as entered) go to ``already``: a file sent twice registers nobody twice."""
    entered: list[tuple[str, str, set[str], str]] = []  # name as entered, folded name, folded clubs, licence
    for entry in tournament.entries.filter(withdrawn=False).select_related("player", "player__home_club"):
        player = entry.player
        clubs = {identity.name_key(player.club),
                 identity.name_key(player.home_club.name if player.home_club is not None else "")} - {""}
        entered.append((player.name, identity.name_key(player.name), clubs, player.licence))
    kept = []
    for row in rows:
        name, club, licence, _team = row
        key, club_key = identity.name_key(name), identity.name_key(club)
        same = next((e for e in entered
                     if (licence and e[3] == licence)
                     or (e[1] == key and not (club_key and e[2] and club_key not in e[2])
                         and not (licence and e[3] and licence != e[3]))), None)
        if same is not None:
            already.append(same[0])
            continue
        kept.append(row)
        entered.append((name, key, {club_key} - {""}, licence))
    return kept


@transaction.atomic
def team_create(*, tournament: Tournament, name: str, entries: Iterable[Entry] = ()) -> Team:
    name = (name or "").strip()
    if not name:
        raise InvalidInput(_("a team needs a name"), field="name")
    if Team.objects.filter(tournament=tournament, name=name).exists():
        raise InvalidInput(_("there is already a team “%(name)s”") % {"name": name}, field="name")
    team = Team.objects.create(tournament=tournament, name=name)
    for entry in entries:
        if entry.tournament_id != tournament.pk:
            raise InvalidInput(_("entry %(entry)s belongs to another tournament") % {"entry": entry.pk},
                               field="entries")
        entry.team = team
        entry.save(update_fields=["team"])
    hooks.scores_changed(tournament.pk)
    return team


# -- rounds and seating ----------------------------------------------------------------------------

MAX_ROUND_NUMBER = 999
"""Rounds are numbered from 1 to this (the column is a small integer)."""


@transaction.atomic
def round_create(*, tournament: Tournament, number: int | None = None,
                 tables: Sequence[Sequence[int]] | None = None) -> Round:
    """A new round (next number by default), seated at once when ``tables`` is given."""
    if number is None:
        last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
        number = (last or 0) + 1
    if number < 1:
        raise InvalidInput(_("round numbers start at 1"), field="number")
    if number > MAX_ROUND_NUMBER:
        raise InvalidInput(_("round numbers go up to %(max)s") % {"max": MAX_ROUND_NUMBER}, field="number")
    if tournament.rounds.filter(number=number).exists():
        raise InvalidInput(_("round %(number)s already exists") % {"number": number}, field="number")
    rnd = Round.objects.create(tournament=tournament, number=number)
    if tables is not None:
        round_seat(round=rnd, tables=tables)
    hooks.scores_changed(tournament.pk)
    return rnd



def _table_sizes(tournament: Tournament) -> tuple[int, ...]:
    """The sizes a table of this tournament may have (:func:`tournaments.common.games.table_sizes`);
    the game's counts when its options cannot be read or its module is not installed."""
    try:
        return games.table_sizes(tournament.game, tournament.record_options())
    except (MalformedRecord, ImportError, KeyError):
        return games.player_counts(tournament.game)


@transaction.atomic
def round_seat(*, round: Round, tables: Sequence[Sequence[int]]) -> list[Table]:
    """Seat a round: ``tables[i]`` lists the entry ids of table i+1 in the order of play.

    Replaces the round's seating as long as no deal was entered (never in duplicate: the movement seats the
    tables, :class:`StateConflict` ``seated_by_movement``); every entry seated at most
    once, each table a size the tournament allows (its game's counts under its « Joueurs par table »:
    :func:`tournaments.common.games.table_sizes`), withdrawn entries refused.
    """
    tournament = round.tournament
    # duplicate (a set-up under the reverse name ``duplicate``; the event layer imports nothing above it): the
    # movement seats every round, its tables carry the étuis; a seating by hand would drop them
    if Tournament.objects.filter(pk=tournament.pk, duplicate__isnull=False).exists():
        raise StateConflict(_("Tournoi en donnes dupliquées : le mouvement place les tables de chaque manche, "
                              "elles ne se saisissent pas à la main. Pour changer les tables, refaites le "
                              "mouvement depuis la page duplicate."), field="tables", code="seated_by_movement")
    if not isinstance(tables, (list, tuple)) or not tables:
        raise InvalidInput(_("tables is a non-empty list of lists of entry ids"), field="tables")
    if round.tables.filter(deals__isnull=False).exists():
        raise StateConflict(_("deals were entered in this round: its seating is fixed"), field="tables",
                            code="round_started")
    counts = _table_sizes(tournament)
    entries = {e.pk: e for e in tournament.entries.all()}
    seen: set[int] = set()
    for t, ids in enumerate(tables):
        path = f"tables[{t}]"
        if not isinstance(ids, (list, tuple)) or len(ids) not in counts:
            raise InvalidInput(_("a table of %(game)s seats %(counts)s players")
                               % {"game": games.label(tournament.game),
                                  "counts": _(" or ").join(map(str, sorted(counts)))}, field=path)
        for s, eid in enumerate(ids):
            if not isinstance(eid, int) or isinstance(eid, bool) or eid not in entries:
                raise InvalidInput(_("%(value)s is not an entry of this tournament") % {"value": repr(eid)},
                                   field=f"{path}[{s}]")
            if eid in seen:
                raise InvalidInput(_("entry %(entry)s is seated twice") % {"entry": eid}, field=f"{path}[{s}]")
            if entries[eid].withdrawn:
                raise InvalidInput(_("entry %(entry)s has withdrawn") % {"entry": eid}, field=f"{path}[{s}]")
            seen.add(eid)
    arbiters = _arbiters_by_number(round)
    round.tables.all().delete()
    created = []
    for t, ids in enumerate(tables, start=1):
        table = Table.objects.create(round=round, number=t)
        Seat.objects.bulk_create([Seat(table=table, position=p, entry_id=eid) for p, eid in enumerate(ids)])
        created.append(table)
    _assign_by_number(arbiters, created)
    return created


def _arbiters_by_number(round: Round) -> dict[int, set[int]]:
    """The table numbers each table arbiter of the tournament holds in ``round`` (a seating made again keeps them)
    or, where he holds none there, in the latest earlier round where he held some: a table arbiter stands at the
    hall's tables, and table 3 is the same table from one round to the next (a phone walk: the arbiter's tables
    were gone at round 2, and nothing told the organizer)."""
    through = TournamentRole.tables.through
    rows = (through.objects.filter(tournamentrole__tournament_id=round.tournament_id,
                                   tournamentrole__role=TournamentRole.Role.ARBITER,
                                   table__round__number__lte=round.number)
            .values_list("tournamentrole_id", "table__round__number", "table__number"))
    latest: dict[int, int] = {}
    for role, number, _table in rows:
        latest[role] = max(latest.get(role, 0), number)
    held: dict[int, set[int]] = {}
    for role, number, table in rows:
        if number == latest[role]:
            held.setdefault(role, set()).add(table)
    return held


def _assign_by_number(arbiters: dict[int, set[int]], tables: Sequence[Table]) -> None:
    """Give each table arbiter the tables of ``tables`` whose numbers he holds (:func:`_arbiters_by_number`)."""
    through = TournamentRole.tables.through
    by_number = {t.number: t for t in tables}
    through.objects.bulk_create([through(tournamentrole_id=role, table_id=by_number[n].pk)
                                 for role, numbers in arbiters.items() for n in sorted(numbers) if n in by_number],
                                ignore_conflicts=True)


# -- roles -----------------------------------------------------------------------------------------

@transaction.atomic
def role_assign(*, tournament: Tournament, user: Any, role: str, tables: Iterable[Table] = ()) -> TournamentRole:
    """Give a user a role in a tournament (table arbiters: with the tables assigned, added to earlier ones)."""
    if role not in TournamentRole.Role.values:
        raise InvalidInput(_("role is one of %(values)s") % {"values": ", ".join(TournamentRole.Role.values)},
                           field="role")
    if isinstance(user, str):
        found = get_user_model().objects.filter(username=user).first()
        if found is None:
            raise InvalidInput(_("no user “%(user)s”") % {"user": user}, field="user")
        user = found
    obj, _created = TournamentRole.objects.get_or_create(tournament=tournament, user=user, role=role)
    tables = list(tables)
    for table in tables:
        if table.round.tournament_id != tournament.pk:
            raise InvalidInput(_("table %(table)s belongs to another tournament") % {"table": table.pk}, field="tables")
    if tables:
        obj.tables.add(*tables)
        _assign_later_rounds(obj, tables)
    return obj


def _assign_later_rounds(role: TournamentRole, tables: Sequence[Table]) -> None:
    """The rounds already seated after the latest of ``tables``' (a duplicate's, made all at once) where the table
    arbiter holds no table: the same table numbers there too, as a round seated later gets them."""
    if role.role != TournamentRole.Role.ARBITER:
        return
    last = max(t.round.number for t in tables)
    numbers = {t.number for t in tables if t.round.number == last}
    held = set(role.tables.filter(round__number__gt=last).values_list("round_id", flat=True))
    later = Table.objects.filter(round__tournament_id=role.tournament_id, round__number__gt=last,
                                 number__in=numbers).exclude(round_id__in=held)
    role.tables.add(*later)


@transaction.atomic
def role_revoke(*, tournament: Tournament, user: Any, role: str) -> None:
    TournamentRole.objects.filter(tournament=tournament, user=user, role=role).delete()
