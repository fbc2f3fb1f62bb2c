"""The pages of a private link, without an account: a table's page (its score sheet, its deals to confirm,
« Appeler l'arbitre », entry with the arbiter's own pages) and a player's page (his deals to confirm).

The token is looked up on every request (:mod:`tournaments.desk.link_session`); a revoked or unknown link gets a
page that says so and what to do (ask the arbiter for the new card), never a login form.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring import ranking as pure_ranking
from tournaments.common import games
from tournaments.common.access import lang_of, sent
from tournaments.common.errors import ServiceError
from tournaments.deals import selectors
from tournaments.deals.models import Deal, Ruling
from tournaments.desk import entry
from tournaments.desk import link_session as links
from tournaments.desk.views import deal_summary, unplayable
from tournaments.duplicate.results import sat_out
from tournaments.event import permissions
from tournaments.event.models import Entry, Round, Seat, Table, Tournament
from tournaments.links import service
from tournaments.links.models import ArbiterCall, DealAnswer, DealSheet, PrivateLink, TablePolicy
from tournaments.standings import rankings
from tournaments.standings.formats import metric_text, percent_columns, percent_text


def _refused(request: HttpRequest, link: PrivateLink | None) -> HttpResponse:
    status = 410 if link is not None else 404
    return render(request, "tables/link_refused.html", {"revoked": link is not None}, status=status)


def table_link_or_refusal(request: HttpRequest, token: str) -> PrivateLink | HttpResponse:
    link = links.find(token)
    if link is None or not link.is_live or link.table_id is None:
        return _refused(request, link if link is not None and link.table_id is not None else None)
    links.attach(request, link)
    return link


def _player_link(request: HttpRequest, token: str) -> PrivateLink | HttpResponse:
    link = links.find(token)
    if link is None or not link.is_live or link.entry_id is None:
        return _refused(request, link if link is not None and link.entry_id is not None else None)
    links.attach(request, link)
    return link


# -- what a score sheet shows ---------------------------------------------------------------------------

def deal_sheet(deal: Deal, seats: list[Seat], players: list[str], needed: int, lang: str = "fr", *,
               facts: service.SheetFacts | None = None, closed: bool | None = None,
               game: str | None = None) -> dict[str, Any]:
    """A deal as the players check it: the deal in the table's words (the game's explanation: taker, contract,
    bouts, points… or the tricks and declarations), each one's mark and answer, the sum of the marks, the sheet's
    state, and whether it may still be disputed. ``facts`` and ``closed``: read already for many deals
    (:func:`service.sheet_facts`, :func:`service.disputes_closed`)."""
    facts = facts or service.sheet_facts([deal])[deal.pk]
    lines = []
    for seat, name in zip(seats, players, strict=True):
        answer = facts.answers.get(seat.entry_id)
        lines.append({"entry": seat.entry, "seat": seat.position, "name": name,
                      "points": facts.scores.get(seat.entry_id),
                      "answer": answer.answer if answer else "", "when": answer.created_at if answer else None})
    irregular = deal.status == Deal.Status.IRREGULAR
    ruling = _decided_by(deal) if irregular else None
    game = game if game is not None else deal.table.round.tournament.game
    counted = ruling is not None and selectors.counts_the_deal(ruling, game)
    if counted:  # the chief counted it: its marks, as points (a penalty added stays on the ruling's line)
        ids = [line["entry"].pk for line in lines]
        shown = selectors.counted_marks(ruling, {e: facts.scores.get(e) for e in ids}, ids)
        rest = selectors.ruling_rest(ruling, shown)
        for line in lines:
            line["ruled"] = shown[line["entry"].pk]
            line["penalty"] = rest.get(str(line["entry"].pk), 0)  # the penalty added to the deal as played
    elif ruling is not None:  # what counts is the ruling's marks; the deal's own are shown beside, not counted
        for line in lines:
            line["ruled"] = (ruling.adjustments or {}).get(str(line["entry"].pk), 0)
    marks = [line["points"] for line in lines if line["points"] is not None]
    confirmed = sum(1 for line in lines if line["answer"] == DealAnswer.Answer.CONFIRMED)
    return {"deal": deal, "lines": lines, "sum": sum(marks), "balanced": sum(marks) == 0,
            "zero_sum": games.zero_sum_marks(game),
            "irregular": irregular, "ruling": ruling, "counted": counted,
            "ruling_words": ruling.reason.strip().rstrip(".") if ruling is not None else "",
            "state": facts.sheet.state if facts.sheet else DealSheet.State.ENTERED, "confirmed": confirmed,
            "needed": needed, "summary": deal_summary(deal, players),
            "detail": games.explain(str((deal.record or {}).get("game", "")), deal.verdict, players, lang),
            "won_by": games.winner_words(games.match_won_here(str((deal.record or {}).get("game", "")),
                                                               deal.verdict), players) if deal.counts else "",
            "disputable": not (service.dispute_closed(deal) if closed is None else closed)}


def _decided_by(deal: Deal) -> Ruling | None:
    """The ruling in force on an irregular deal (None: the arbiter's decision is awaited)."""
    return deal.rulings.filter(withdrawn_at__isnull=True).order_by("-created_at").first()


def _sheets(table: Table, lang: str = "fr", policy: TablePolicy | None = None,
            facts: dict[int, service.SheetFacts] | None = None) -> tuple[list[dict[str, Any]], list[Seat], list[str]]:
    """The sheets of the table's deals not annulled (its seats and deals read already when it comes from
    :func:`selectors.with_deals`), their facts read together (or given, read for many tables)."""
    seats = selectors.table_seats(table)
    players = selectors.table_players(table)
    needed = (policy or service.policy_of(table.round.tournament)).needed(len(seats))
    deals = [d for d in selectors.table_deals(table) if d.status != Deal.Status.ANNULLED]
    facts = facts if facts is not None else service.sheet_facts(deals)
    closed = service.disputes_closed(table.round)
    game = table.round.tournament.game
    return ([deal_sheet(d, seats, players, needed, lang, facts=facts[d.pk], closed=closed, game=game) for d in deals],
            seats, players)


def _calls(table: Table) -> list[ArbiterCall]:
    return list(ArbiterCall.objects.filter(table=table).select_related("taken_by", "deal").order_by("-created_at")[:6])


# -- a table's link ----------------------------------------------------------------------------------------

def link_home(request: HttpRequest, token: str) -> HttpResponse:
    """The table's page: who sits where, the deals to confirm, the score sheet, the calls to the arbiter. A
    player's link typed or scanned at the table's address goes to the player's page."""
    other = links.find(token)
    if other is not None and other.is_live and other.entry_id is not None:
        return redirect("player_home", token=token)
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    table = link.table
    sheets, _seats, _players = _sheets(table, lang_of(request))
    context = _table_context(request, table)
    progress = context["progress"]
    # the round's deals all entered, or the table's partie over (a walk's Triomphe table still offered an entry
    # that bounced back « La partie de cette table est terminée »)
    full = (progress["planned"] is not None and progress["played"] >= progress["planned"]) or table.match_ended
    bye = len(_seats) == 1  # alone at his « table »: exempt this round, nothing to enter nor confirm
    full = full or bye
    why_not = unplayable(table) if not bye and not table.match_ended else None  # the tournament over: said at once
    round_over = table.round.status == Round.Status.FINISHED
    may_enter = links.may_enter(request, table) and not full and why_not is None
    context.update({"link": link, "sheets": sheets, "bye": bye,
                    # an irregular deal is the arbiter's to decide, not the players' to confirm
                    "to_confirm": [s for s in sheets if s["state"] != "confirmed" and not s["irregular"]],
                    "calls": _calls(table), "may_enter": may_enter,
                    # an arbiter who scanned the table's code and signed in: his own entry, or why not (a walk
                    # found only « Les arbitres saisissent les donnes » there, and no way on)
                    # never for a finished round or tournament: an old link's page offered an entry that the next
                    # page refused (« Cette manche est finie »)
                    "staff_enter": not may_enter and not full and not round_over and why_not is None
                    and permissions.can_enter_deal(request.user, table),
                    "why_not": why_not, "round_over": round_over, "full": full})
    return render(request, "tables/link_home.html", context)


def _table_context(request: HttpRequest, table: Table) -> dict[str, Any]:
    from tournaments.desk.views import table_context

    context = table_context(request, table)
    tournament = table.round.tournament
    played = len([r for r in context["rows"] if r["deal"].status != Deal.Status.ANNULLED])
    planned = None if tournament.is_match_game else tournament.deals_per_round
    context["progress"] = {"played": played, "planned": planned}
    return context


def link_enter(request: HttpRequest, token: str) -> HttpResponse:
    """Enter a deal through the table's link: the arbiter's own tap page (its summary, or card by card), or the
    expert's JSON record (``?mode=record``), allowed by the link."""
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    if not links.may_enter(request, link.table):
        return render(request, "tables/link_no_entry.html", {"link": link, "table": link.table,
                                                             "round": link.table.round}, status=403)
    if request.method == "GET" and request.GET.get("mode") != "record":
        from tournaments.desk.play import play_page

        return play_page(request, link.table, link)
    return entry.deal_enter(request, pk=link.table_id)


@require_POST
def link_state(request: HttpRequest, token: str) -> HttpResponse:
    """Where the play of the deal being tapped stands (JSON), through the table's link."""
    from tournaments.desk.play import state_answer

    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    if not links.may_enter(request, link.table):
        return HttpResponse(status=403)
    return state_answer(request, link.table)


@require_POST
def link_check(request: HttpRequest, token: str) -> HttpResponse:
    """Check without saving (htmx), through the table's link."""
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    if not links.may_enter(request, link.table):
        return HttpResponse(status=403)
    return entry.deal_check(request, pk=link.table_id)


def link_deal(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """One deal of the table (by its number at the table): the deal in words, each player's mark, the sum, and each
    player's tap: « Je confirme » or « Je conteste » (with a reason)."""
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), number=number,
                             table_id=link.table_id)
    if request.method == "POST":
        return _answer(request, link, deal, redirect_to=redirect("link_deal", token=token, number=deal.number))
    seats = selectors.table_seats(deal.table)
    players = selectors.table_players(deal.table)
    needed = service.policy_of(deal.table.round.tournament).needed(len(seats))
    sheet = deal_sheet(deal, seats, players, needed, lang_of(request))
    return render(request, "tables/link_deal.html", {
        "link": link, "table": deal.table, "round": deal.table.round, "tournament": deal.table.round.tournament,
        "sheet": sheet,
        # the results official and the tournament over: nothing left to answer (a dispute is refused)
        "answerable": deal.status not in (Deal.Status.ANNULLED, Deal.Status.IRREGULAR) and sheet["disputable"],
        "may_call": deal.status != Deal.Status.ANNULLED,
    })


