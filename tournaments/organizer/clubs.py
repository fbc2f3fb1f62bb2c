"""A club's pages for its staff: the clubs one works for, a club's page (its tournaments, members with their
licences, staff), and the import of the federation's licence file.

Who sees what (``tournaments.clubs.permissions``): a club's staff see its members' personal data (licence, birth
date, validity, série); a comité's or ligue's viewers see its clubs' tournaments and members' names, read-only;
anyone else gets a 404, as for a page that does not exist (the public page is ``/c/<club>/``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from tournaments.clubs import permissions as club_permissions
from tournaments.clubs.models import Club, ClubRole
from tournaments.common.access import guarded, require
from tournaments.event import register
from tournaments.event.club_reads import club_members, club_tournaments
from tournaments.organizer.forms import LicencesCsvForm


def can_import_licences(user: object) -> bool:
    """The federation's file changes every club's players: the federation's staff (the permission) only."""
    return bool(getattr(user, "is_authenticated", False) and user.has_perm("tournaments.change_licence"))  # type: ignore[attr-defined]


@login_required
def clubs_list(request: HttpRequest) -> HttpResponse:
    """The clubs one works for, and those one reads as a comité's or ligue's viewer."""
    user = request.user
    mine = list(club_permissions.visible_clubs(user))
    read = list(club_permissions.read_clubs(user).exclude(pk__in=[c.pk for c in mine]))
    return render(request, "tournaments/clubs.html", {"mine": mine, "read": read,
                                                      "can_import": can_import_licences(user)})


@login_required
def club_page(request: HttpRequest, club: str) -> HttpResponse:
    """A club's page for its staff (members' personal data) and its comité's or ligue's viewers (names only)."""
    the_club = get_object_or_404(Club.objects.select_related("grouping__parent"), slug=club)
    user = request.user
    staff = club_permissions.is_club_staff(user, the_club)
    if not staff and not club_permissions.reads_club_results(user, the_club):
        raise Http404
    roles = (ClubRole.objects.filter(club=the_club).select_related("user").order_by("role", "user__username")
             if staff else [])
    return render(request, "tournaments/club.html", {
        "club": the_club, "staff": staff, "organizer": club_permissions.is_club_organizer(user, the_club),
        "tournaments": club_tournaments(the_club, user), "members": club_members(the_club), "roles": roles,
        "today": timezone.localdate()})


@guarded
def licences_import(request: HttpRequest) -> HttpResponse:
    """Import the federation's licence file: first the report of what it would change, then the import."""
    require(request, can_import_licences(request.user))
    form = LicencesCsvForm(request.POST or None, request.FILES or None)
    report = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read()
        report = register.licences_import(text=data, user=request.user, dry_run=not form.cleaned_data["confirm"])
        if form.cleaned_data["confirm"]:
            messages.success(request, report.summary())
            form = LicencesCsvForm()  # the next file is read first, never saved unseen
    return render(request, "tournaments/licences_import.html", {"form": form, "report": report})
