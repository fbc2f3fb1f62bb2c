"""The hall screen's rotation: ranking pages → « où suis-je assis » → the round clock; the clock itself."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.integration.builders import make_round, make_tournament
from tournaments.event.clock import Clock, clock_of, round_clock
from tournaments.event.models import Round, Seat, TournamentRole

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 12, 5, 14, 0, tzinfo=dt.UTC)


def test_the_clock_runs_pauses_and_resumes():
    t, e = make_tournament("ABCD", slug="clk")
    t.round_minutes = 60
    t.save()
    (table,) = make_round(t, 1, [list(e.values())])
    rnd = table.round
    assert round_clock(round=rnd, action="start", now=T0).remaining == 3600
    rnd.refresh_from_db()
    assert clock_of(rnd, T0 + dt.timedelta(minutes=10)).display == "50:00"
    paused = round_clock(round=rnd, action="pause", now=T0 + dt.timedelta(minutes=10, seconds=5))
    assert (paused.running, paused.display) == (False, "49:55")
    rnd.refresh_from_db()
    assert clock_of(rnd, T0 + dt.timedelta(hours=5)).display == "49:55"  # paused: time stands still
    round_clock(round=rnd, action="start", now=T0 + dt.timedelta(minutes=20))
    rnd.refresh_from_db()
    assert clock_of(rnd, T0 + dt.timedelta(minutes=70)).display == "-00:05"  # 605 s + 50 min run: 5 s over
    assert round_clock(round=rnd, action="reset", now=T0).elapsed == 0


def test_the_display_of_long_rounds():
    assert Clock(total=2 * 3600, elapsed=0, running=False).display == "2:00:00"
    assert Clock(total=90 * 60, elapsed=61, running=True).display == "88:59"
    assert Clock(total=60, elapsed=6061, running=True).display == "-1:40:01"


def test_the_organizer_starts_the_clock_from_the_round_page(client):
    t, e = make_tournament("ABCD", slug="clk2")
    make_round(t, 1, [list(e.values())])
    user = get_user_model().objects.create_user("orga", password="x")
    TournamentRole.objects.create(tournament=t, user=user, role="organizer")
    client.force_login(user)
    page = client.post(reverse("round_clock", args=[t.slug, 1]), {"action": "start"}, follow=True).content.decode()
    assert re.search(r"Horloge lancée : (60:00|59:5\d) restantes\.", page)
    assert Round.objects.get(tournament=t, number=1).clock_started_at is not None


def test_the_seating_screen_lists_everyone_by_name_with_the_table(client):
    names = ["Karim Benali", "Élodie Martin", "zoé Petit", "Marie-Bernadette Delacroix-Montfort",
             "Bruno", "Anne", "Odile", "Paul"]
    t, e = make_tournament(names, slug="hall")
    make_round(t, 1, [[e[n] for n in names[:4]], [e[n] for n in names[4:]]], released=False)
    Seat.objects.filter(entry=e["Paul"]).update(substitute="Yann Remplaçant")
    page = client.get(reverse("public-screen-seating", args=[t.slug])).content.decode()
    shown = re.findall(r'<span class="who">([^<]+)', page)
    assert shown == ["Anne", "Bruno", "Élodie Martin", "Karim Benali", "Marie-Bernadette Delacroix-Montfort",
                     "Odile", "Yann Remplaçant", "zoé Petit"]
    assert "remplace Paul" in page and "table 2" in page
    # no clock started: the rotation goes back to the ranking
    assert f'url={reverse("public-screen", args=[t.slug])}?page=1' in page


def test_the_rotation_ranking_then_seating_then_clock(client):
    t, e = make_tournament("ABCD", slug="rot")
    (table,) = make_round(t, 1, [list(e.values())], released=False)
    ranking = client.get(reverse("public-screen", args=[t.slug])).content.decode()
    assert f'url={reverse("public-screen-seating", args=[t.slug])}?page=1' in ranking
    round_clock(round=table.round, action="start")
    seating = client.get(reverse("public-screen-seating", args=[t.slug])).content.decode()
    assert f'url={reverse("public-screen-clock", args=[t.slug])}"' in seating
    clock = client.get(reverse("public-screen-clock", args=[t.slug])).content.decode()
    assert 'data-running="yes"' in clock and 'role="timer"' in clock
    assert f'url={reverse("public-screen", args=[t.slug])}?page=1' in clock
    Round.objects.filter(pk=table.round_id).update(status="finished")
    # no round to sit down for: the seating passes on at once, back to the ranking (the clock is the finished
    # round's: not shown); the ranking pages themselves read nothing but the published state
    passed = client.get(reverse("public-screen-seating", args=[t.slug]) + "?page=1")
    assert passed.status_code == 302 and passed["Location"] == reverse("public-screen", args=[t.slug]) + "?page=1"


def test_the_hall_shows_the_latest_round_drawn_and_the_clock_of_the_round_in_play(client):
    t, e = make_tournament("ABCDEFGH", slug="latest")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])                   # released
    (r2,) = {tb.round for tb in make_round(t, 2, [[e[x] for x in "AEBF"], [e[x] for x in "CGDH"]],
                                           released=False)}
    round_clock(round=r2, action="start")                                                 # round 2 in play
    make_round(t, 3, [[e[x] for x in "AHBG"], [e[x] for x in "CEDF"]], released=False)   # drawn ahead
    seating = client.get(reverse("public-screen-seating", args=[t.slug])).content.decode()
    assert "Manche 3 : où suis-je assis ?" in seating
    clock = client.get(reverse("public-screen-clock", args=[t.slug])).content.decode()
    assert "Manche 2 —" in clock and 'data-running="yes"' in clock


def test_a_player_on_a_bye_is_exempt_not_sent_to_a_table(client):
    t, e = make_tournament("ABCDE", slug="bye")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e["E"]]], released=False)  # E alone: a bye
    page = client.get(reverse("public-screen-seating", args=[t.slug])).content.decode()
    where = dict(re.findall(r'<span class="who">([^<]+)</span><span class="where[^"]*">([^<]+)', page))
    assert where == {"A": "table 1", "B": "table 1", "C": "table 1", "D": "table 1", "E": "exempt"}


def test_the_seating_screen_is_kept_per_seating_and_reads_no_seat_when_asked_again(client, settings):
    """A hall screen asks for the seating every few seconds: like the other public pages, the page is kept per
    seating of the round (its digest) and the second request reads no seat; a conditional request is a 304."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.LEVEE_PUBLIC_STATE_SECONDS = 2  # as in production: the seating's digest kept a moment in the process
    t, e = make_tournament("ABCDEFGH", slug="kept-seating")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]], released=False)
    url = reverse("public-screen-seating", args=[t.slug]) + "?page=1"
    first = client.get(url)
    assert first.status_code == 200 and "H" in first.content.decode() and first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    assert again.content == first.content
    assert not [q["sql"] for q in queries if "tournaments_seat" in q["sql"]]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_the_seating_screen_shows_a_swap_at_once_in_the_tests_setting(client):
    """Kept per seating: a swap makes another page (the seating's digest is not kept when the published state is
    not, as here)."""
    t, e = make_tournament("ABCDEFGH", slug="swap-seating")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]], released=False)
    url = reverse("public-screen-seating", args=[t.slug])
    where = dict(re.findall(r'<span class="who">([^<]+)</span><span class="where[^"]*">([^<]+)',
                            client.get(url).content.decode()))
    assert (where["A"], where["E"]) == ("table 1", "table 2")
    a, b = Seat.objects.get(entry=e["A"]), Seat.objects.get(entry=e["E"])
    a.table, b.table = b.table, a.table
    a.position, b.position = b.position, a.position
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create([a, b])
    where = dict(re.findall(r'<span class="who">([^<]+)</span><span class="where[^"]*">([^<]+)',
                            client.get(url).content.decode()))
    assert (where["A"], where["E"]) == ("table 2", "table 1")


