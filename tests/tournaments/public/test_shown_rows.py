"""The ranking's rows as the pages show them (those who have not played last, ranks counted among those who have,
ties in French order) are computed once per snapshot and language in a process (``queries._shown``), not at every
page rendered: a player's page, a PDF request counting its parts, the CSV … each sorted every name again (≈ 0.7 s at
10,000 players, so a player's page was not « served from the kept render » as the others were). The memo must give
exactly what computing afresh gives, follow a new snapshot, and index every entry's own row."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, downloaded, make_round, make_tournament
from tournaments.public import queries
from tournaments.standings import rankings, tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    """A, B, C, D at one table; Zoé and Élodie registered, never seated. By hand: A takes +90 (B C D −30), then
    C takes +60 (A B D −20): A 70, C 30, B −50, D −50 (B and D tied 3rd, B first in French order).
    Élodie and Zoé have not played: listed last, « — », Élodie before Zoé (É sorts as E)."""
    t, e = make_tournament(["A", "B", "C", "D", "Zoé", "Élodie"], slug="shown")
    (t1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    add_deal(t1, [90, -30, -30, -30], taker=0)
    add_deal(t1, [-20, -20, 60, -20], taker=2)
    tasks.ranking_refresh(t.pk)
    return t, e, t1


def fresh(t, lang):
    """The rows computed afresh, as ``queries.ranking`` did before the memo."""
    status = rankings.ranking_status(t)
    snap = status.snapshot
    cols = queries.COLUMNS.get(snap.kind, tuple(snap.criteria))
    return queries._not_played_last(queries._rows(snap, "entry", cols, lang), lang)


def test_the_kept_rows_are_the_rows_computed_afresh_in_each_language(tournament):
    t, e, _ = tournament
    for lang in ("fr", "en"):
        once, again = queries.ranking(t, lang), queries.ranking(t, lang)
        assert once.rows is again.rows  # kept
        assert once.rows == fresh(t, lang)
        assert [(r.rank, r.name) for r in once.rows] == [(1, "A"), (2, "C"), (3, "B"), (3, "D"), ("—", "Élodie"),
                                                         ("—", "Zoé")]
        assert once.by_entry == {r.entry_id: r for r in once.rows}
        assert once.by_entry[e["D"].pk].shared and once.by_entry[e["Zoé"].pk].rank == "—"


def test_names_are_sorted_once_per_snapshot_not_at_every_page(client, tournament, monkeypatch):
    t, e, _ = tournament
    assert client.get(reverse("public-ranking", args=[t.slug])).status_code == 200  # this snapshot's first page
    calls = []
    real = queries.french_key
    monkeypatch.setattr(queries, "french_key", lambda text: calls.append(text) or real(text))
    for x in "ABCD":  # four player pages, each rendered for the first time
        page = client.get(reverse("public-player", args=[t.slug, e[x].pk]))
        assert page.status_code == 200 and "sur 6" in page.content.decode()
    assert downloaded(client.get, reverse("public-ranking-csv", args=[t.slug])).status_code == 200
    assert calls == []  # before: the six names sorted again for each page


def test_the_player_pages_follow_a_new_snapshot(client, tournament):
    t, e, t1 = tournament
    page = client.get(reverse("public-player", args=[t.slug, e["D"].pk])).content.decode()
    assert "rang 3" in page.lower() or "Rang 3" in page
    add_deal(t1, [-30, -30, -30, 90], taker=3)  # D takes +90: A 40, C 0, B −80, D 40 → A and D 1st tied
    tasks.ranking_refresh(t.pk)
    rk = queries.ranking(t, "fr")
    assert [(r.rank, r.name) for r in rk.rows[:4]] == [(1, "A"), (1, "D"), (3, "C"), (4, "B")]
    assert rk.rows == fresh(t, "fr") and rk.by_entry[e["D"].pk].rank == 1
    page = client.get(reverse("public-player", args=[t.slug, e["D"].pk])).content.decode()
    assert "Rang 1 sur" in page  # the explanation of the new snapshot's line, not the kept one of the old
