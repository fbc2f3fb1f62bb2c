"""The admin (issue 18, item 7): every model a club's staff needs is there and answers; what the services judge
(deals, rulings, score rows) is read-only; a save of a ranking input tells the hook ``scores_changed``."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from tests.tournaments.factories import ClubRoleFactory, tarot_summary
from tournaments.clubs.models import Club, Grouping, Licence
from tournaments.common import hooks
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import ruling_record
from tournaments.event.models import Entry, Player, Round, Seat, Table, Team, Tournament, TournamentRole
from tournaments.links import service as links
from tournaments.links.models import PrivateLink, TablePolicy
from tournaments.standings.models import RankingClock

pytestmark = pytest.mark.django_db

REGISTERED = [Tournament, Player, Entry, Team, Round, Table, Seat, TournamentRole, Deal, Ruling, ScoreRow,
              PrivateLink, TablePolicy, Club, Grouping, Licence]
READ_ONLY = {Deal, Ruling, ScoreRow, PrivateLink}


@pytest.fixture
def played(tarot_table, staff):
    """One of each: a deal (with its score rows), a ruling, a team, a table link and the tables' policy."""
    tournament = tarot_table.round.tournament
    deal = deal_record(table=tarot_table, record=tarot_summary(), user=staff["arbiter"])
    first = Seat.objects.filter(table=tarot_table).order_by("position").first()
    ruling_record(table=tarot_table, kind="slow_play", reason="Jeu lent répété", user=staff["chief"],
                  adjustments={first.entry_id: -10}, is_penalty=True, deal=deal)
    Team.objects.create(tournament=tournament, name="Les As")
    links.link_for_table(table=tarot_table)
    links.policy_set(tournament=tournament, tables_enter=True, confirmations_needed=None, unconfirmed_count=True,
                     appeal_minutes=15)
    club = ClubRoleFactory(user=staff["organizer"]).club  # a club with its organizer, in a comité
    club.grouping = Grouping.objects.create(name="Finistère")
    club.save()
    Licence.objects.create(number="2900001", last_name="ANA", club=club)
    return deal


@pytest.fixture
def told(monkeypatch):
    """The tournaments the hook was told about (the standings' subscriber replaced by a recorder)."""
    seen: list[int] = []
    monkeypatch.setattr(hooks, "_subscribers", [seen.append])
    return seen


def _url(model, view, *args):
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


def test_the_models_a_club_needs_are_registered():
    assert {m for m in admin.site._registry if m._meta.app_label == "tournaments"} == set(REGISTERED)


@pytest.mark.parametrize("model", REGISTERED, ids=lambda m: m.__name__)
def test_each_admin_page_answers_for_a_superuser(admin_client, played, model):
    obj = model.objects.order_by("pk").first()
    assert obj is not None
    assert admin_client.get(_url(model, "changelist")).status_code == 200
    assert admin_client.get(_url(model, "changelist"), {"q": "Ana"}).status_code == 200  # the search fields hold
    assert admin_client.get(_url(model, "change", obj.pk)).status_code == 200
    assert admin_client.get(_url(model, "add")).status_code == (403 if model in READ_ONLY else 200)


def test_a_deal_and_its_history_are_shown_never_written(admin_client, played):
    deal = played
    history = admin_client.get(_url(Deal, "history", deal.pk))
    assert history.status_code == 200 and "saisie" in history.content.decode()  # the first version's reason
    version = deal.history.order_by("history_id").first()
    form_url = reverse("admin:tournaments_deal_simple_history", args=[deal.pk, version.history_id])
    assert admin_client.get(form_url).status_code == 200
    record, rows = dict(deal.record), ScoreRow.objects.count()
    assert admin_client.post(form_url, {"number": 7, "status": "annulled", "version": 9}).status_code == 403
    assert admin_client.post(_url(Deal, "change", deal.pk), {"number": 7}).status_code == 403
    assert admin_client.post(_url(Deal, "delete", deal.pk), {"post": "yes"}).status_code == 403
    deal.refresh_from_db()
    assert (deal.number, deal.status, deal.version, deal.record) == (1, "valid", 1, record)
    changelist = admin_client.post(_url(ScoreRow, "changelist"), {
        "action": "delete_selected", "_selected_action": [r.pk for r in ScoreRow.objects.all()], "post": "yes"})
    assert changelist.status_code in (200, 302) and ScoreRow.objects.count() == rows == 5  # 4 marks, 1 penalty
    assert admin_client.post(_url(Ruling, "delete", Ruling.objects.get().pk), {"post": "yes"}).status_code == 403


