"""A published line whose entry was deleted since (a no-show struck off the list after the publication): the lines are
a document of the snapshot now, so nothing cascades it away; every reader leaves it out, none breaks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.api.ranking import snapshot_json
from tournaments.event.models import Entry
from tournaments.public import queries
from tournaments.seasons import history
from tournaments.standings import rankings, tasks
from tournaments.standings.results_file import results_file

pytestmark = pytest.mark.django_db


def test_a_line_whose_entry_was_deleted_is_left_out_by_every_reader(client):
    # A takes +90, B C D −30; E registered, never seated: 0 marks, listed (last, with no deal)
    t, e = make_tournament(["Ana", "Bruno", "Chloé", "David", "Zoé Absente"], slug="raye")
    (table,) = make_round(t, 1, [[e["Ana"], e["Bruno"], e["Chloé"], e["David"]]])
    add_deal(table, [90, -30, -30, -30], taker=0)
    tasks.ranking_refresh(t.pk)
    snap = rankings.latest_snapshot(t.pk)
    gone = e["Zoé Absente"].pk
    assert rankings.snapshot_line(snap, gone) is not None
    Entry.objects.filter(pk=gone).delete()  # struck off; no publication since

    assert rankings.snapshot_line(snap, gone) is not None  # the document keeps it …
    names = [row.name for row in queries.ranking(t).rows]  # … the readers do not
    assert names == ["Ana", "Bruno", "Chloé", "David"]
    assert [(ln["rank"], ln["name"]) for ln in snapshot_json(t, snap, 0)["lines"]] == [
        (1, "Ana"), (3, "Bruno"), (3, "Chloé"), (3, "David")]  # Zoé was 2nd with 0 marks
    assert [ln["player"] for ln in results_file(t)["ranking"]["lines"]] == [
        e[n].pk for n in ("Ana", "Bruno", "Chloé", "David")]
    (played,) = history.tournaments_played(e["Ana"].player)
    assert (played.rank, played.total, played.field) == (1, 90, 5)  # the field as published
    page = client.get(reverse("public-ranking", args=[t.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ana" in text and "Zoé Absente" not in text
