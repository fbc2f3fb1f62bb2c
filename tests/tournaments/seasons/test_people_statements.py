"""The people of a season's export (``/api/seasons/{id}/export/``) and of a results file's season extension are read
together: the same statements for two people as for five (three a person before, and each tournament's lines again
for each person once more snapshots were read than a process keeps: 10,008 statements for 1,000 people)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.seasons import results_file
from tournaments.standings import rankings

from .builders import season_of_three

pytestmark = pytest.mark.django_db


def _people(players):
    rankings._lines_memo.clear()  # as a fresh process: every snapshot's lines to read
    with CaptureQueriesContext(connection) as statements:
        doc = results_file.people_doc(players)
    return doc, len(statements)


def test_the_peoples_statements_do_not_grow_with_the_people_and_their_histories_are_right():
    players = season_of_three()["players"]
    two, few = _people([players["Ana"], players["Bruno"]])
    five, many = _people(list(players.values()))
    assert few == many
    assert five[:2] == two
    # builders.py: T1 Ana +90 first, Bruno −30 second shared (places 2 – 4); T2 Bruno +60 first; T3 Ana −60 fourth
    history = {doc["name"]: [(t["slug"], t["rank"], t["shared"], t["field"], t["total"]) for t in doc["history"]]
               for doc in five}
    assert history["Ana"] == [("t1", 1, False, 4, 90), ("t3", 4, False, 4, -60)]
    assert history["Bruno"] == [("t1", 2, True, 4, -30), ("t2", 1, False, 4, 60)]
    assert history["Émile"] == [("t2", 4, False, 4, -60), ("t3", 3, False, 4, -20)]