def _answer(request: HttpRequest, link: PrivateLink, deal: Deal, *, redirect_to: HttpResponse) -> HttpResponse:
    """A tap on « Je confirme » or « Je conteste »: the player is named by his seat at the deal's table."""
    answer = request.POST.get("answer", "")
    try:
        position = int(request.POST.get("seat", ""))
    except ValueError:
        position = -1
    seat = Seat.objects.select_related("entry__player").filter(table_id=deal.table_id, position=position).first()
    player = seat.entry if seat is not None else None
    if player is None or not links.may_answer(link, deal, player):
        return HttpResponse(_("This link cannot answer for this player."), status=403,
                            content_type="text/plain; charset=utf-8")
    try:
        service.deal_answer(deal=deal, entry=player, answer=answer, link=link,
                            note=request.POST.get("note", ""))
    except ServiceError as exc:
        messages.error(request, exc.text(lang_of(request)))
    else:
        if answer == DealAnswer.Answer.DISPUTED:
            messages.warning(request, _("%(name)s disputes deal %(n)s: the arbiter is called.")
                             % {"name": player.player.name, "n": deal.number})
        else:
            messages.success(request, _("%(name)s confirms deal %(n)s.") % {"name": player.player.name,
                                                                          "n": deal.number})
    return redirect_to


