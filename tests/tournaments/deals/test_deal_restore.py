"""Restoring an annulled deal (« rétablir une donne »: restore.deal_restore, the deal page, the API).

Figures worked by hand. Tarot, 2 oudlers and 49 points: the taker needs 41, 8 over: (25 + 8) = 33 per defender;
a garde ×2: −66 each, +198 to the taker; a garde sans ×4: −132 each, +396. Triomphe: each POINT deal gives Ana
(seat 0) the point; the target is 5.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from tests.tournaments.deals.test_rulings_match_race import POINTS, ids, match_points
from tests.tournaments.deals.test_rulings_match_race import chief as chief  # a fixture, shared
from tests.tournaments.deals.test_rulings_match_race import match_table as match_table  # a fixture, shared
from tests.tournaments.deals.test_rulings_withdraw import ROLES, published
from tests.tournaments.factories import tarot_summary
from tournaments.common.errors import InvalidInput, StateConflict, VersionConflict
from tournaments.deals import selectors
from tournaments.deals.models import Deal, ScoreRow
from tournaments.deals.record import deal_annul, deal_approve, deal_record
from tournaments.deals.restore import deal_restore
from tournaments.deals.rulings import ruling_record, ruling_withdraw
from tournaments.event.models import Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_deals(tarot_table, staff):
    """Deal 1: a garde by Bruno (−66 / +198 / −66 / −66); deal 2: a garde by Ana (+198 / −66 / −66 / −66)."""
    Round.objects.filter(pk=tarot_table.round_id).update(released=True)
    first = deal_record(table=tarot_table, record=tarot_summary(taker=1), user=staff["chief"])
    second = deal_record(table=tarot_table, record=tarot_summary(taker=0, dealer=1), user=staff["chief"])
    return first, second


def rows(deal: Deal) -> list[tuple[int, bool]]:
    return sorted(ScoreRow.objects.filter(deal=deal, ruling__isnull=True).values_list("points", "counts"))


# -- Tarot ----------------------------------------------------------------------------------------

def test_annul_then_restore_brings_the_totals_and_the_ranking_back(tarot_table, staff, two_deals):
    _first, second = two_deals
    tid = tarot_table.round.tournament_id
    ana, bruno, chloe, david = ids(tarot_table)
    both = {ana: 132, bruno: 132, chloe: -132, david: -132}
    assert selectors.table_totals(tarot_table) == both
    assert published(tid) == {"Ana": (1, 132), "Bruno": (1, 132), "Chloé": (3, -132), "David": (3, -132)}

    deal_annul(deal=second, reason="donne jouée à la mauvaise table", user=staff["chief"])
    assert selectors.table_totals(tarot_table) == {ana: -66, bruno: 198, chloe: -66, david: -66}
    assert published(tid) == {"Ana": (2, -66), "Bruno": (1, 198), "Chloé": (2, -66), "David": (2, -66)}

    restored = deal_restore(deal=second, reason="annulée par erreur", user=staff["organizer"],
                                     expected_version=2)
    assert restored.status == Deal.Status.VALID and restored.version == 3
    assert restored.updated_by == staff["organizer"]
    assert restored.record == second.record  # judged again as it is, not rewritten
    assert rows(restored) == [(-66, True), (-66, True), (-66, True), (198, True)]
    assert selectors.table_totals(tarot_table) == both
    assert published(tid) == {"Ana": (1, 132), "Bruno": (1, 132), "Chloé": (3, -132), "David": (3, -132)}

    versions = list(Deal.objects.get(pk=second.pk).history.order_by("history_date", "history_id"))
    assert [(v.version, v.status, v.history_change_reason) for v in versions] == [
        (1, "valid", "saisie"), (2, "annulled", "donne jouée à la mauvaise table"), (3, "valid", "annulée par erreur")]
    assert versions[2].history_user == staff["organizer"]


def test_restore_needs_a_reason_an_annulled_deal_and_the_current_version(tarot_table, staff, two_deals):
    first, second = two_deals
    with pytest.raises(StateConflict) as exc:
        deal_restore(deal=first, reason="erreur", user=staff["chief"])
    assert exc.value.code == "deal_not_annulled" and exc.value.status == 409
    deal_annul(deal=second, reason="erreur de saisie", user=staff["chief"])
    for blank in (None, "", "  "):
        with pytest.raises(InvalidInput) as exc:
            deal_restore(deal=second, reason=blank, user=staff["chief"])
        assert exc.value.field == "reason"
    with pytest.raises(VersionConflict) as exc:
        deal_restore(deal=second, reason="erreur", user=staff["chief"], expected_version=1)
    assert exc.value.current_version == 2
    second.refresh_from_db()
    assert second.status == Deal.Status.ANNULLED and second.version == 2 and second.history.count() == 2
    deal_restore(deal=second, reason="erreur", user=staff["chief"], expected_version=2)
    with pytest.raises(StateConflict) as exc:  # a second time: no longer annulled
        deal_restore(deal=second, reason="encore", user=staff["chief"])
    assert exc.value.code == "deal_not_annulled"
    assert Deal.objects.get(pk=second.pk).version == 3


def test_a_full_table_refuses_the_restore(tarot_table, staff, two_deals):
    first, second = two_deals
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(deals_per_round=2)
    deal_annul(deal=second, reason="erreur", user=staff["chief"])
    third = deal_record(table=tarot_table, record=tarot_summary(taker=2, dealer=1), user=staff["chief"])
    with translation.override("fr"), pytest.raises(StateConflict) as exc:
        deal_restore(deal=second, reason="erreur", user=staff["chief"])
    assert exc.value.code == "table_full"
    assert exc.value.message == ("cette donne ne peut pas être rétablie : la table a déjà ses 2 donnes ; annulez "
                                 "d'abord une autre donne")
    with translation.override("en"), pytest.raises(StateConflict) as exc:
        deal_restore(deal=second, reason="erreur", user=staff["chief"])
    assert exc.value.message == ("this deal cannot be restored: the table already has its 2 deals; annul another "
                                 "deal first")
    assert Deal.objects.get(pk=second.pk).status == Deal.Status.ANNULLED
    deal_annul(deal=third, reason="c'était la donne 2", user=staff["chief"])
    assert deal_restore(deal=second, reason="erreur", user=staff["chief"]).status == Deal.Status.VALID
    ana, bruno, chloe, david = ids(tarot_table)
    assert selectors.table_totals(tarot_table) == {ana: 132, bruno: 132, chloe: -132, david: -132}
    assert first.pk  # deal 1 untouched all along


def test_a_pending_deal_comes_back_pending(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(contract="garde_sans"), user=staff["arbiter"])
    assert deal.status == Deal.Status.PENDING
    deal_annul(deal=deal, reason="maldonne", user=staff["chief"])
    restored = deal_restore(deal=deal, reason="pas de maldonne", user=staff["chief"])
    assert restored.status == Deal.Status.PENDING and restored.version == 3  # restoring is not the visa
    assert rows(restored) == [(-132, False), (-132, False), (-132, False), (396, False)]
    ana, bruno, chloe, david = ids(tarot_table)
    assert selectors.table_totals(tarot_table) == {ana: 0, bruno: 0, chloe: 0, david: 0}
    deal_approve(deal=restored, user=staff["chief"])
    assert selectors.table_totals(tarot_table) == {ana: -132, bruno: 396, chloe: -132, david: -132}


def test_an_approved_garde_sans_comes_back_valid(tarot_table, staff):
    deal = deal_record(table=tarot_table, record=tarot_summary(contract="garde_sans"), user=staff["chief"])
    deal_annul(deal=deal, reason="maldonne", user=staff["chief"])
    assert deal_restore(deal=deal, reason="erreur", user=staff["chief"]).status == Deal.Status.VALID


# -- a match game (Triomphe) --------------------------------------------------------------------------

def test_a_restored_deal_takes_its_place_back_in_the_race(match_table, chief):
    ana, bruno = ids(match_table)
    deals = [deal_record(table=match_table, record=POINTS[k], user=chief) for k in range(4)]
    ruling_record(table=match_table, kind=None, reason="", user=chief, penalty="triomphe_misdeal",
                           offender=bruno)  # Ana +1: 5-0, over
    # the second deal: the third follows its dealer (it was dealt and passed the deal on, §2.2 rule 6)
    deal_annul(deal=deals[1], reason="jeu faux", user=chief)
    match_table.refresh_from_db()
    assert match_table.match_totals == [4, 0] and not match_table.match_ended
    assert match_points(match_table) == {"Ana": 0, "Bruno": 0}

    restored = deal_restore(deal=deals[1], reason="le jeu était complet", user=chief)
    assert restored.status == Deal.Status.VALID and restored.version == 3
    match_table.refresh_from_db()
    assert match_table.match_totals == [5, 0] and match_table.match_ended and match_table.match_winner == 0
    assert selectors.table_totals(match_table) == {ana: 5, bruno: 0}
    assert selectors.table_match_record(match_table)["adjustments"][0]["after"] == 3  # after the 4th deal again
    assert match_points(match_table) == {"Ana": 2, "Bruno": 0}
    assert rows(restored) == [(0, True), (1, True)]


def test_a_restore_the_later_deals_would_follow_is_refused(match_table, chief):
    ana, bruno = ids(match_table)
    deals = [deal_record(table=match_table, record=POINTS[k], user=chief) for k in range(4)]
    ruling_record(table=match_table, kind=None, reason="", user=chief, penalty="triomphe_misdeal",
                           offender=bruno)
    deal_annul(deal=deals[1], reason="jeu faux", user=chief)
    deal_record(table=match_table, record=POINTS[0], user=chief)  # deal 5, dealt by Bruno: 5-0, over
    with translation.override("fr"), pytest.raises(StateConflict) as exc:
        deal_restore(deal=deals[1], reason="erreur", user=chief)
    assert exc.value.code == "restore_breaks_match" and exc.value.status == 409
    assert exc.value.message == (
        "cette donne ne peut pas être rétablie : la partie ne tiendrait pas avec elle (la donne 5 viendrait après la "
        "fin de la partie). Annulez ou corrigez d'abord les donnes saisies après elle.")
    with translation.override("en"), pytest.raises(StateConflict) as exc:
        deal_restore(deal=deals[1], reason="erreur", user=chief)
    assert exc.value.message.startswith("this deal cannot be restored: the match would not stand with it (deal 5 "
                                        "would come after the end of the match)")
    deal = Deal.objects.get(pk=deals[1].pk)
    assert deal.status == Deal.Status.ANNULLED and deal.version == 2 and deal.history.count() == 2
    match_table.refresh_from_db()
    assert match_table.match_totals == [5, 0] and match_table.match_ended
    assert selectors.table_totals(match_table) == {ana: 5, bruno: 0}


# -- withdrawing the ruling that annulled a deal ------------------------------------------------------

def test_withdrawing_an_annulling_ruling_restores_the_deal(tarot_table, staff, two_deals):
    _first, second = two_deals
    ana, bruno, chloe, david = ids(tarot_table)
    ruling = ruling_record(table=tarot_table, deal=second, kind="misdeal", reason="maldonne",
                                    user=staff["chief"], annuls_deal=True)
    assert selectors.table_totals(tarot_table) == {ana: -66, bruno: 198, chloe: -66, david: -66}
    withdrawn = ruling_withdraw(ruling=ruling, reason="pas de maldonne", user=staff["organizer"])
    assert withdrawn.is_withdrawn and withdrawn.version == 2
    deal = Deal.objects.get(pk=second.pk)
    assert deal.status == Deal.Status.VALID and deal.version == 3
    assert selectors.table_totals(tarot_table) == {ana: 132, bruno: 132, chloe: -132, david: -132}
    last = deal.history.order_by("-history_date", "-history_id").first()
    assert last.history_change_reason == "décision d'arbitrage retirée : pas de maldonne"
    assert last.history_user == staff["organizer"]


def test_a_deal_annulled_again_since_is_not_restored_by_the_withdrawal(tarot_table, staff, two_deals):
    _first, second = two_deals
    ruling = ruling_record(table=tarot_table, deal=second, kind="misdeal", reason="maldonne",
                                    user=staff["chief"], annuls_deal=True)
    deal_restore(deal=second, reason="erreur", user=staff["chief"])
    deal_annul(deal=second, reason="en fait, jeu faux", user=staff["chief"])
    with translation.override("fr"), pytest.raises(StateConflict) as exc:
        ruling_withdraw(ruling=ruling, reason="pas de maldonne", user=staff["chief"])
    assert exc.value.code == "deal_annulled_since"
    assert exc.value.message.startswith("cette décision ne peut pas être retirée : la donne qu'elle a annulée a été "
                                        "rétablie puis annulée de nouveau depuis")
    ruling.refresh_from_db()
    assert not ruling.is_withdrawn and Deal.objects.get(pk=second.pk).version == 4


def test_a_deal_restored_since_lets_the_ruling_go_alone(tarot_table, staff, two_deals):
    _first, second = two_deals
    ruling = ruling_record(table=tarot_table, deal=second, kind="misdeal", reason="maldonne",
                                    user=staff["chief"], annuls_deal=True)
    deal_restore(deal=second, reason="erreur", user=staff["chief"])
    ruling_withdraw(ruling=ruling, reason="pas de maldonne", user=staff["chief"])
    deal = Deal.objects.get(pk=second.pk)
    assert deal.status == Deal.Status.VALID and deal.version == 3  # already back: no fourth version


def test_a_withdrawal_whose_restore_is_refused_changes_nothing(tarot_table, staff, two_deals):
    _first, second = two_deals
    Tournament.objects.filter(pk=tarot_table.round.tournament_id).update(deals_per_round=2)
    ruling = ruling_record(table=tarot_table, deal=second, kind="misdeal", reason="maldonne",
                                    user=staff["chief"], annuls_deal=True)
    deal_record(table=tarot_table, record=tarot_summary(taker=2, dealer=1), user=staff["chief"])
    with translation.override("fr"), pytest.raises(StateConflict) as exc:
        ruling_withdraw(ruling=ruling, reason="pas de maldonne", user=staff["chief"])
    assert exc.value.code == "table_full" and exc.value.field == "ruling"
    assert exc.value.message.startswith("cette donne ne peut pas être rétablie : la table a déjà ses 2 donnes")
    ruling.refresh_from_db()
    assert not ruling.is_withdrawn and ruling.version == 1
    assert Deal.objects.get(pk=second.pk).status == Deal.Status.ANNULLED


def test_withdrawing_a_ruling_that_annulled_a_match_deal_puts_it_back(match_table, chief):
    ana, bruno = ids(match_table)
    deals = [deal_record(table=match_table, record=POINTS[k], user=chief) for k in range(3)]
    ruling = ruling_record(table=match_table, deal=deals[1], kind="misdeal", reason="maldonne",
                                    user=chief, annuls_deal=True)
    match_table.refresh_from_db()
    assert match_table.match_totals == [2, 0]
    ruling_withdraw(ruling=ruling, reason="pas de maldonne", user=chief)
    match_table.refresh_from_db()
    assert match_table.match_totals == [3, 0] and selectors.table_totals(match_table) == {ana: 3, bruno: 0}


# -- the API ----------------------------------------------------------------------------------------

def _client(api_client, staff, who):
    if who != "anonymous":
        api_client.force_authenticate(staff[who])
    return api_client


@pytest.fixture
def annulled(tarot_table, staff, two_deals):
    return deal_annul(deal=two_deals[1], reason="erreur", user=staff["chief"])


@pytest.mark.parametrize("who", ROLES)
def test_api_restore_per_role(api_client, staff, annulled, who):
    response = _client(api_client, staff, who).post(f"/api/deals/{annulled.pk}/restore/",
                                                    {"reason": "annulée par erreur"}, format="json")
    allowed = who in ("chief", "organizer")
    if allowed:
        assert response.status_code == 200, response.content
        assert response.json()["status"] == "valid" and response.json()["version"] == 3
        assert response["ETag"] == '"3"'
    elif who == "anonymous":
        assert response.status_code in (401, 403)
    else:
        assert response.status_code == 403, response.content
        assert "votre rôle dans ce tournoi ne le permet pas" in response.content.decode()
    assert Deal.objects.get(pk=annulled.pk).status == (Deal.Status.VALID if allowed else Deal.Status.ANNULLED)


def test_api_restore_of_an_unseen_deal_is_a_404(api_client, staff, annulled):
    Tournament.objects.filter(pk=annulled.table.round.tournament_id).update(is_public=False)
    api_client.force_authenticate(staff["outsider"])
    assert api_client.post(f"/api/deals/{annulled.pk}/restore/", {"reason": "x"}, format="json").status_code == 404
    api_client.force_authenticate(staff["chief"])
    assert api_client.post("/api/deals/999999/restore/", {"reason": "x"}, format="json").status_code == 404


def test_api_restore_reason_version_and_refusals(api_client, staff, annulled, two_deals):
    api_client.force_authenticate(staff["chief"])
    url = f"/api/deals/{annulled.pk}/restore/"
    for body in ({}, {"reason": ""}):
        response = api_client.post(url, body, format="json")
        assert response.status_code == 400 and response.json()["field"] == "reason"
    stale = api_client.post(url, {"reason": "x", "version": 1}, format="json")
    assert stale.status_code == 409 and stale.json()["current_version"] == 2
    stale_header = api_client.post(url, {"reason": "x"}, format="json", HTTP_IF_MATCH='"1"')
    assert stale_header.status_code == 409 and stale_header.json()["error"] == "stale_version"
    ok = api_client.post(url, {"reason": "erreur"}, format="json", HTTP_IF_MATCH='"2"')
    assert ok.status_code == 200 and ok["ETag"] == '"3"'
    again = api_client.post(url, {"reason": "erreur"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "deal_not_annulled"
    assert again.json()["message"] == "seule une donne annulée peut être rétablie (celle-ci est valide)"
    en = api_client.post(url, {"reason": "erreur"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert en.json()["message"] == "only an annulled deal can be restored (this one is valid)"
    versions = api_client.get(f"/api/deals/{annulled.pk}/versions/").json()
    assert (versions[0]["version"], versions[0]["status"], versions[0]["reason"]) == (3, "valid", "erreur")


def test_the_schema_documents_the_restore(api_client):
    schema = api_client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/deals/{id}/restore/"]["post"]
    assert "RestoreIn" in str(operation["requestBody"])
    assert {"200", "400", "403", "404", "409"} <= set(operation["responses"])


# -- the pages --------------------------------------------------------------------------------------

@pytest.mark.parametrize("who", ROLES)
def test_page_restore_per_role(client, staff, annulled, who):
    if who != "anonymous":
        client.force_login(staff[who])
    detail = client.get(reverse("deal_detail", args=[annulled.pk]))
    url = reverse("deal_restore", args=[annulled.pk])
    form = client.get(url)
    posted = client.post(url, {"reason": "annulée par erreur", "version": "2"})
    allowed = who in ("chief", "organizer")
    if allowed:
        assert url in detail.content.decode() and "Rétablir la donne" in detail.content.decode()
        assert form.status_code == 200 and "Pourquoi la donne est-elle rétablie ?" in form.content.decode()
        assert posted.status_code == 302 and posted["Location"] == reverse("deal_detail", args=[annulled.pk])
    else:
        if who == "anonymous":
            assert form.status_code == 302 and "/accounts/login/" in form["Location"]
            assert posted.status_code == 302 and "/accounts/login/" in posted["Location"]
        else:
            assert url not in detail.content.decode()
            assert form.status_code == 403 and posted.status_code == 403
    assert Deal.objects.get(pk=annulled.pk).status == (Deal.Status.VALID if allowed else Deal.Status.ANNULLED)


def test_the_pages_show_the_restored_deal_and_its_version(client, staff, tarot_table, annulled):
    client.force_login(staff["chief"])
    table_url = reverse("table_detail", args=[tarot_table.pk])
    before = client.get(table_url).content.decode()
    # deal 2 annulled shows no marks (a walk: its struck marks still read as its score), total −66/198
    assert "<s>198</s>" not in before and '<td class="pos">198</td>' in before
    url = reverse("deal_restore", args=[annulled.pk])
    empty = client.post(url, {"reason": "", "version": "2"})
    assert empty.status_code == 200 and "Ce champ est obligatoire" in empty.content.decode()
    stale = client.post(url, {"reason": "erreur", "version": "1"})
    assert stale.status_code == 422 and "la donne en est à la version 2" in stale.content.decode()
    page = client.post(url, {"reason": "annulée par erreur", "version": "2"}, follow=True).content.decode()
    assert "Donne 2 rétablie : elle compte de nouveau." in page
    assert "Version 3" in page and "« annulée par erreur »" in page and url not in page
    after = client.get(table_url).content.decode()
    assert "<s>" not in after and '<td class="pos">132</td>' in after and '<td class="neg">-132</td>' in after
    refused = client.post(url, {"reason": "encore", "version": "3"})
    assert refused.status_code == 422 and "seule une donne annulée peut être rétablie" in refused.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    deal_annul(deal=annulled, reason="encore", user=staff["chief"])
    en = client.get(reverse("deal_detail", args=[annulled.pk])).content.decode()
    assert "Restore the deal" in en and "Rétablir" not in en
    form_en = client.get(url).content.decode()
    assert "Why is the deal restored?" in form_en and "The annulment is not erased" in form_en


def test_the_ruling_withdrawal_page_restores_the_deal(client, staff, tarot_table, two_deals):
    ruling = ruling_record(table=tarot_table, deal=two_deals[1], kind="misdeal", reason="maldonne",
                                    user=staff["chief"], annuls_deal=True)
    client.force_login(staff["chief"])
    detail = client.get(reverse("deal_detail", args=[two_deals[1].pk])).content.decode()
    url = reverse("ruling_withdraw", args=[ruling.pk])
    assert url in detail  # an annulling ruling is withdrawn too now
    form = client.get(url).content.decode()
    assert "la retirer rétablit la donne" in form
    response = client.post(url, {"reason": "pas de maldonne"}, follow=True)
    assert "Décision retirée : ses points ne comptent plus." in response.content.decode()
    assert Deal.objects.get(pk=two_deals[1].pk).status == Deal.Status.VALID
