"""Withdrawing a ruling recorded by mistake: kept and shown as withdrawn (who, when, why), counting for nothing.

Expected figures are worked by hand. Tarot (RULES.md §1.10-1.11): a garde with 2 bouts and 49 points needs 41,
made by 8, S = (25 + 8) × 2 = 66: the taker (Bruno, seat 1) +198, each defender −66. Triomphe (§2.4 rule 14,
§2.6 rules 20-21): each POINT deal gives Ana (seat 0) the point; the game is 5 points.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.integration.builders import named_lines
from tests.tournaments.deals.test_rulings_match_race import POINTS, ids, match_points
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tests.tournaments.deals.test_rulings_match_race import match_table as match_table  # a fixture, shared
from tests.tournaments.factories import tarot_summary
from tournaments.common.errors import InvalidInput, StateConflict, VersionConflict
from tournaments.deals import selectors
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import ruling_record, ruling_withdraw
from tournaments.event.models import Round, Tournament
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingSnapshot

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", "other_arbiter", "arbiter", "chief", "organizer"]


def published(tournament_id: int) -> dict[str, tuple[int, int]]:
    """{name: (rank, marks)} of the ranking published now."""
    version = tasks.ranking_refresh(tournament_id)
    snap = RankingSnapshot.objects.get(tournament_id=tournament_id, input_version=version)
    return {name: (ln.rank, rankings.metrics_dict(ln)["marks"]) for name, ln in named_lines(snap)}


@pytest.fixture
def tarot_ruling(tarot_table, staff):
    """A garde made by Bruno (−66 / +198 / −66 / −66), then a renonce ruling moving 20 marks from Bruno to Ana."""
    Round.objects.filter(pk=tarot_table.round_id).update(released=True)
    deal_record(table=tarot_table, record=tarot_summary(taker=1, points=49), user=staff["chief"])
    ana, bruno = (s.entry_id for s in selectors.table_seats(tarot_table)[:2])
    return ruling_record(table=tarot_table, kind="renonce", reason="renonce de Bruno au pli 4",
                                  user=staff["chief"], adjustments={str(ana): 20, str(bruno): -20})


# -- Tarot ----------------------------------------------------------------------------------------

def test_a_withdrawn_tarot_transfer_no_longer_counts_and_keeps_its_history(tarot_table, staff, tarot_ruling):
    tid = tarot_table.round.tournament_id
    ana, bruno, chloe, david = (s.entry_id for s in selectors.table_seats(tarot_table))
    assert selectors.table_totals(tarot_table) == {ana: -46, bruno: 178, chloe: -66, david: -66}
    assert published(tid) == {"Ana": (2, -46), "Bruno": (1, 178), "Chloé": (3, -66), "David": (3, -66)}

    ruling = ruling_withdraw(ruling=tarot_ruling, reason="saisie sur la mauvaise table",
                                      user=staff["chief"], expected_version=1)

    assert ruling.is_withdrawn and ruling.withdrawn_by == staff["chief"] and ruling.version == 2
    assert ruling.withdraw_reason == "saisie sur la mauvaise table"
    assert selectors.table_totals(tarot_table) == {ana: -66, bruno: 198, chloe: -66, david: -66}
    # Ana, Chloé and David level at −66 share the second place (ties shared, A-T11)
    assert published(tid) == {"Ana": (2, -66), "Bruno": (1, 198), "Chloé": (2, -66), "David": (2, -66)}
    # kept, not deleted: the ruling and its rows stay, the rows no longer count
    assert sorted(ScoreRow.objects.filter(ruling=ruling).values_list("points", "counts")) == [(-20, False),
                                                                                            (20, False)]
    versions = list(ruling.history.order_by("history_date", "history_id"))
    assert len(versions) == 2
    assert versions[0].withdrawn_at is None and versions[0].history_change_reason == "renonce de Bruno au pli 4"
    assert versions[1].withdrawn_at is not None and versions[1].history_user == staff["chief"]
    assert versions[1].history_change_reason == "saisie sur la mauvaise table"


def test_withdrawing_needs_a_reason_and_happens_once(tarot_ruling, staff):
    for blank in (None, "", "   "):
        with pytest.raises(InvalidInput) as exc:
            ruling_withdraw(ruling=tarot_ruling, reason=blank, user=staff["chief"])
        assert exc.value.field == "reason"
    tarot_ruling.refresh_from_db()
    assert not tarot_ruling.is_withdrawn and tarot_ruling.history.count() == 1
    with pytest.raises(VersionConflict):
        ruling_withdraw(ruling=tarot_ruling, reason="erreur", user=staff["chief"], expected_version=2)
    ruling_withdraw(ruling=tarot_ruling, reason="erreur", user=staff["chief"])
    with pytest.raises(StateConflict) as exc:
        ruling_withdraw(ruling=tarot_ruling, reason="encore", user=staff["chief"])
    assert exc.value.code == "ruling_withdrawn" and exc.value.status == 409
    assert Ruling.objects.get(pk=tarot_ruling.pk).withdraw_reason == "erreur"


def test_withdrawing_a_ruling_that_annulled_a_deal_restores_the_deal(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["chief"])
    ruling = ruling_record(table=tarot_table, deal=deal, kind="misdeal", reason="cartes mal distribuées",
                                    user=staff["chief"], annuls_deal=True)
    ana, bruno, chloe, david = (s.entry_id for s in selectors.table_seats(tarot_table))
    assert selectors.table_totals(tarot_table) == {ana: 0, bruno: 0, chloe: 0, david: 0}
    ruling_withdraw(ruling=ruling, reason="erreur", user=staff["chief"])
    deal.refresh_from_db()
    ruling.refresh_from_db()
    assert deal.status == Deal.Status.VALID and deal.version == 3 and ruling.is_withdrawn
    # the garde by Bruno counts again: −66 / +198 / −66 / −66
    assert selectors.table_totals(tarot_table) == {ana: -66, bruno: 198, chloe: -66, david: -66}


# -- Triomphe ---------------------------------------------------------------------------------------

def test_a_withdrawn_misdeal_penalty_reopens_the_match_it_ended(match_table, chief):
    ana, bruno = ids(match_table)
    for k in range(4):
        deal_record(table=match_table, record=POINTS[k], user=chief)
    # Bruno misdeals with no point: Ana scores one (§2.6 rule 20): 5-0, the match is over
    ruling = ruling_record(table=match_table, kind=None, reason="", user=chief,
                                    penalty="triomphe_misdeal", offender=bruno)
    match_table.refresh_from_db()
    assert match_table.match_totals == [5, 0] and match_table.match_ended
    assert match_points(match_table) == {"Ana": 2, "Bruno": 0}

    ruling_withdraw(ruling=ruling, reason="c'était Ana qui donnait", user=chief)

    match_table.refresh_from_db()
    assert match_table.match_totals == [4, 0] and not match_table.match_ended and match_table.match_winner is None
    assert selectors.table_totals(match_table) == {ana: 4, bruno: 0}  # the sheet agrees with the race
    assert match_points(match_table) == {"Ana": 0, "Bruno": 0}  # a match in play counts nothing
    assert "adjustments" not in selectors.table_match_record(match_table)  # the export skips it
    # play resumes: Ana's fifth point wins 5-0 at the end of that deal
    deal_record(table=match_table, record=POINTS[4], user=chief)
    match_table.refresh_from_db()
    assert match_table.match_totals == [5, 0] and match_table.match_winner == 0 and match_table.match_ended
    assert Ruling.objects.get(pk=ruling.pk).is_withdrawn


def test_a_ruling_the_later_deals_depend_on_is_not_withdrawn(match_table, chief):
    ana, bruno = ids(match_table)
    for k in range(4):
        deal_record(table=match_table, record=POINTS[k], user=chief)
    # Ana plays out of turn at 4-0: −1 (§2.6 rule 21), 3-0; two more points: 4-0, then 5-0 at the sixth deal
    ruling = ruling_record(table=match_table, kind=None, reason="", user=chief,
                                    penalty="triomphe_out_of_turn", offender=ana)
    deal_record(table=match_table, record=POINTS[4], user=chief)
    deal_record(table=match_table, record=POINTS[5], user=chief)
    match_table.refresh_from_db()
    assert match_table.match_totals == [5, 0] and match_table.match_ended
    # without the penalty Ana would have won at the fifth deal: the sixth would follow the end of the match
    with translation.override("en"), pytest.raises(StateConflict) as exc:
        ruling_withdraw(ruling=ruling, reason="erreur", user=chief)
    assert exc.value.code == "withdraw_breaks_match" and exc.value.status == 409
    assert exc.value.message == (
        "this ruling cannot be withdrawn: the match would not stand without it (deal 6 would come after the end "
        "of the match). Annul or correct the deals entered after it, or withdraw the later rulings, first.")
    with translation.override("fr"), pytest.raises(StateConflict) as exc:
        ruling_withdraw(ruling=ruling, reason="erreur", user=chief)
    assert exc.value.message == (
        "cette décision ne peut pas être retirée : la partie ne tiendrait pas sans elle (la donne 6 viendrait "
        "après la fin de la partie). Annulez ou corrigez d'abord les donnes saisies après elle, ou retirez les "
        "décisions suivantes.")
    # nothing changed
    ruling.refresh_from_db()
    match_table.refresh_from_db()
    assert not ruling.is_withdrawn and ruling.history.count() == 1
    assert match_table.match_totals == [5, 0] and selectors.table_totals(match_table) == {ana: 5, bruno: 0}
    assert ScoreRow.objects.filter(ruling=ruling, counts=True).count() == 1


# -- the API ----------------------------------------------------------------------------------------

def _client(api_client, staff, who):
    if who != "anonymous":
        api_client.force_authenticate(staff[who])
    return api_client


@pytest.mark.parametrize("who", ROLES)
def test_api_withdraw_per_role(api_client, staff, tarot_ruling, who):
    response = _client(api_client, staff, who).post(f"/api/rulings/{tarot_ruling.pk}/withdraw/",
                                                    {"reason": "erreur de table"}, format="json")
    allowed = who in ("chief", "organizer")
    if allowed:
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["withdrawn"] is True and body["withdraw_reason"] == "erreur de table"
        assert body["withdrawn_by"] == staff[who].pk and body["withdrawn_by_name"] == who
        assert body["withdrawn_at"] and body["version"] == 2
    else:
        assert response.status_code in (401, 403, 404), response.content
    assert Ruling.objects.get(pk=tarot_ruling.pk).is_withdrawn == allowed


def test_api_withdraw_of_an_unseen_tournament_is_a_404(api_client, staff, tarot_ruling):
    from tournaments.event.models import Tournament
    Tournament.objects.filter(pk=tarot_ruling.tournament_id).update(is_public=False)
    assert api_client.post(f"/api/rulings/{tarot_ruling.pk}/withdraw/", {"reason": "x"},
                           format="json").status_code in (401, 404)
    api_client.force_authenticate(staff["outsider"])
    assert api_client.post(f"/api/rulings/{tarot_ruling.pk}/withdraw/", {"reason": "x"},
                           format="json").status_code == 404
    assert api_client.post("/api/rulings/999999/withdraw/", {"reason": "x"}, format="json").status_code == 404


def test_api_withdraw_needs_a_reason_and_lists_the_ruling_as_withdrawn(api_client, staff, tarot_ruling):
    api_client.force_authenticate(staff["chief"])
    url = f"/api/rulings/{tarot_ruling.pk}/withdraw/"
    for body in ({}, {"reason": ""}):
        response = api_client.post(url, body, format="json")
        assert response.status_code == 400 and response.json()["field"] == "reason"
    stale = api_client.post(url, {"reason": "x", "version": 3}, format="json")
    assert stale.status_code == 409 and stale.json()["current_version"] == 1
    assert api_client.post(url, {"reason": "erreur"}, format="json").status_code == 200
    again = api_client.post(url, {"reason": "erreur"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "ruling_withdrawn"
    assert again.json()["message"] == "cette décision a déjà été retirée"
    again_en = api_client.post(url, {"reason": "erreur"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert again_en.json()["message"] == "this ruling was already withdrawn"
    listed = api_client.get(f"/api/tournaments/{tarot_ruling.tournament_id}/rulings/").json()
    rows = listed["results"] if isinstance(listed, dict) else listed
    assert [(r["id"], r["withdrawn"], r["withdraw_reason"]) for r in rows] == [(tarot_ruling.pk, True, "erreur")]


def test_api_refusals_in_french_and_english(api_client, tarot_table, staff):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(deals_per_round=1)
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["chief"])
    ruling = ruling_record(table=tarot_table, deal=deal, kind="misdeal", reason="maldonne",
                                    user=staff["chief"], annuls_deal=True)
    deal_record(table=tarot_table, record=tarot_summary(dealer=1), user=staff["chief"])  # the table is full
    api_client.force_authenticate(staff["chief"])
    url = f"/api/rulings/{ruling.pk}/withdraw/"
    fr = api_client.post(url, {"reason": "erreur"}, format="json")
    assert fr.status_code == 409 and fr.json()["error"] == "table_full" and fr.json()["field"] == "ruling"
    assert fr.json()["message"] == (
        "cette donne ne peut pas être rétablie : la table a déjà ses 1 donnes ; annulez d'abord une autre donne")
    en = api_client.post(url, {"reason": "erreur"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert en.json()["message"] == "this deal cannot be restored: the table already has its 1 deals; annul another " \
                                   "deal first"
    with translation.override("fr"), pytest.raises(InvalidInput) as exc:
        ruling_withdraw(ruling=ruling, reason=" ", user=staff["chief"])
    assert exc.value.message == "retirer une décision demande un motif"
    with translation.override("en"), pytest.raises(InvalidInput) as exc:
        ruling_withdraw(ruling=ruling, reason=" ", user=staff["chief"])
    assert exc.value.message == "withdrawing a ruling needs a reason"


def test_the_schema_documents_the_withdrawal(api_client):
    schema = api_client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/rulings/{id}/withdraw/"]["post"]
    assert "RulingWithdrawIn" in str(operation["requestBody"]) and {"200", "400", "409"} <= set(operation["responses"])


# -- the pages --------------------------------------------------------------------------------------

@pytest.mark.parametrize("who", ROLES)
def test_page_withdraw_per_role(client, staff, tarot_table, tarot_ruling, who):
    if who != "anonymous":
        client.force_login(staff[who])
    table_page = client.get(reverse("table_detail", args=[tarot_table.pk]))
    url = reverse("ruling_withdraw", args=[tarot_ruling.pk])
    form = client.get(url)
    posted = client.post(url, {"reason": "erreur de table"})
    allowed = who in ("chief", "organizer")
    if allowed:
        assert url in table_page.content.decode() and "Retirer" in table_page.content.decode()
        assert form.status_code == 200
        assert posted.status_code == 302 and posted["Location"] == reverse("table_detail", args=[tarot_table.pk])
    else:
        assert url not in table_page.content.decode()
        if who == "anonymous":
            assert form.status_code == 302 and "/accounts/login/" in form["Location"]
            assert posted.status_code == 302 and "/accounts/login/" in posted["Location"]
        else:
            assert form.status_code == 403 and posted.status_code == 403
    assert Ruling.objects.get(pk=tarot_ruling.pk).is_withdrawn == allowed


def test_the_table_page_marks_the_withdrawn_ruling_and_its_totals_go_back(client, staff, tarot_table,
                                                                             tarot_ruling):
    client.force_login(staff["chief"])
    before = client.get(reverse("table_detail", args=[tarot_table.pk])).content.decode()
    assert "<td class=\"neg\">-46</td>" in before and "<td class=\"pos\">178</td>" in before
    empty = client.post(reverse("ruling_withdraw", args=[tarot_ruling.pk]), {"reason": ""})
    assert empty.status_code == 200 and "Ce champ est obligatoire" in empty.content.decode()
    response = client.post(reverse("ruling_withdraw", args=[tarot_ruling.pk]), {"reason": "erreur de table"},
                           follow=True)
    page = response.content.decode()
    assert "Décision retirée : ses points ne comptent plus." in page
    assert "retirée" in page and "« erreur de table »" in page
    # the badge says « retirée », the line goes on « par chief le … »: the word is not said twice
    words = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "retirée par chief le" in words and "retirée retirée" not in words
    assert "<s>⚖ renonce — renonce de Bruno au pli 4 (Ana +20 · Bruno −20)</s>" in page
    assert "<td class=\"pos\">198</td>" in page and "-46" not in page
    assert reverse("ruling_withdraw", args=[tarot_ruling.pk]) not in page  # no second button
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    en = client.get(reverse("table_detail", args=[tarot_table.pk])).content.decode()
    assert ">withdrawn</span>" in en and "retirée" not in en
    en_words = " ".join(re.sub(r"<[^>]+>", " ", en).split())
    assert "withdrawn by chief on" in en_words and "withdrawn withdrawn" not in en_words


def test_the_page_explains_a_refusal(client, staff, tarot_table):
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(deals_per_round=2)
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["chief"])
    deal_record(table=tarot_table, record=tarot_summary(dealer=1), user=staff["chief"])
    ruling = ruling_record(table=tarot_table, deal=deal, kind="misdeal", reason="maldonne",
                                    user=staff["chief"], annuls_deal=True)
    deal_record(table=tarot_table, record=tarot_summary(dealer=2), user=staff["chief"])  # full again
    client.force_login(staff["chief"])
    url = reverse("ruling_withdraw", args=[ruling.pk])
    assert "la retirer rétablit la donne" in client.get(url).content.decode()
    refused = client.post(url, {"reason": "erreur"})
    assert refused.status_code == 422 and "Non retirée" in refused.content.decode()
    assert "la table a déjà ses 2 donnes" in refused.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    refused_en = client.post(url, {"reason": "erreur"}).content.decode()
    assert "this deal cannot be restored: the table already has its 2 deals" in refused_en
    assert "Withdraw a ruling" in refused_en
    assert not Ruling.objects.get(pk=ruling.pk).is_withdrawn
    assert Deal.objects.get(pk=deal.pk).status == Deal.Status.ANNULLED


def test_the_deal_page_shows_a_withdrawn_ruling(client, staff, tarot_table):
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["chief"])
    ana, bruno = (s.entry_id for s in selectors.table_seats(tarot_table)[:2])
    ruling = ruling_record(table=tarot_table, deal=deal, kind="exposed_card", reason="carte exposée",
                                    user=staff["chief"], adjustments={str(ana): 5, str(bruno): -5})
    client.force_login(staff["chief"])
    assert reverse("ruling_withdraw", args=[ruling.pk]) in client.get(
        reverse("deal_detail", args=[deal.pk])).content.decode()
    ruling_withdraw(ruling=ruling, reason="pas de carte exposée", user=staff["chief"])
    page = client.get(reverse("deal_detail", args=[deal.pk])).content.decode()
    assert "<s>carte exposée — carte exposée</s>" in page and "« pas de carte exposée »" in page
    words = " ".join(re.sub(r"<[^>]+>", " ", page).split())  # « retirée par chief le … », the word once
    assert "retirée par chief le" in words and "retirée retirée" not in words