def test_a_team_added_in_the_admin_tells_the_hook(admin_client, tarot_table, told):
    tournament = tarot_table.round.tournament
    response = admin_client.post(_url(Team, "add"), {"tournament": tournament.pk, "name": "Les Bouts"})
    assert response.status_code == 302
    assert Team.objects.filter(name="Les Bouts").exists()
    assert told == [tournament.pk]


def test_an_entry_changed_in_the_admin_tells_the_hook(admin_client, tarot_table, told):
    tournament = tarot_table.round.tournament
    entry = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    response = admin_client.post(_url(Entry, "change", entry.pk), {
        "tournament": tournament.pk, "player": entry.player_id, "team": "", "withdrawn": "on", "from_round": 1,
        "replaces": "", "checked_in_at_0": "", "checked_in_at_1": ""})
    assert response.status_code == 302, response.content.decode()[:2000]
    entry.refresh_from_db()
    assert entry.withdrawn and told == [tournament.pk]


def test_a_round_deleted_in_the_admin_tells_the_hook(admin_client, tarot_table, told):
    tournament = tarot_table.round.tournament
    spare = Round.objects.create(tournament=tournament, number=2)
    assert admin_client.post(_url(Round, "delete", spare.pk), {"post": "yes"}).status_code == 302
    assert not Round.objects.filter(pk=spare.pk).exists() and told == [tournament.pk]
    other = Round.objects.create(tournament=tournament, number=3)
    told.clear()
    response = admin_client.post(_url(Round, "changelist"), {"action": "delete_selected", "post": "yes",
                                                             "_selected_action": [other.pk]})
    assert response.status_code == 302 and not Round.objects.filter(pk=other.pk).exists()
    assert told == [tournament.pk]


def test_a_tournament_saved_in_the_admin_tells_the_hook(rf, admin_user, tarot_table, told):
    tournament = tarot_table.round.tournament
    tournament.tie_breaks = ["wins"]
    request = rf.post("/admin/")
    request.user = admin_user
    admin.site._registry[Tournament].save_model(request, tournament, None, True)
    assert told == [tournament.pk]


def test_the_tables_policy_is_saved_through_its_service(admin_client, tarot_table):
    """Checked by the service's rules (a trial run, rolled back), then saved by it: the ranking's input version
    goes up once, when what counts changed."""
    tournament = tarot_table.round.tournament

    def version() -> int:
        clock = RankingClock.objects.filter(tournament=tournament).first()
        return clock.version if clock else 0

    start = version()
    data = {"tournament": tournament.pk, "tables_enter": "on", "confirmations_needed": 9, "unconfirmed_count": "",
            "appeal_minutes": 15}
    refused = admin_client.post(_url(TablePolicy, "add"), data)
    # a Tarot table of four: at most four players confirm a deal (9 refused, in the service's words)
    assert refused.status_code == 200 and "entre 1 et 4 joueurs" in refused.content.decode()
    assert not TablePolicy.objects.exists() and version() == start
    saved = admin_client.post(_url(TablePolicy, "add"), {**data, "confirmations_needed": 3})
    assert saved.status_code == 302
    policy = TablePolicy.objects.get()
    assert (policy.tables_enter, policy.confirmations_needed, policy.unconfirmed_count) == (True, 3, False)
    assert version() == start + 1
    assert admin_client.post(_url(TablePolicy, "delete", policy.pk), {"post": "yes"}).status_code == 403


def test_a_link_is_revoked_through_its_service(admin_client, tarot_table):
    link = links.link_for_table(table=tarot_table)
    response = admin_client.post(_url(PrivateLink, "changelist"), {"action": "revoke_links",
                                                                   "_selected_action": [link.pk]})
    assert response.status_code == 302
    link.refresh_from_db()
    assert link.revoked_at is not None
    renewed = PrivateLink.objects.get(table=tarot_table, revoked_at__isnull=True)
    assert renewed.pk != link.pk
