"""Writing seasons and championships: who may (a club's organizers, for that club's seasons only), and the
checks a championship's rules pass before they are saved (the points table, best N, tie-breaks). A championship
saved is recomputed by the workers once the transaction commits."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scoring import championship as pure
from tournaments.clubs.models import Club, ClubRole
from tournaments.common.errors import InvalidInput
from tournaments.event.models import Tournament
from tournaments.seasons import tasks
from tournaments.seasons.models import Championship, Season


def clubs_managed(user: Any) -> QuerySet[Club]:
    """The clubs whose seasons ``user`` manages: those he is an organizer of (every club for a superuser)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(roles__user=user, roles__role=ClubRole.Role.ORGANIZER).distinct()


def manages(user: Any, season: Season) -> bool:
    return season.club_id is not None and clubs_managed(user).filter(pk=season.club_id).exists()


def _unique_slug(model: Any, base: str, **scope: Any) -> str:
    base = (slugify(base) or "saison")[:180]
    slug, n = base, 1
    while model.objects.filter(slug=slug, **scope).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def season_create(*, club: Club, name: str, starts_on: date, ends_on: date, is_public: bool = True) -> Season:
    if ends_on < starts_on:
        raise InvalidInput(_("The season ends before it starts."), field="ends_on")
    return Season.objects.create(club=club, name=name.strip(), slug=_unique_slug(Season, name), starts_on=starts_on,
                                 ends_on=ends_on, is_public=is_public)


def eligible_tournaments(season: Season) -> QuerySet[Tournament]:
    """The tournaments a championship of ``season`` may count: its club's, dated within the season."""
    if season.club_id is None:  # a comité's season counts its clubs' tournaments
        owned = Tournament.objects.filter(club__grouping=season.grouping)
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
