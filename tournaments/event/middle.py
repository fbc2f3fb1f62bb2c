"""The messy middle of a tournament day: late arrivals, players who leave, replacements, a table left
short, and the check-in of players on arrival.

How the ranking counts each case is decided in advance (docs/ranking.md, "Late arrivals, withdrawals
and replacements"):

* a **late arrival** is an entry drawn from ``from_round`` on; the rounds before count as not played;
* a player who **leaves** is withdrawn: left out of every draw from the next round on; the deals he
  played stay and count (for him and for his tables);
* a **replacement for one round** sits in the entry's seat: the entry plays on through the substitute,
  whose marks count for that entry (``Seat.substitute`` names who actually sat there);
* a **replacement for the rest of the event** is a new entry (``replaces`` the old one) seated in his
  place from that round on, ranked on his own deals only; the player replaced is withdrawn and keeps
  the deals he played;
* a table **short of a player** for a round (nobody to replace him) plays with one seat fewer where the
  game allows it (Tarot: 4 → 3, 5 → 4); the deals already entered there are never touched.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.common import games, hooks
from tournaments.common.collation import french_sorted
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.event.models import Entry, Round, Seat, Table, Tournament
from tournaments.event.setup import player_create, player_register


def _clean_name(name: str, field: str = "name") -> str:
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput(_("Écrivez le nom du joueur."), field=field)
    if len(name) > 120:
        raise InvalidInput(_("Un nom a au plus 120 caractères."), field=field)
    return name


def _entry_named(tournament: Tournament, name: str) -> Entry | None:
    """The entry of this tournament whose player has this name (case and spaces aside), if any."""
    key = " ".join(name.casefold().split())
    for entry in tournament.entries.select_related("player"):
        if " ".join(entry.player.name.casefold().split()) == key:
            return entry
    return None


def _unlocked(table: Table) -> None:
    if table.deals.exists():
        raise StateConflict(_("Des donnes sont déjà saisies à la table %(n)s : ses places ne changent plus dans "
                              "cette manche.") % {"n": table.number}, field="table", code="table_started")


@transaction.atomic
def last_round_to_join(tournament: Tournament) -> int:
    """The last round a late arrival may start from: the rounds planned, or else the next one to draw (a walk:
    with no number of rounds set and round 1 drawn, nobody could arrive for round 2)."""
    return max(tournament.rounds_planned, tournament.rounds.count() + 1)


def late_arrival(*, tournament: Tournament, name: str, club: str = "", licence: str = "",
                 from_round: int) -> Entry:
    """Register a player who arrives late: drawn from round ``from_round`` on, not before."""
    last = last_round_to_join(tournament)
    if from_round < 1 or from_round > last:
        raise InvalidInput(_("La manche d'arrivée est entre 1 et %(n)s.") % {"n": last}, field="from_round")
    if not " ".join((name or "").split()) and licence.strip():
        # registered by his licence alone: the federation's file gives his name (unknown to it: asked on « nom »)
        name = player_create(name="", club=club.strip(), licence=licence.strip()).name
    name = _clean_name(name)
    same = _entry_named(tournament, name)
    if same is not None:
        return same  # sent twice (a double tap, a reload): the player is registered once
    player = player_create(name=name, club=club.strip(), licence=licence.strip(), tournament=tournament)
    entry = player_register(tournament=tournament, player=player)
    entry.from_round = from_round
    entry.save(update_fields=["from_round"])
    hooks.scores_changed(tournament.pk)
    return entry


def drawn_rounds_without_deals(entry: Entry) -> list[Seat]:
    """The seats an entry still holds in rounds drawn but not started (a leaver's, to clear)."""
    return list(Seat.objects.filter(entry=entry, table__deals__isnull=True)
                .select_related("table__round").distinct().order_by("table__round__number"))


@transaction.atomic
def player_leaves(*, entry: Entry) -> list[Table]:
    """A player leaves: withdrawn from the next draws; his past deals stay. Where a round is already
    drawn and not started at his table, his seat is removed (the table plays one short where the game
    allows it); returns the tables left short. A table that cannot play one short (a table of 3 at Tarot)
    raises: redraw that round."""
    entry.withdrawn = True
    entry.save(update_fields=["withdrawn"])
    hooks.scores_changed(entry.tournament_id)
    short = []
    for seat in drawn_rounds_without_deals(entry):
        short.append(seat_remove(seat=seat))
    return short


@transaction.atomic
def player_returns(*, entry: Entry) -> Entry:
    """A player who had left comes back: drawn again from the next draw on."""
    if entry.withdrawn:
        entry.withdrawn = False
        entry.save(update_fields=["withdrawn"])
        hooks.scores_changed(entry.tournament_id)
    return entry


@transaction.atomic
def seat_remove(*, seat: Seat) -> Table:
    """Take a player off a table for this round (absent, left): the table plays one short as the rules
    allow (Tarot: 4 → 3, 5 → 4), the seats after his move up one place in the order of play."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=seat.table_id)
    _unlocked(table)
    game = table.round.tournament.game
    remaining = table.seats.count() - 1
    if remaining not in games.player_counts(game):
        raise StateConflict(_("La table %(n)s ne peut pas jouer à %(k)s : refaites le tirage de la manche ou installez "
                              "un remplaçant.")
                            % {"n": table.number, "k": remaining}, field="seat", code="table_too_small")
    position = seat.position
    seat.delete()
    for later in table.seats.filter(position__gt=position).order_by("position"):
        later.position -= 1
        later.save(update_fields=["position"])
    return table


@transaction.atomic
def seat_replace(*, seat: Seat, name: str, club: str = "", rest_of_event: bool = False) -> Seat:
    """Seat a replacement in ``seat``: for this round only (the entry's marks, played by the substitute)
    or for the rest of the event (a new entry, the player replaced withdrawn)."""
    name = _clean_name(name)
    table = seat.table
    rnd = table.round
    if not rest_of_event:
        seat.substitute = name
        seat.save(update_fields=["substitute"])
        return seat
    if seat.entry.player.name.casefold() == name.casefold():
        return seat  # sent twice: the substitute already holds the seat
    _unlocked(table)
    old = seat.entry
    player = player_create(name=name, club=club.strip(), tournament=rnd.tournament)
    new = player_register(tournament=rnd.tournament, player=player)
    new.from_round, new.replaces = rnd.number, old
    new.save(update_fields=["from_round", "replaces"])
    old.withdrawn = True
    old.save(update_fields=["withdrawn"])
    hooks.scores_changed(rnd.tournament_id)
    # this round and the later rounds already drawn, not started: the newcomer takes each of his seats
    for held in Seat.objects.filter(entry=old, table__round__number__gte=rnd.number).select_related("table"):
        _unlocked(held.table)
        held.entry, held.substitute = new, ""
        held.save(update_fields=["entry", "substitute"])
    seat.refresh_from_db()
    return seat


@transaction.atomic
def seat_clear_substitute(*, seat: Seat) -> Seat:
    seat.substitute = ""
    seat.save(update_fields=["substitute"])
    return seat


@transaction.atomic
def check_in(*, entry: Entry, present: bool = True) -> Entry:
    """Mark a player arrived (or not yet) at the venue."""
    entry.checked_in_at = timezone.now() if present else None
    entry.save(update_fields=["checked_in_at"])
    return entry


def played_rounds(tournament: Tournament) -> dict[int, int]:
    """The last round each player played in, by entry id: seated at a table where a deal was entered. Such a
    player is there, checked in at the arrivals page or not (a walk read « 0 joueurs arrivés sur 8 » after two
    rounds)."""
    return dict(Seat.objects.filter(table__round__tournament=tournament, table__deals__isnull=False)
                .values("entry_id").annotate(last=Max("table__round__number")).values_list("entry_id", "last"))


def arrival_counts(tournament: Tournament) -> dict[str, int]:
    """The players there (checked in, or who played a deal) and the players expected (the withdrawn left out)."""
    expected = list(tournament.entries.filter(withdrawn=False).values_list("id", "checked_in_at"))
    played = played_rounds(tournament)
    return {"arrived": sum(1 for pk, at in expected if at is not None or pk in played), "expected": len(expected)}


def unchecked_for(round: Round) -> list[str]:
    """The names of the players the draw of ``round`` seats though they are not known to be there: neither
    checked in nor seated at a played table. Empty when the organizer checks nobody in (the arrivals page unused:
    the draw seats every player registered, as always)."""
    tournament = round.tournament
    entries = french_sorted(tournament.entries.filter(withdrawn=False, from_round__lte=round.number)
                            .select_related("player"), key=lambda e: e.player.name)
    played = played_rounds(tournament)
    if not any(e.checked_in_at is not None for e in entries):
        return []
    return [e.player.name for e in entries if e.checked_in_at is None and e.pk not in played]


def present_for(round: Round) -> list[int]:
    """Entry ids the draw of ``round`` seats: not withdrawn, and arrived by that round."""
    return list(round.tournament.entries.filter(withdrawn=False, from_round__lte=round.number)
                .values_list("id", flat=True))
