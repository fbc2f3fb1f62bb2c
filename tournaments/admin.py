"""The Django admin (``/admin/``): what a club's staff may look up or mend by hand, without going around the rules.

* Ranking inputs (tournament, entry, team, round) tell :func:`tournaments.common.hooks.scores_changed` on every
  save or delete made here, in the admin's own transaction, as the services do: the ranking follows.
* Deals (with their history), rulings and score rows are read-only: they are written by the services, which judge
  them (a deal is corrected or annulled from the arbiters' pages or the API, with a reason and a new version).
* A table policy is saved through its service (``links.service.policy_set``: its bounds, the score sheets and the
  ranking refreshed), never deleted; a private link is revoked through its service, never edited or deleted.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from simple_history.admin import SimpleHistoryAdmin

from tournaments.clubs.models import Club, ClubRole, Grouping, Licence
from tournaments.common import hooks
from tournaments.common.errors import ServiceError
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.event.models import Entry, Player, Round, Seat, Table, Team, Tournament, TournamentRole
from tournaments.links import service as links
from tournaments.links.models import PrivateLink, TablePolicy

# -- shared ----------------------------------------------------------------------------------------------------


class RankingInputAdmin(admin.ModelAdmin):
    """A model the rankings read: every save or delete here tells the hook, in the admin's transaction."""

    def tournament_id_of(self, obj: Any) -> int:
        return obj.tournament_id

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        hooks.scores_changed(self.tournament_id_of(obj))

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        tournament_id = self.tournament_id_of(obj)
        super().delete_model(request, obj)
        hooks.scores_changed(tournament_id)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        with transaction.atomic():  # the admin's « delete selected » action runs outside a transaction
            tournament_ids = {self.tournament_id_of(obj) for obj in queryset}
            super().delete_queryset(request, queryset)
            for tournament_id in sorted(tournament_ids):
                hooks.scores_changed(tournament_id)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Looked at, never written: no add, change or delete, and a save that would reach here anyway is refused."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        raise PermissionDenied

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        raise PermissionDenied

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        raise PermissionDenied


# -- the event ---------------------------------------------------------------------------------------------------


@admin.register(Tournament)
class TournamentAdmin(RankingInputAdmin):
    list_display = ["name", "game", "format", "status", "date", "venue", "is_public"]
    list_filter = ["game", "status", "format", "is_public"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["released_round", "created_by", "created_at", "updated_at"]
    ordering = ["-created_at"]

    def tournament_id_of(self, obj: Any) -> int:
        return obj.pk

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change and obj.created_by_id is None:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        admin.ModelAdmin.delete_model(self, request, obj)  # its ranking goes with it: nothing left to tell

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        admin.ModelAdmin.delete_queryset(self, request, queryset)


# -- clubs and the register (issue 23) ----------------------------------------------------------------------

class ClubRoleInline(admin.TabularInline):
    model = ClubRole
    extra = 1
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "federation_number", "grouping"]
    search_fields = ["name", "city", "federation_number"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [ClubRoleInline]


@admin.register(Grouping)
class GroupingAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "parent"]
    filter_horizontal = ["viewers", "managers"]


@admin.register(Licence)
class LicenceAdmin(admin.ModelAdmin):
    list_display = ["number", "last_name", "first_name", "club_name", "category", "sex", "valid_until"]
    search_fields = ["number", "last_name", "first_name", "club_name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "licence", "created_at"]
    search_fields = ["name", "club", "licence"]
    ordering = ["name"]


@admin.register(Entry)
class EntryAdmin(RankingInputAdmin):
    list_display = ["player", "tournament", "team", "withdrawn", "from_round", "checked_in_at"]
    list_filter = ["withdrawn", "tournament"]
    list_select_related = ["player", "tournament", "team"]
    search_fields = ["player__name", "player__licence", "player__club", "tournament__name"]
    autocomplete_fields = ["player", "tournament", "team"]
    raw_id_fields = ["replaces"]


@admin.register(Team)
class TeamAdmin(RankingInputAdmin):
    list_display = ["name", "tournament"]
    list_filter = ["tournament"]
    list_select_related = ["tournament"]
    search_fields = ["name", "tournament__name"]
    autocomplete_fields = ["tournament"]


@admin.register(Round)
class RoundAdmin(RankingInputAdmin):
    list_display = ["__str__", "tournament", "number", "status", "released"]
    list_filter = ["status", "released", "tournament"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]
    autocomplete_fields = ["tournament"]
    readonly_fields = ["clock_elapsed", "clock_started_at"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["entry"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "number", "match_ended"]
    list_filter = ["round__tournament"]
    list_select_related = ["round__tournament"]
    search_fields = ["round__tournament__name"]
    raw_id_fields = ["round"]
    readonly_fields = ["match_totals", "match_winner", "match_ended"]  # the match as judged by the deals service
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["__str__", "table", "position", "entry", "substitute"]
    list_select_related = ["table__round__tournament", "entry__player"]
    search_fields = ["entry__player__name", "table__round__tournament__name", "substitute"]
    raw_id_fields = ["table", "entry"]


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "tournament"]
    list_filter = ["role", "tournament"]
    list_select_related = ["user", "tournament"]
    search_fields = ["user__username", "user__first_name", "user__last_name", "tournament__name"]
    autocomplete_fields = ["tournament"]
    raw_id_fields = ["user", "tables"]


# -- what was played: read-only ----------------------------------------------------------------------------------


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin, SimpleHistoryAdmin):
    list_display = ["__str__", "number", "status", "version", "created_by", "created_at", "updated_at"]
    list_filter = ["status", "table__round__tournament"]
    list_select_related = ["table__round__tournament", "created_by"]
    search_fields = ["table__round__tournament__name"]
    history_list_display = ["status", "version"]

    def history_form_view(self, request: HttpRequest, object_id: str, version_id: str,
                          extra_context: dict | None = None) -> HttpResponse:
        """A past version, shown; never restored from here (simple-history saves a POST with the view right
        alone): a deal is corrected or restored through the deals service."""
        if request.method == "POST":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


