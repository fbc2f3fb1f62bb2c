"""Writing seasons and championships: who may (a club's organizers, for that club's seasons only; a comité's or
ligue's managers, for its seasons only), and the checks a championship's rules pass before they are saved (the
points table, best N, tie-breaks). A championship saved is recomputed by the workers once the transaction commits.
Deleting a season or a championship (:func:`season_delete`, :func:`championship_delete`) takes its published
rankings with it; the tournaments and their own rankings stay."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from scoring import championship as pure
from tournaments.clubs.models import Club, ClubRole, Grouping
from tournaments.common.collation import french_slug
from tournaments.common.errors import InvalidInput
from tournaments.event.models import Tournament
from tournaments.seasons import tasks
from tournaments.seasons.models import Championship, ChampionshipSnapshot, Season


def clubs_managed(user: Any) -> QuerySet[Club]:
    """The clubs whose seasons ``user`` manages: those he is an organizer of (every club for a superuser)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(roles__user=user, roles__role=ClubRole.Role.ORGANIZER).distinct()


def groupings_managed(user: Any) -> QuerySet[Grouping]:
    """The comités and ligues whose seasons ``user`` manages: those he is a manager of (all for a superuser)."""
    if user is None or not user.is_authenticated:
        return Grouping.objects.none()
    if user.is_superuser:
        return Grouping.objects.all()
    return Grouping.objects.filter(managers=user).distinct()


def seasons_managed(user: Any) -> QuerySet[Season]:
    """The seasons ``user`` may change and delete: his clubs' and his comités' (never another's)."""
    return Season.objects.filter(Q(club__in=clubs_managed(user)) | Q(grouping__in=groupings_managed(user)))


def manages(user: Any, season: Season) -> bool:
    if season.club_id is not None:
        return clubs_managed(user).filter(pk=season.club_id).exists()
    return season.grouping_id is not None and groupings_managed(user).filter(pk=season.grouping_id).exists()


def _unique_slug(model: Any, base: str, **scope: Any) -> str:
    base = (french_slug(base) or "saison")[:180]
    slug, n = base, 1
    while model.objects.filter(slug=slug, **scope).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def season_create(*, club: Club | None = None, grouping: Grouping | None = None, name: str, starts_on: date,
                  ends_on: date, is_public: bool = True) -> Season:
    """A season of a club or of a comité (or ligue): exactly one owner."""
    if (club is None) == (grouping is None):
        raise InvalidInput(_("Une saison appartient à un club ou à un comité : choisissez l'un des deux."),
                           field="club")
    if not name.strip():
        raise InvalidInput(_("Donnez un nom à la saison."), field="name")
    if ends_on < starts_on:
        raise InvalidInput(_("The season ends before it starts."), field="ends_on")
    return Season.objects.create(club=club, grouping=grouping, name=name.strip(), slug=_unique_slug(Season, name),
                                 starts_on=starts_on, ends_on=ends_on, is_public=is_public)


@dataclass(frozen=True)
class Loss:
    """What deleting a season or a championship takes away, to say it plainly before it is done."""

    championships: int
    snapshots: int


def season_loss(season: Season) -> Loss:
    return Loss(season.championships.count(),
                ChampionshipSnapshot.objects.filter(championship__season=season).count())


def championship_loss(championship: Championship) -> Loss:
    return Loss(1, championship.snapshots.count())


@transaction.atomic
def season_delete(*, season: Season) -> Loss:
    """Delete a season, its championships and their published rankings (every version). The tournaments, their
    own rankings and the players stay. What went is returned."""
    loss = season_loss(season)
    gone = list(season.championships.values_list("pk", flat=True))
    Season.objects.filter(pk=season.pk).delete()
    transaction.on_commit(lambda: _forget_files(gone))
    return loss


@transaction.atomic
def championship_delete(*, championship: Championship) -> Loss:
    """Delete a championship and its published rankings (every version): a published championship's snapshots
    go with it (a ranking that nobody keeps up would mislead). The tournaments and their rankings stay."""
    loss = championship_loss(championship)
    pk = championship.pk
    Championship.objects.filter(pk=pk).delete()
    transaction.on_commit(lambda: _forget_files([pk]))
    return loss


def _forget_files(championship_ids: Sequence[int]) -> None:
    """The PDF files of deleted championships (``public.seasons.pdf_path``'s folder) go once the deletion is
    committed: nothing serves them any more."""
    root = Path(settings.LEVEE_PDF_ROOT) / "championships"
    for pk in championship_ids:
        shutil.rmtree(root / str(pk), ignore_errors=True)


def eligible_tournaments(season: Season) -> QuerySet[Tournament]:
    """The tournaments a championship of ``season`` may count: its club's, dated within the season."""
    if season.club_id is None:  # a comité's season counts its clubs' tournaments (a ligue's: its comités' too)
        owned = Tournament.objects.filter(Q(club__grouping=season.grouping_id)
                                          | Q(club__grouping__parent=season.grouping_id))
    else:
        owned = Tournament.objects.filter(club_id=season.club_id)
    return owned.filter(date__gte=season.starts_on, date__lte=season.ends_on).order_by("date", "name", "id")


def championship_save(*, season: Season, name: str, table: dict[str, Any], best: int | None, minimum: int,
                      tie_breaks: Sequence[str], categories: Sequence[str], tournaments: Sequence[Tournament],
                      championship: Championship | None = None) -> Championship:
    """Create or change a championship; its rules are checked first (an error names the form's field)."""
    try:
        pure.Rules(pure.PointsTable.from_data(table), best=best, minimum=minimum, tie_breaks=tuple(tie_breaks))
    except pure.ChampionshipError as error:
        field = {"table.points": "points", "table.bands": "bands", "table.kind": "table_kind",
                 "table": "points"}.get(error.field, error.field)
        raise InvalidInput(_french(error), field=field) from error
    allowed = set(eligible_tournaments(season).values_list("pk", flat=True))
    if any(t.pk not in allowed for t in tournaments):
        raise InvalidInput(_("A chosen tournament is not one of the club's tournaments during the season."),
                           field="tournaments")
    same_name = Championship.objects.filter(season=season, name__iexact=name.strip())
    if championship is not None and championship.pk is not None:
        same_name = same_name.exclude(pk=championship.pk)
    if same_name.exists():  # two links of one name on the season's page, two rankings nobody tells apart
        raise InvalidInput(_("Un championnat de cette saison porte déjà ce nom : choisissez-en un autre."),
                           field="name")
    with transaction.atomic():
        if championship is None:
            championship = Championship(season=season, slug=_unique_slug(Championship, name, season=season))
        championship.name = name.strip()
        championship.table, championship.best, championship.minimum = table, best, minimum
        championship.tie_breaks, championship.categories = list(tie_breaks), list(categories)
        championship.save()
        championship.tournaments.set(tournaments)
        tasks.championship_changed_on_commit(championship.pk)
    return championship


def _french(error: pure.ChampionshipError) -> str:
    """The refusal in the reader's language (French by default)."""
    return {
        "table.points": _("Give the points of the 1st place at least, separated by commas."),
        "table.bands": _("Give increasing bands between 1 and 100 %, like « 10:50, 25:30, 100:5 »."),
        "table.kind": _("Choose a points table."),
        "table": _("The points table must be made of whole numbers."),
        "best": _("Keep at least one result."),
        "minimum": _("The minimum cannot be negative."),
        "tie_breaks": _("Each tie-break only once."),
    }.get(error.field, error.message)