def test_the_clock_screen_is_rendered_once_a_second_and_a_pause_shows_at_once(client, monkeypatch):
    """Every hall screen of a venue asks for the clock every few seconds: the page of a second is rendered once and
    kept that second (marked public: the proxy in front keeps it too); a pause is seen in the same second."""
    from tournaments.public import hall

    renders: list[str] = []
    real = hall.render_to_string
    monkeypatch.setattr(hall, "render_to_string", lambda *a, **k: renders.append(a[0]) or real(*a, **k))
    now = [1_800_000_000.2]
    monkeypatch.setattr(hall.time, "time", lambda: now[0])
    t, e = make_tournament("ABCD", slug="kept-clock")
    (table,) = make_round(t, 1, [list(e.values())], released=False)
    round_clock(round=table.round, action="start")
    url = reverse("public-screen-clock", args=[t.slug])
    first = client.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "public, no-cache"
    assert 'data-running="yes"' in first.content.decode()
    assert client.get(url).content == first.content and len(renders) == 1  # the same second: not rendered again
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    round_clock(round=table.round, action="pause")
    assert 'data-running="no"' in client.get(url).content.decode() and len(renders) == 2
    now[0] += 1  # the next second: the page anew
    later = client.get(url)
    assert later["ETag"] != first["ETag"] and len(renders) == 3