@admin.register(Ruling)
class RulingAdmin(ReadOnlyAdmin, SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "kind", "is_penalty", "annuls_deal", "created_by", "created_at",
                    "withdrawn_at"]
    list_filter = ["kind", "is_penalty", "tournament"]
    list_select_related = ["tournament", "table__round__tournament", "created_by"]
    search_fields = ["reason", "tournament__name"]

    def history_form_view(self, request: HttpRequest, object_id: str, version_id: str,
                          extra_context: dict | None = None) -> HttpResponse:
        if request.method == "POST":
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


@admin.register(ScoreRow)
class ScoreRowAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "round", "table", "deal", "ruling", "entry", "points", "counts"]
    list_filter = ["counts", "tournament"]
    list_select_related = ["tournament", "round__tournament", "table__round__tournament", "deal__table__round",
                           "ruling", "entry__player"]
    search_fields = ["entry__player__name", "tournament__name"]


# -- the table in the players' hands ------------------------------------------------------------------------------


@admin.action(description=_("Révoquer les liens choisis (une nouvelle carte pour chaque table)"))
def revoke_links(modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet) -> None:
    revoked = 0
    for link in queryset.filter(revoked_at__isnull=True):
        links.link_revoke(link=link, user=request.user, renew=link.table_id is not None)
        revoked += 1
    modeladmin.message_user(request, _("Liens révoqués : %(n)s.") % {"n": revoked}, messages.SUCCESS)


@admin.register(PrivateLink)
class PrivateLinkAdmin(ReadOnlyAdmin):
    """Looked up and revoked (through the service, which renews a table's link); never edited nor deleted, so
    that who entered or confirmed what through a link stays readable."""

    list_display = ["__str__", "tournament", "table", "entry", "created_at", "revoked_at"]
    list_filter = ["tournament"]
    list_select_related = ["tournament", "table__round__tournament", "entry__player"]
    search_fields = ["tournament__name", "entry__player__name"]
    actions = [revoke_links]

    def get_actions(self, request: HttpRequest) -> dict:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


class TablePolicyForm(forms.ModelForm):
    """The organizer's choices, checked by the service's own rules (run and rolled back here; saved in
    :meth:`TablePolicyAdmin.save_model`)."""

    class Meta:
        model = TablePolicy
        fields = ["tournament", "tables_enter", "confirmations_needed", "unconfirmed_count", "appeal_minutes"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        tournament = data.get("tournament") or (self.instance.tournament if self.instance.pk else None)
        if self.errors or tournament is None:
            return data
        try:
            with transaction.atomic():
                _policy_set(tournament, data)
                raise _DryRun
        except _DryRun:
            pass
        except ServiceError as exc:
            field = exc.field if exc.field in self.fields else None
            raise ValidationError({field: exc.text()} if field else exc.text()) from None
        return data


class _DryRun(Exception):
    """Rolls back the service's trial run of a form's values."""


def _policy_set(tournament: Tournament, data: dict[str, Any]) -> TablePolicy:
    return links.policy_set(tournament=tournament, tables_enter=data["tables_enter"],
                            confirmations_needed=data["confirmations_needed"],
                            unconfirmed_count=data["unconfirmed_count"], appeal_minutes=data["appeal_minutes"])


@admin.register(TablePolicy)
class TablePolicyAdmin(admin.ModelAdmin):
    form = TablePolicyForm
    list_display = ["tournament", "tables_enter", "confirmations_needed", "unconfirmed_count", "appeal_minutes"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name"]
    autocomplete_fields = ["tournament"]

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None) -> list[str]:
        return ["tournament"] if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Through the service: its bounds, the score sheets refreshed and the ranking told when what counts
        changed."""
        tournament = Tournament.objects.get(pk=obj.tournament_id)
        saved = _policy_set(tournament, form.cleaned_data)
        obj.pk = saved.pk
        obj._state.adding = False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # changed through the service, never removed behind the score sheets' back
