"""Forfeits and absences at a table: the service, their effect on the ranking, the page and the API, per role.

Expected match points are hand arithmetic (win 2, draw 1, loss 0; a forfeit is a win whose game points count
nowhere, docs/ranking.md), never output of the code under test.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.integration.builders import end_match, make_round, make_tournament, named_lines
from tests.tournaments.factories import UserFactory, role
from tournaments.common.errors import InvalidInput
from tournaments.deals.forfeits import forfeit_cancel, forfeit_record
from tournaments.deals.models import Forfeit
from tournaments.standings import rankings, tasks
from tournaments.standings.models import RankingSnapshot

pytestmark = pytest.mark.django_db


def published(t):
    version = tasks.ranking_refresh(t.pk)
    snap = RankingSnapshot.objects.filter(tournament=t).order_by("-input_version").first()
    assert version is None or snap.input_version == version
    return {name: (line.rank, rankings.metrics_dict(line)) for name, line in named_lines(snap)}


def ecarte():
    """Écarté, 4 players: R1 P beats Q 5–3, R beats S 5–1; R2 P v R and Q v S, not played yet."""
    t, e = make_tournament("PQRS", game="ecarte", slug="fft")
    P, Q, R, S = (e[x] for x in "PQRS")
    a, b = make_round(t, 1, [[P, Q], [R, S]])
    end_match(a, [5, 3], 0)
    end_match(b, [5, 1], 0)
    c, d = make_round(t, 2, [[P, R], [Q, S]])
    return t, e, (a, b, c, d)


def test_forfeit_gives_the_match_to_the_side_present():
    t, e, (_a, _b, c, _d) = ecarte()
    forfeit_record(table=c, kind="forfeit", absent=[e["R"].pk], user=None, reason="parti")
    got = published(t)
    # P: 2 (beat Q) + 2 (forfeit) = 4; R: 2 + 0 = 2; margin P only from R1: 5 − 3 = 2 (forfeit not counted)
    assert got["P"][1]["match_points"] == 4 and got["P"][1]["wins"] == 2 and got["P"][1]["margin"] == 2
    assert got["R"][1]["match_points"] == 2 and got["R"][1]["losses"] == 1 and got["R"][1]["margin"] == 4
    assert got["P"][0] == 1


def test_forfeit_overrides_a_played_match_and_cancelling_restores_it():
    t, e, (a, _b, _c, _d) = ecarte()
    forfeit_record(table=a, kind="forfeit", absent=[e["P"].pk], user=None)  # P left: Q wins R1
    got = published(t)
    assert got["Q"][1]["match_points"] == 2 and got["P"][1]["match_points"] == 0
    assert forfeit_cancel(table=a, user=None) is True
    got = published(t)
    assert got["P"][1]["match_points"] == 2 and got["Q"][1]["match_points"] == 0
    assert forfeit_cancel(table=a, user=None) is False


def test_absence_leaves_the_match_without_result_and_replaces_a_forfeit():
    t, e, (a, _b, _c, _d) = ecarte()
    forfeit_record(table=a, kind="forfeit", absent=[e["Q"].pk], user=None)
    forfeit_record(table=a, kind="absence", absent=[e["P"].pk, e["Q"].pk], user=None)
    assert Forfeit.objects.filter(table=a).count() == 1
    got = published(t)
    # R1 table 1 has no result: P and Q 0 MP, 0 played; R still 2 from table 2
    assert got["P"][1]["played"] == 0 and got["Q"][1]["played"] == 0 and got["R"][1]["match_points"] == 2


def test_everyone_absent_at_a_forfeit_is_no_result():
    t, e, (_a, _b, c, _d) = ecarte()
    forfeit_record(table=c, kind="forfeit", absent=[e["P"].pk, e["R"].pk], user=None)
    got = published(t)
    assert got["P"][1]["played"] == 1 and got["R"][1]["played"] == 1  # round 1 only


def test_partnership_forfeit():
    # Écarté à quatre: Q (seat 1) absent → side of seats 0 and 2 (P, R) wins by forfeit.
    t, e = make_tournament("PQRS", game="ecarte", slug="ff4")
    (a,) = make_round(t, 1, [[e[x] for x in "PQRS"]])
    forfeit_record(table=a, kind="forfeit", absent=[e["Q"].pk], user=None)
    got = published(t)
    assert [got[n][1]["match_points"] for n in "PQRS"] == [2, 0, 2, 0]


def test_the_service_refuses_what_makes_no_sense():
    _t, e, (a, _b, _c, _d) = ecarte()
    with pytest.raises(InvalidInput) as exc:
        forfeit_record(table=a, kind="forfeit", absent=[e["R"].pk], user=None)
    assert exc.value.field == "absent[0]"
    with pytest.raises(InvalidInput) as exc:
        forfeit_record(table=a, kind="forfeit", absent=[], user=None)
    assert exc.value.field == "absent"
    with pytest.raises(InvalidInput) as exc:
        forfeit_record(table=a, kind="lost", absent=[e["P"].pk], user=None)
    assert exc.value.field == "kind"
    tarot, te = make_tournament("ABCD", slug="fftarot")
    (ta,) = make_round(tarot, 1, [[te[x] for x in "ABCD"]])
    with pytest.raises(InvalidInput) as exc:
        forfeit_record(table=ta, kind="forfeit", absent=[te["A"].pk], user=None)
    assert exc.value.field == "kind"
    assert forfeit_record(table=ta, kind="absence", absent=[te["A"].pk], user=None).kind == "absence"


def test_recording_bumps_the_ranking_inputs():
    t, e, (_a, _b, c, _d) = ecarte()
    published(t)
    assert rankings.ranking_status(t).up_to_date
    with pytest.MonkeyPatch.context() as mp:  # no refresh at commit: the page must say "not up to date"
        mp.setattr(tasks, "ranking_enqueue", lambda tid: False)
        forfeit_record(table=c, kind="forfeit", absent=[e["R"].pk], user=None)
    assert not rankings.ranking_status(t).up_to_date


# -- the page and the API, per role -------------------------------------------------------------------

@pytest.fixture
def people():
    t, e, tables = ecarte()
    users = {name: UserFactory(username=f"ff-{name}") for name in ("organizer", "chief", "arbiter", "outsider")}
    role(t, users["organizer"], "organizer")
    role(t, users["chief"], "chief_arbiter")
    role(t, users["arbiter"], "arbiter", [tables[2]])
    return t, e, tables, users


@pytest.mark.parametrize("who, allowed", [("organizer", True), ("chief", True), ("arbiter", False),
                                          ("outsider", False)])
def test_forfeit_page_per_role(client, people, who, allowed):
    _t, e, (_a, _b, c, _d), users = people
    client.force_login(users[who])
    url = reverse("table_forfeit", args=[c.pk])
    assert client.get(url).status_code == (200 if allowed else 403)
    response = client.post(url, {"action": "record", "kind": "forfeit", "absent": [e["R"].pk], "reason": "malade"})
    if allowed:
        assert response.status_code == 302 and response.url == reverse("table_detail", args=[c.pk])
        forfeit = Forfeit.objects.get(table=c)
        assert forfeit.kind == "forfeit" and list(forfeit.absent.all()) == [e["R"]] and forfeit.reason == "malade"
        assert "malade" in client.get(reverse("table_detail", args=[c.pk])).content.decode()
    else:
        assert response.status_code == 403 and not Forfeit.objects.exists()


def test_forfeit_page_anonymous_logs_in_and_form_errors_are_kept(client, people):
    _t, e, (_a, _b, c, _d), users = people
    url = reverse("table_forfeit", args=[c.pk])
    assert client.get(url).status_code == 302
    client.force_login(users["chief"])
    html = client.post(url, {"action": "record", "kind": "forfeit", "reason": "x"}).content.decode()
    assert "has-error" in html and not Forfeit.objects.exists()
    client.post(url, {"action": "record", "kind": "absence", "absent": [e["P"].pk, e["R"].pk]})
    assert client.post(url, {"action": "cancel"}).status_code == 302 and not Forfeit.objects.exists()


@pytest.mark.parametrize("who, code", [("organizer", 200), ("chief", 200), ("arbiter", 403), ("outsider", 403),
                                       (None, 401)])
def test_forfeit_api_per_role(api_client, people, who, code):
    _t, e, (_a, _b, c, _d), users = people
    if who:
        api_client.force_authenticate(users[who])
    url = reverse("api:table-forfeit", args=[c.pk])
    response = api_client.put(url, {"kind": "forfeit", "absent": [e["R"].pk], "reason": "parti"}, format="json")
    assert response.status_code in ((401, 403) if code == 401 else (code,))
    if code == 200:
        assert response.json()["absent"] == [e["R"].pk] and response.json()["kind"] == "forfeit"
        assert api_client.get(url).json()["reason"] == "parti"
        assert api_client.delete(url).status_code == 204
        assert api_client.get(url).status_code == 404


def test_forfeit_api_names_the_field(api_client, people):
    _t, e, (_a, _b, c, _d), users = people
    api_client.force_authenticate(users["chief"])
    url = reverse("api:table-forfeit", args=[c.pk])
    body = api_client.put(url, {"kind": "forfeit", "absent": [e["Q"].pk]}, format="json").json()
    assert body["error"] == "invalid" and body["field"] == "absent[0]"
    body = api_client.put(url, {"kind": "nope", "absent": [e["P"].pk]}, format="json").json()
    assert body["field"] == "kind"
    assert api_client.delete(url).status_code == 404
