"""A championship whose tournaments hold one person under two records (registered by name before the register
knew him: « Émile » with his licence, « EMILE » without) says so on the organizer's page, with where to merge them;
merged, the championship has one line for him (a walk: four people listed twice, nothing told the organizer)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.clubs.models import ClubRole
from tournaments.event import register
from tournaments.event.models import Entry, Player
from tournaments.seasons import championships
from tournaments.standings import tasks

from .builders import season_of_three

pytestmark = pytest.mark.django_db


def test_the_championship_page_names_the_people_registered_twice(client, django_user_model):
    s = season_of_three()
    t3 = s["tournaments"][2]
    emile = s["players"]["Émile"]
    twin = Player.objects.create(name="EMILE", club="", licence="")  # registered at T3 by name alone
    Entry.objects.filter(tournament=t3, player=emile).update(player=twin)
    championships.championship_publish(s["championship"].pk)  # as if T3 had been registered so from the start
    # two records of one result each: neither reaches the minimum of two results (builders: minimum 2)
    lines = championships.latest_snapshot(s["championship"].pk).lines
    assert not lines.filter(player_id__in=[emile.pk, twin.pk]).exists()
    organizer = django_user_model.objects.create_user("vanves", password="x")
    ClubRole.objects.create(club=s["club"], user=organizer, role=ClubRole.Role.ORGANIZER)
    client.force_login(organizer)
    url = reverse("championship_edit", args=[s["season"].slug, s["championship"].slug])
    page = client.get(url).content.decode()
    twins = page.split('id="twins"')[1].split("</section>")[0]
    entry = Entry.objects.get(tournament=t3, player=twin)
    assert "Émile" in twins and "EMILE" in twins
    assert reverse("player_edit", args=[t3.slug, entry.pk]) in twins or reverse(
        "player_edit", args=[s["tournaments"][1].slug, Entry.objects.get(tournament=s["tournaments"][1],
                                                                          player=emile).pk]) in twins
    # merged, the page says no more, and the championship has one line for him
    register.players_records_merge(kept=emile, duplicate=twin, reason="même personne")
    tasks.ranking_refresh(t3.pk)  # what the merge's « scores changed » asks for
    page = client.get(url).content.decode()
    assert 'id="twins"' not in page
    # T2 4th (2 points) and T3 3rd (4 points): Émile 6, one line (builders' table 10, 6, 4, 2)
    line = championships.latest_snapshot(s["championship"].pk).lines.get(player_id=emile.pk)
    assert championships.metric(line, "points") == 6
