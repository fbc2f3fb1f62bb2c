"""The chief arbiter's page: the open calls by table and age (take one, answer it), the deals waiting for the
garde sans / garde contre visa, the disputed deals, and each table's progress (« 3/5 donnes »)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.common import games
from tournaments.common.access import guarded, lang_of, require
from tournaments.common.errors import ServiceError
from tournaments.deals.models import Deal
from tournaments.desk.irregular import irregular_context
from tournaments.duplicate.models import EtuiPlay
from tournaments.event import permissions
from tournaments.event.models import Round, Tournament
from tournaments.links import service
from tournaments.links.models import ArbiterCall, DealSheet


class ResolveForm(forms.Form):
    outcome = forms.ChoiceField(label=gettext_lazy("What was done"), choices=ArbiterCall.Outcome.choices,
                                widget=forms.RadioSelect)
    answer = forms.CharField(label=gettext_lazy("The answer the table reads"), max_length=2000,
                             widget=forms.Textarea(attrs={"rows": 2}))


@guarded
def chief_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    require(request, permissions.can_referee(request.user, tournament))
    now = timezone.now()
    calls = list(ArbiterCall.objects.filter(tournament=tournament).exclude(state=ArbiterCall.State.RESOLVED)
                 .select_related("table__round", "deal", "entry__player", "taken_by").order_by("created_at"))
    # a fouled étui's call: the chief gives its artificial results on the table's étuis page
    etuis = dict(EtuiPlay.objects.filter(deal_id__in=[c.deal_id for c in calls if c.reason == "fouled_etui"])
                 .values_list("deal_id", "etui__number"))
    for call in calls:
        call.age_minutes = int((now - call.created_at).total_seconds() // 60)  # type: ignore[attr-defined]
        number = etuis.get(call.deal_id) if call.deal_id is not None else None
        call.etuis_url = (reverse("table_etuis", args=[call.table_id]) + f"#etui-{number}"  # type: ignore[attr-defined]
                          if number is not None else "")
    answered = list(ArbiterCall.objects.filter(tournament=tournament, state=ArbiterCall.State.RESOLVED)
                    .select_related("table__round", "resolved_by").order_by("-resolved_at")[:10])
    visa = list(Deal.objects.filter(table__round__tournament=tournament, status=Deal.Status.PENDING)
                .select_related("table__round").order_by("created_at"))
    for deal in visa:  # the contract the visa is for, in words
        said = games.contract_label(tournament.game, deal.record)
        if isinstance(deal.record, dict) and deal.record.get("chelem_announced") is True:
            said = f"{said} · {_('chelem annoncé')}" if said else _("chelem annoncé")
        deal.contract = said  # type: ignore[attr-defined]
    disputed = list(Deal.objects.filter(table__round__tournament=tournament, sheet__state=DealSheet.State.DISPUTED)
                    .exclude(status=Deal.Status.ANNULLED).select_related("table__round").order_by("created_at"))
    rounds = tournament.rounds.exclude(status=Round.Status.PLANNED).order_by("-number")[:1]
    progress = []
    for rnd in rounds:
        # a bye (a table of one seat, « exempt ») has no deal to follow
        byes = set(rnd.tables.annotate(seated=Count("seats")).filter(seated=1).values_list("pk", flat=True))
        for table in rnd.tables.exclude(pk__in=byes).annotate(
                played=Count("deals", filter=~Q(deals__status=Deal.Status.ANNULLED)),
                confirmed=Count("deals", filter=Q(deals__sheet__state=DealSheet.State.CONFIRMED)
                                & ~Q(deals__status=Deal.Status.ANNULLED))).order_by("number"):
            progress.append({"table": table, "round": rnd, "played": table.played, "confirmed": table.confirmed,
                             "planned": None if tournament.is_match_game else tournament.deals_per_round})
    return render(request, "tables/chief.html", {
        "tournament": tournament, "calls": calls, "answered": answered, "visa": visa, "disputed": disputed,
        "progress": progress, "resolve_form": ResolveForm(), "outcomes": ArbiterCall.Outcome.choices,
        **irregular_context(tournament, lang_of(request), request.session),
    })


@guarded
@require_POST
def call_take_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    call = get_object_or_404(ArbiterCall.objects.select_related("table"), pk=pk, tournament__slug=slug)
    require(request, permissions.can_referee(request.user, call.tournament))
    try:
        service.call_take(call=call, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.text(lang_of(request)))
    else:
        messages.success(request, _("Table %(n)s: you take the call.") % {"n": call.table.number})
    return redirect("chief_page", slug=slug)


@guarded
@require_POST
def call_resolve_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    call = get_object_or_404(ArbiterCall.objects.select_related("table"), pk=pk, tournament__slug=slug)
    require(request, permissions.can_referee(request.user, call.tournament))
    form = ResolveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose what was done and write the answer the table reads."))
        return redirect("chief_page", slug=slug)
    try:
        service.call_resolve(call=call, user=request.user, outcome=form.cleaned_data["outcome"],
                             answer=form.cleaned_data["answer"])
    except ServiceError as exc:
        messages.error(request, exc.text(lang_of(request)))
    else:
        messages.success(request, _("Table %(n)s: the call is answered.") % {"n": call.table.number})
    return redirect("chief_page", slug=slug)
