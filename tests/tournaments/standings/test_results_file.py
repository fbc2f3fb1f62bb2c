"""The complete results file: valid against its JSON Schema, every deal and ruling, the final ranking."""

from __future__ import annotations

import json

import jsonschema
import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, downloaded, make_round, make_tournament
from tournaments.deals.models import Ruling, ScoreRow
from tournaments.event.models import Seat, TournamentRole
from tournaments.standings import tasks
from tournaments.standings.results_file import schema

pytestmark = pytest.mark.django_db


def test_the_results_file_holds_the_whole_tournament(client, django_user_model):
    t, e = make_tournament("ABCDEFGH", slug="file")
    t1, t2 = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    add_deal(t1, [150, -50, -50, -50], taker=0)
    add_deal(t2, [-40, 120, -40, -40], taker=1)
    make_round(t, 2, [[e[x] for x in "AEBF"], [e[x] for x in "CGDH"]], released=False)  # not public yet
    Seat.objects.filter(entry=e["H"], table=t2).update(substitute="Yann")
    ruling = Ruling.objects.create(tournament=t, table=t1, kind="slow_play", reason="Jeu lent, avertissement",
                                   adjustments={str(e["B"].pk): -10}, is_penalty=True)
    ScoreRow.objects.create(tournament=t, round=t1.round, table=t1, ruling=ruling, entry=e["B"], points=-10)
    tasks.ranking_refresh(t.pk)
    response = downloaded(client.get, reverse("public-results-file", args=[t.slug]))
    doc = json.loads(response.content)
    jsonschema.validate(doc, schema(), format_checker=jsonschema.FormatChecker())
    assert doc["format"] == "levee.results/1"
    assert [r["number"] for r in doc["rounds"]] == [1]  # released rounds only
    table1, table2 = doc["rounds"][0]["tables"]
    assert table1["deals"][0]["marks"] == [150, -50, -50, -50] and table1["deals"][0]["record"]["game"] == "tarot"
    assert table2["seats"][3] == {"position": 3, "player": e["H"].pk, "substitute": "Yann"}
    (r,) = doc["rulings"]
    assert (r["kind"], r["adjustments"], r["round"], r["table"]) == ("slow_play", {str(e["B"].pk): -10}, 1, 1)
    lines = doc["ranking"]["lines"]
    assert lines[0] == {"rank": 1, "shared": False, "player": e["A"].pk, "metrics": lines[0]["metrics"]}
    assert lines[0]["metrics"]["marks"] == 150
    b = next(ln for ln in lines if ln["player"] == e["B"].pk)
    assert b["metrics"]["marks"] == -60  # -50 in the deal, -10 by the ruling
    assert len(doc["ranking"]["digest"]) == 64 and doc["ranking"]["up_to_date"] is True
    assert {p["licence"] for p in doc["players"]} == {None}  # personal data: the staff's file only
    staff = django_user_model.objects.create_user("orga", password="x")
    TournamentRole.objects.create(tournament=t, user=staff, role="organizer")
    client.force_login(staff)
    doc = json.loads(downloaded(client.get, reverse("public-results-file", args=[t.slug])).content)
    assert next(p["licence"] for p in doc["players"] if p["id"] == e["A"].pk) == "file-A"


def test_the_schema_refuses_a_file_missing_its_ranking():
    doc = {"format": "levee.results/1", "generated_at": "2026-12-05T10:00:00+00:00"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, schema())
