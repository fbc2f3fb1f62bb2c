"""The organizer's pages for seasons: his clubs' and his comités' seasons, a new season (for a club or a comité), a
season's championships, a championship's rules (which tournaments count, the points table, best N, the minimum,
tie-breaks, categories), and deleting a season or a championship after a confirmation that says what goes."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring import championship as pure
from tournaments.common.access import guarded, require
from tournaments.common.collation import french_sorted
from tournaments.common.errors import ServiceError
from tournaments.common.forms import ChoiceRadio
from tournaments.event import identity
from tournaments.event.models import Entry
from tournaments.seasons import championships, service
from tournaments.seasons.models import Championship, Season

TABLE_KINDS = [("rank", _("By place (1st, 2nd, 3rd …)")), ("percent", _("By percentage of the field")),
               ("marks", _("The tournament's own points"))]
def tie_breaks() -> list[tuple[str, str]]:
    """The tie-breaks an organizer may declare, in the page's language."""
    labels = pure.LABELS_EN if (get_language() or "fr").startswith("en") else pure.LABELS_FR
    return [("", "—")] + [(code, label.capitalize()) for code, label in labels.items() if code in pure.TIE_BREAKS]


class SeasonForm(forms.Form):
    owner = forms.ChoiceField(label=_("Saison de"), choices=[], widget=ChoiceRadio(attrs={"class": "phrases"}))
    name = forms.CharField(label=_("Name of the season"), max_length=200)
    starts_on = forms.DateField(label=_("Start"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("End"), widget=forms.DateInput(attrs={"type": "date"}))
    is_public = forms.BooleanField(label=_("Public (rankings visible to everyone)"), required=False, initial=True)

    def __init__(self, *args, clubs=None, groupings=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.clubs = {f"club-{c.pk}": c for c in clubs or ()}
        self.groupings = {f"comite-{g.pk}": g for g in groupings or ()}
        self.fields["owner"].choices = [(k, c.name) for k, c in self.clubs.items()] + [
            (k, str(g)) for k, g in self.groupings.items()]
        if self.fields["owner"].choices:
            self.fields["owner"].initial = self.fields["owner"].choices[0][0]

    def owner_of(self) -> dict:
        """``club=`` or ``grouping=`` for :func:`service.season_create`."""
        key = self.cleaned_data["owner"]
        return {"club": self.clubs[key]} if key in self.clubs else {"grouping": self.groupings[key]}


def _numbers(text: str) -> list[int]:
    return [int(x) for x in text.replace(";", ",").split(",") if x.strip()]


class ChampionshipForm(forms.Form):
    name = forms.CharField(label=_("Name of the championship"), max_length=200)
    tournaments = forms.ModelMultipleChoiceField(label=_("Tournaments that count"), queryset=None, required=False,
                                                 widget=forms.CheckboxSelectMultiple)
    table_kind = forms.ChoiceField(label=_("Points table"), choices=TABLE_KINDS, initial="rank",
                                   widget=ChoiceRadio(attrs={"class": "phrases"}))
    points = forms.CharField(label=_("Points per place"), required=False, initial="20, 15, 12, 10, 8, 6, 4, 2",
                             help_text=_("Points by place: the points of the 1st, the 2nd … separated by commas."),
                             widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))
    beyond = forms.IntegerField(label=_("Points beyond the table"), initial=1, required=False)
    bands = forms.CharField(label=_("Bands (percentage: points)"), required=False,
                            initial="10:50, 25:30, 50:15, 100:5",
                            help_text=_("Points by percentage: « 10:50 » gives 50 points to the first 10 %."),
                            widget=forms.TextInput(attrs={"autocomplete": "off"}))
    best = forms.IntegerField(label=_("Best results kept"), min_value=1, max_value=99, required=False,
                              help_text=_("Empty: every result counts."))
    minimum = forms.IntegerField(label=_("Tournaments required to be ranked"), min_value=0, max_value=99, initial=0)
    tie_break_1 = forms.ChoiceField(label=_("1st tie-break"), choices=tie_breaks, required=False)
    tie_break_2 = forms.ChoiceField(label=_("2nd tie-break"), choices=tie_breaks, required=False)
    tie_break_3 = forms.ChoiceField(label=_("3rd tie-break"), choices=tie_breaks, required=False)
    categories = forms.MultipleChoiceField(label=_("Rankings by category"), choices=championships.CATEGORY_CHOICES,
                                           required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, season: Season, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournaments"].queryset = service.eligible_tournaments(season)
        self.fields["tournaments"].label_from_instance = lambda t: (
            f"{t.name} — {t.date:%d/%m/%Y}" if t.date else t.name)

    def clean_points(self) -> list[int]:
        try:
            return _numbers(self.cleaned_data.get("points") or "")
        except ValueError:
            raise forms.ValidationError(_("Whole numbers separated by commas, like « 20, 15, 12 ».")) from None

    def clean_bands(self) -> list[list[int]]:
        out = []
        for part in (self.cleaned_data.get("bands") or "").replace(";", ",").split(","):
            if not part.strip():
                continue
            bound, _sep, points = part.partition(":")
            try:
                out.append([int(bound.strip().rstrip("%")), int(points)])
            except ValueError:
                raise forms.ValidationError(_("Write each band « percentage:points », like « 10:50 ».")) from None
        return out

    def table(self) -> dict:
        d = self.cleaned_data
        return {"kind": d["table_kind"], "points": d["points"] if d["table_kind"] == "rank" else [],
                "bands": d["bands"] if d["table_kind"] == "percent" else [], "beyond": d.get("beyond") or 0}

    def tie_breaks(self) -> list[str]:
        return [code for code in (self.cleaned_data.get(f"tie_break_{k}") for k in (1, 2, 3)) if code]


def _managed_season(request: HttpRequest, slug: str) -> Season:
    season = get_object_or_404(Season.objects.select_related("club", "grouping"), slug=slug)
    if not service.manages(request.user, season):
        raise Http404("not a season of your clubs")
    return season


@guarded
def seasons(request: HttpRequest) -> HttpResponse:
    clubs = list(service.clubs_managed(request.user).order_by("name", "id"))
    groupings = list(service.groupings_managed(request.user).order_by("name", "id"))
    require(request, bool(clubs or groupings))
    form = SeasonForm(request.POST or None, clubs=clubs, groupings=groupings)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            season = service.season_create(**form.owner_of(), name=d["name"], starts_on=d["starts_on"],
                                           ends_on=d["ends_on"], is_public=d["is_public"])
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Season created. Add a championship to it."))
            return redirect("season_detail", season=season.slug)
    listed = service.seasons_managed(request.user).select_related("club", "grouping").order_by("-starts_on", "name")
    return render(request, "tournaments/seasons.html", {"form": form, "seasons": listed})


@guarded
def season_detail(request: HttpRequest, season: str) -> HttpResponse:
    require(request, request.user.is_authenticated)
    managed = _managed_season(request, season)
    return render(request, "tournaments/season_detail.html", {
        "season": managed, "championships": managed.championships.order_by("name")})


@guarded
def championship_edit(request: HttpRequest, season: str, champ_slug: str | None = None) -> HttpResponse:
    require(request, request.user.is_authenticated)
    managed = _managed_season(request, season)
    champ = get_object_or_404(Championship, season=managed, slug=champ_slug) if champ_slug else None
    initial = {}
    if champ is not None:
        table = champ.table or {}
        initial = {"name": champ.name, "tournaments": champ.tournaments.all(), "table_kind": table.get("kind", "rank"),
                   "points": ", ".join(str(p) for p in table.get("points", [])), "beyond": table.get("beyond", 0),
                   "bands": ", ".join(f"{b}:{p}" for b, p in table.get("bands", [])), "best": champ.best,
                   "minimum": champ.minimum, "categories": champ.categories,
                   **{f"tie_break_{k}": code for k, code in enumerate(champ.tie_breaks or [], start=1)}}
    form = ChampionshipForm(request.POST or None, season=managed, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            saved = service.championship_save(
                season=managed, name=d["name"], table=form.table(), best=d.get("best"), minimum=d["minimum"],
                tie_breaks=form.tie_breaks(), categories=d["categories"], tournaments=list(d["tournaments"]),
                championship=champ)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Championship saved: its ranking is being recomputed."))
            return redirect("season_detail", season=managed.slug) if champ is None else redirect(
                "championship_edit", season=managed.slug, champ_slug=saved.slug)
    return render(request, "tournaments/championship_form.html", {"form": form, "season": managed,
                                                                  "championship": champ,
                                                                  "twins": _twins(champ) if champ else []})


def _twins(championship: Championship) -> list[dict]:
    """The people its tournaments hold under two records (``identity.namesakes``), each with where to merge them:
    the page of one of his entries, whose merge form offers the other record. A championship counts records, not
    people: until they are merged, he has a line for each, or none (each short of the minimum)."""
    entries = list(Entry.objects.filter(tournament__in=championship.tournaments.all())
                   .select_related("player__home_club", "tournament").order_by("tournament__date", "pk"))
    first = {}
    for entry in entries:
        first.setdefault(entry.player_id, entry)
    found, seen = [], set()
    for player_id, others in identity.namesakes(e.player for e in first.values()).items():
        group = frozenset([player_id, *(o.pk for o in others if o.pk in first)])
        if len(group) < 2 or group in seen:
            continue
        seen.add(group)
        entry = first[player_id]
        found.append({"names": french_sorted({first[pk].player.name for pk in group}, key=str),
                      "tournaments": [first[pk].tournament.name for pk in sorted(group)],
                      "url": reverse("player_edit", args=[entry.tournament.slug, entry.pk])})
    return found


@guarded
def season_delete(request: HttpRequest, season: str) -> HttpResponse:
    """Delete a season: a page saying what goes (its championships and their published rankings), then the
    deletion on a second tap. Another club's or comité's season: 404."""
    require(request, request.user.is_authenticated)
    managed = _managed_season(request, season)
    if request.method == "POST":
        loss = service.season_delete(season=managed)
        messages.success(request, _("Saison « %(name)s » supprimée, avec %(champs)s championnat(s) et %(snaps)s "
                                    "classement(s) publié(s).")
                         % {"name": managed.name, "champs": loss.championships, "snaps": loss.snapshots})
        return redirect("seasons")
    return render(request, "tournaments/season_delete.html", {
        "season": managed, "championship": None, "loss": service.season_loss(managed),
        "championships": ", ".join(f"« {n} »" for n in managed.championships.order_by("name")
                                    .values_list("name", flat=True)),
        "back": reverse("season_detail", args=[managed.slug])})


@guarded
def championship_delete(request: HttpRequest, season: str, champ_slug: str) -> HttpResponse:
    """Delete a championship: a page saying what goes (its published rankings, its public page), then the
    deletion on a second tap."""
    require(request, request.user.is_authenticated)
    managed = _managed_season(request, season)
    champ = get_object_or_404(Championship, season=managed, slug=champ_slug)
    if request.method == "POST":
        loss = service.championship_delete(championship=champ)
        messages.success(request, _("Championnat « %(name)s » supprimé, avec %(snaps)s classement(s) publié(s).")
                         % {"name": champ.name, "snaps": loss.snapshots})
        return redirect("season_detail", season=managed.slug)
    return render(request, "tournaments/season_delete.html", {
        "season": managed, "championship": champ, "loss": service.championship_loss(champ),
        "back": reverse("championship_edit", args=[managed.slug, champ.slug])})
