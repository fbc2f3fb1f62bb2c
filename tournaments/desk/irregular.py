"""The irregular deals on the chief arbiter's page (« donne irrégulière — décision de l'arbitre attendue »): each
with what was found and the decisions the rule texts give for its game, and the ruling posted from there."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import penalties
from tournaments.common import games
from tournaments.common.access import guarded, lang_of, require
from tournaments.common.errors import ServiceError
from tournaments.deals import rulings
from tournaments.deals.models import Deal, Ruling
from tournaments.deals.selectors import table_seats
from tournaments.desk.entry import preset_label
from tournaments.event import permissions
from tournaments.event.models import Tournament

#: the decisions as the chief reads them (their order: ``games.irregular_decisions``)
DECISION_LABELS = {
    "let_stand": gettext_lazy("Let the deal stand (law 43: the offender marks one less: nothing for the point, 1 for "
                              "the vole or for the point after the adversary played without proposing or refused)"),
    "replay": gettext_lazy("Replay the deal (law 43, the adversary's choice)"),
    "penalty": gettext_lazy("The penalty the rules fix"),
    "as_played": gettext_lazy("Count the deal as played"),
    "annul": gettext_lazy("Annul the deal"),
    "adjustment": gettext_lazy("Marks set by the arbiter (with a reason)"),
}


def waiting_deals(tournament: Tournament) -> list[Deal]:
    """The tournament's irregular deals no ruling has decided yet, oldest first."""
    decided = Ruling.objects.filter(deal=OuterRef("pk"), withdrawn_at__isnull=True)
    return list(Deal.objects.filter(table__round__tournament=tournament, status=Deal.Status.IRREGULAR)
                .exclude(Exists(decided)).select_related("table__round").order_by("created_at"))


def _preset_effect(preset: penalties.Preset, lang: str, counts: bool) -> str:
    """What a penalty does to the deal's own marks, said on the form before the chief taps
    (``games.penalty_counts_deal``)."""
    name = preset.label(lang).split(" : ", 1)[0].split(": ", 1)[0]
    if counts:
        return _("%(name)s : la donne compte telle que jouée et la pénalité s'y ajoute.") % {"name": name}
    if preset.deal_counts:
        return _("%(name)s : la donne ne compte pas ; seule la pénalité est marquée.") % {"name": name}
    return _("%(name)s : la donne ne compte pas (elle est redonnée) ; seule la pénalité est marquée.") % {
        "name": name}


def _draft_key(deal_id: int) -> str:
    return f"levee:irregular-draft:{deal_id}"


def irregular_context(tournament: Tournament, lang: str = "fr", session: Any = None) -> dict[str, Any]:
    """What ``tables/_irregular.html`` shows: each waiting deal, what was found, the decisions and their fields —
    and, from ``session``, what the chief posted for a deal the ruling refused, with the reason (shown once)."""
    decisions = games.irregular_decisions(tournament.game, tournament.record_options())
    presets = [{"code": p.code, "label": preset_label(p, lang),
                "effect": _preset_effect(p, lang, games.penalty_counts_deal(tournament.game, p))}
               for p in games.penalty_presets(tournament.game, tournament.record_options())]
    without = penalties.GAMES_WITHOUT_PRESETS.get(tournament.game)
    items = []
    for deal in waiting_deals(tournament):
        seats = table_seats(deal.table)
        names = (deal.verdict or {}).get("players") or []
        draft = session.pop(_draft_key(deal.pk), None) if session is not None else None
        own = rulings.deal_own_marks(deal)
        items.append({
            "deal": deal,
            "found": [v.get("message", "") for v in (deal.verdict or {}).get("violations", [])],
            "seats": [{"entry_id": s.entry_id, "name": names[s.position] if s.position < len(names) else "",
                       "played": own[s.position] if s.position < len(own) else None,
                       "typed": (draft or {}).get("points", {}).get(str(s.entry_id), "")} for s in seats],
            "draft": draft or {},
        })
    return {"irregular": items, "irregular_decisions": [(d, DECISION_LABELS[d]) for d in decisions],
            "irregular_presets": presets, "irregular_unit": games.score_unit(tournament.game, lang),
            "irregular_no_presets": (without[1] if lang.startswith("en") else without[0]) if without else ""}


def _missing(*, penalty: bool, offender: bool) -> str:
    """What the penalty decision lacks, named as the form labels it (« Pénalité », « Fautif »)."""
    if penalty and offender:
        return _("Choisissez la pénalité et le joueur fautif.")
    return _("Choisissez la pénalité.") if penalty else _("Choisissez le joueur fautif.")


def _refusal(exc: ServiceError, lang: str) -> str:
    """A refused ruling in the words of the form: the service's sentences name the API's fields, codes and entry
    ids (« la décision est l'une de : penalty, as_played … »), which belong to the API, not to the chief's page."""
    field = exc.field or ""
    if field == "decision":
        return _("Choisissez une des décisions proposées.")
    if field == "penalty":
        return _missing(penalty=True, offender=False)
    if field == "offender":
        return _missing(penalty=False, offender=True)
    if field == "reason":
        return _("Écrivez le motif de la décision.")
    return exc.text(lang).rstrip(".") + "."  # after « Décision non enregistrée : »


@guarded
@require_POST
def irregular_rule_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The chief's ruling on an irregular deal, posted from his page."""
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), pk=pk)
    tournament = deal.table.round.tournament
    require(request, permissions.can_rule(request.user, tournament))
    adjustments: dict[str, int] = {}
    typed: dict[str, str] = {}
    error = ""
    for seat in table_seats(deal.table):
        raw = (request.POST.get(f"points_{seat.entry_id}") or "").strip()[:12]
        typed[str(seat.entry_id)] = raw
        if raw:
            try:
                adjustments[str(seat.entry_id)] = int(raw)
            except ValueError:
                error = _("Marks are whole numbers.")
    decision = request.POST.get("decision") or ""
    penalty = request.POST.get("penalty") or None
    offender = request.POST.get("offender") or None
    if not error and decision == "penalty" and not (penalty and offender):
        error = _missing(penalty=not penalty, offender=not offender)
    elif not error and decision == "penalty" and adjustments:
        error = _("Avec la pénalité fixée par les règles, laissez vides les marques fixées par l'arbitre.")
    if not error:
        try:
            rulings.irregular_rule(deal=deal, decision=decision, reason=request.POST.get("reason"),
                                   user=request.user, adjustments=adjustments or None, penalty=penalty,
                                   offender=offender,
                                   is_penalty=True if request.POST.get("is_penalty") == "1" else None)
        except ServiceError as exc:
            error = _refusal(exc, lang_of(request))
    if error:
        # what he chose and typed comes back with the reason, beside this deal (a walk lost the decision, the
        # four marks and the reason at each refusal, the sentence at the top of a long page)
        request.session[_draft_key(deal.pk)] = {
            "error": error, "decision": request.POST.get("decision", "")[:20],
            "penalty": request.POST.get("penalty", "")[:40], "offender": request.POST.get("offender", "")[:20],
            "reason": request.POST.get("reason", "")[:2000], "is_penalty": request.POST.get("is_penalty") == "1",
            "points": typed}
        return redirect(reverse("chief_page", args=[tournament.slug]) + f"#irregular-{deal.pk}")
    messages.success(request, _("Table %(n)s, deal %(k)s: the ruling is recorded.")
                     % {"n": deal.table.number, "k": deal.number})
    return redirect("chief_page", slug=tournament.slug)