class CallForm(forms.Form):
    # (« étui faussé » and « donne irrégulière » are the checks of the deals calling by themselves, not a player's
    # choice)
    reason = forms.ChoiceField(label=gettext_lazy("Why"), choices=[
        c for c in ArbiterCall.Reason.choices
        if c[0] not in (ArbiterCall.Reason.FOULED_ETUI, ArbiterCall.Reason.IRREGULAR)], widget=forms.RadioSelect)
    deal = forms.TypedChoiceField(label=gettext_lazy("Which deal"), required=False, coerce=int, empty_value=None)
    note = forms.CharField(label=gettext_lazy("In a few words (optional)"), required=False, max_length=300)

    def __init__(self, *args: Any, deals: list[Deal], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["deal"].choices = [("", _("The deal being played"))] + [
            (d.number, _("Deal %(n)s") % {"n": d.number}) for d in deals]


def link_call(request: HttpRequest, token: str) -> HttpResponse:
    """« Appeler l'arbitre »: the reason in one tap, the deal if it is about one."""
    link = table_link_or_refusal(request, token)
    if isinstance(link, HttpResponse):
        return link
    table = link.table
    deals = [d for d in selectors.table_deals(table) if d.status != Deal.Status.ANNULLED]
    asked = request.GET.get("deal", "")
    initial = {"deal": int(asked), "reason": ArbiterCall.Reason.OTHER} if asked.isdigit() else None
    form = CallForm(request.POST or None, deals=deals, initial=initial)
    if request.method == "POST" and form.is_valid():
        deal = next((d for d in deals if d.number == form.cleaned_data.get("deal")), None)
        service.call_create(table=table, reason=form.cleaned_data["reason"], deal=deal, link=link,
                            note=form.cleaned_data.get("note") or "")
        messages.success(request, _("The arbiter is called."))
        return sent(request, reverse("link_home", args=[token]))
    return render(request, "tables/link_call.html", {"link": link, "table": table, "round": table.round,
                                                     "tournament": table.round.tournament, "form": form},
                  status=422 if request.method == "POST" else 200)


# -- a player's link ------------------------------------------------------------------------------------------

def player_home(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page: his deals to confirm at the tables where he sits, and those he answered. A table's
    link at the player's address goes to the table's page."""
    other = links.find(token)
    if other is not None and other.is_live and other.table_id is not None:
        return redirect("link_home", token=token)
    link = _player_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    entry_ = link.entry
    tournament = link.tournament
    tables = selectors.with_deals(tournament, list(
        Table.objects.filter(seats__entry=entry_).select_related("round").order_by("-round__number", "number")))
    policy = service.policy_of(tournament)
    facts = service.sheet_facts([d for table in tables for d in selectors.table_deals(table, include_annulled=False)])
    groups = []
    for table in tables:
        sheets, _seats, _players = _sheets(table, lang_of(request), policy, facts)
        for sheet in sheets:
            sheet["mine"] = next((line for line in sheet["lines"] if line["entry"].pk == entry_.pk), None)
        groups.append({"table": table, "round": table.round.number, "sheets": sheets,
                       "bye": len(_seats) == 1})  # alone: a bye, « exempt »
    # duplicate: a round where he sits at no table (a player over a multiple of four) is a bye too
    groups += [{"table": None, "round": number, "sheets": [], "bye": True}
               for number in sat_out(tournament, entry_id=entry_.pk)]
    groups.sort(key=lambda group: -group["round"])
    return render(request, "tables/player_home.html", {"link": link, "entry": entry_, "groups": groups,
                                                       "tournament": link.tournament,
                                                       "place": _place(tournament, entry_, lang_of(request))})


def _place(tournament: Tournament, entry_: Entry, lang: str) -> dict[str, Any] | None:
    """The player's place as the public ranking shows it (his rank among those with a result, « sur n » its lines,
    as its explanations say) and the number it is made of, named (« Points de match : 2 »), with the public
    ranking's address at his line when the tournament is public (a walk found only « Mon parcours » there). A
    player with no result yet: no rank (« — ») and the public ranking's words for it (a walk read « 5e sur 8 (ex
    aequo) » on the link where the public ranking, the hall screen and the PDF said « — »). None before a ranking
    with a released round is published (a walk read « 1er sur 14 (ex aequo) » for everyone before anything was)."""
    found = rankings.entry_place(tournament.pk, entry_.pk)
    if found is None:
        return None
    language = "en" if lang.startswith("en") else "fr"
    metric, value = found.line.metrics[0] if found.line.metrics else ("", None)
    shown = percent_text(value) if metric in percent_columns(found.snapshot) else metric_text(value)
    public = tournament.is_public and tournament.status != Tournament.Status.DRAFT
    words = ""
    if found.rank is None:
        words = pure_ranking.unranked_words(found.snapshot.kind, found.in_play, language)
    return {"rank": found.rank, "shared": found.shared, "field": found.field, "words": words,
            "label": pure_ranking.label(metric, language).capitalize(),
            "value": shown,
            "url": reverse("public-ranking", args=[tournament.slug]) + f"?me={entry_.pk}#me" if public else ""}


@require_POST
def player_answer(request: HttpRequest, token: str, round_number: int, number: int) -> HttpResponse:
    """A player confirms or disputes one of his deals (his own answer only): deal ``number`` of his table in
    round ``round_number``."""
    link = _player_link(request, token)
    if isinstance(link, HttpResponse):
        return link
    deal = get_object_or_404(Deal.objects.select_related("table__round__tournament"), number=number,
                             table__round__tournament_id=link.tournament_id, table__round__number=round_number,
                             table__seats__entry_id=link.entry_id)
    return _answer(request, link, deal, redirect_to=redirect("player_home", token=token))
