"""Teams and withdrawals, the organizer's side (``setup.team_create`` and ``setup.entry_update`` do the
creation and the single changes): a team's members set at once, a team removed, a player withdrawn
or back. Every save goes through the models' signals, which bump the ranking's inputs.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.common import hooks
from tournaments.common.errors import InvalidInput
from tournaments.event.models import Entry, Team, Tournament


def _entries(tournament: Tournament, ids: Iterable[int], field: str) -> list[Entry]:
    ids = list(dict.fromkeys(int(i) for i in ids))
    found = {e.pk: e for e in Entry.objects.filter(tournament=tournament, pk__in=ids)}
    for i, entry_id in enumerate(ids):
        if entry_id not in found:
            raise InvalidInput(_("entry %(entry)s is not registered in this tournament") % {"entry": entry_id},
                               field=f"{field}[{i}]")
    return [found[i] for i in ids]


@transaction.atomic
def team_set_members(*, team: Team, entries: Iterable[int]) -> Team:
    """Make ``entries`` (entry ids) the team's members: the others leave it (a player is in one team)."""
    members = _entries(team.tournament, entries, "members")
    keep = {e.pk for e in members}
    for entry in team.entries.exclude(pk__in=keep):
        entry.team = None
        entry.save(update_fields=["team"])
    for entry in members:
        if entry.team_id != team.pk:
            entry.team = team
            entry.save(update_fields=["team"])
    hooks.scores_changed(team.tournament_id)
    return team


@transaction.atomic
def team_delete(*, team: Team) -> None:
    """Remove a team; its members stay registered, in no team."""
    for entry in team.entries.all():
        entry.team = None
        entry.save(update_fields=["team"])
    tournament_id = team.tournament_id
    team.delete()
    hooks.scores_changed(tournament_id)


@transaction.atomic
def entry_set_withdrawn(*, entry: Entry, withdrawn: bool) -> Entry:
    """Withdraw a player (forfait for the rest of the tournament: no longer seated by the draw; the
    marks already earned stay) or bring them back."""
    if entry.withdrawn != withdrawn:
        entry.withdrawn = withdrawn
        entry.save(update_fields=["withdrawn"])
        hooks.scores_changed(entry.tournament_id)
    return entry
