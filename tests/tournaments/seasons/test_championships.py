"""A championship over a small season, computed by hand (tests/tournaments/seasons/builders.py for the marks)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring import championship as pure
from tests.integration.builders import correct_deal
from tournaments.deals.models import Deal
from tournaments.seasons import championships
from tournaments.seasons.models import ChampionshipSnapshot
from tournaments.standings import tasks

from .builders import season_of_three

pytestmark = pytest.mark.django_db


def ranked(snapshot, players):
    names = {p.pk: name for name, p in players.items()}
    return [(line.rank, names[line.player_id], championships.metric(line, "points"))
            for line in snapshot.lines.order_by("position")]


def test_each_publication_of_a_counted_tournament_recomputes_the_championship():
    s = season_of_three()
    # points by rank 10, 6, 4, 2; a shared place gets the mean of the places it holds; best 2, minimum 2
    # T1: Ana 10; Bruno, Chloé, David 2nd shared over places 2–4: (6 + 4 + 2) / 3 = 4 each
    # T2: Bruno 10, Chloé 6, David 4, Émile 2
    # T3: Chloé 10, David 6, Émile 4, Ana 2
    # Ana 10 + 2 = 12; Bruno 4 + 10 = 14; Chloé best of 4, 6, 10 = 16; David best of 4, 4, 6 = 10; Émile 2 + 4 = 6
    latest = championships.latest_snapshot(s["championship"].pk)
    assert ranked(latest, s["players"]) == [(1, "Chloé", 16), (2, "Bruno", 14), (3, "Ana", 12), (4, "David", 10),
                                            (5, "Émile", 6)]
    # one version per publication that changed something: after T1 (nobody has 2 results yet: an empty ranking),
    # after T2 (Bruno, Chloé, David qualified), after T3
    assert list(ChampionshipSnapshot.objects.filter(championship=s["championship"]).order_by("version")
                .values_list("version", flat=True)) == [1, 2, 3]
    first = ChampionshipSnapshot.objects.get(championship=s["championship"], version=1)
    assert first.lines.count() == 0
    # the stored snapshot regenerates from its own inputs
    assert championships.snapshot_ranking(latest).digest == latest.digest


def test_a_corrected_tournament_changes_the_season_ranking():
    s = season_of_three()
    before = championships.latest_snapshot(s["championship"].pk)
    t3 = s["tournaments"][2]
    deal = Deal.objects.get(table__round__tournament=t3)
    correct_deal(deal, [60, -60, 20, -20])  # T3 corrected: Ana 1st, David 2nd, Émile 3rd, Chloé 4th
    tasks.ranking_refresh(t3.pk)
    after = championships.latest_snapshot(s["championship"].pk)
    assert after.version == before.version + 1
    # Ana 10 + 10 = 20; Bruno 14; Chloé best of 4, 6, 2 = 10 (kept T2 6, T1 4: no win); David best of 4, 4, 6 = 10
    # (kept T3 6, T1 4: no win) → level on points and wins: the 3rd rank shared; Émile 6
    assert ranked(after, s["players"]) == [(1, "Ana", 20), (2, "Bruno", 14), (3, "Chloé", 10), (3, "David", 10),
                                           (5, "Émile", 6)]
    moves = championships.snapshot_compare(before, after)
    names = {p.pk: n for n, p in s["players"].items()}
    assert {(names[m.entry], m.old_rank, m.new_rank) for m in moves.moved} == {
        ("Ana", 3, 1), ("Chloé", 1, 3), ("David", 4, 3)}
    why = pure.explain(championships.snapshot_ranking(after), s["players"]["David"].pk, names=names,
                       tournaments={t.pk: t.name for t in s["tournaments"]})
    assert "Rang partagé avec Chloé" in why
    assert "Non retenus : Tournoi T2 (3e, 4 pts)." in why
    # published again with nothing changed: no new version
    tasks.ranking_refresh(t3.pk)
    assert championships.championship_publish(s["championship"].pk) is None


def test_categories_filter_the_same_ranking():
    s = season_of_three()
    snap = championships.snapshot_ranking(championships.latest_snapshot(s["championship"].pk))
    cats = {c.code: c for c in championships.categories(s["championship"], [p.pk for p in s["players"].values()])}
    names = {p.pk: n for n, p in s["players"].items()}
    # Ana born 1 May 2010: 15 at the season's start (1 Sept. 2025) → jeunes; David born 1950 → seniors
    assert [names[p] for p in cats["jeunes"].members] == ["Ana"]
    assert [names[p] for p in cats["seniors"].members] == ["David"]
    # dames from the licence's category: Ana and Chloé → Chloé 1st (16), Ana 2nd (12)
    assert [(ln.rank, names[ln.entry]) for ln in pure.category_lines(snap, cats["dames"].members)] == [
        (1, "Chloé"), (2, "Ana")]
    # séries 2 (Bruno, David) and 3 (Émile)
    assert [(ln.rank, names[ln.entry]) for ln in pure.category_lines(snap, cats["serie-2"].members)] == [
        (1, "Bruno"), (2, "David")]
    assert cats["serie-3"].label == "Série 3"


def test_a_result_shared_gives_the_mean_of_the_places():
    s = season_of_three()
    results, read = championships.championship_results(s["championship"])
    t1 = s["tournaments"][0]
    bruno = next(r for r in results if r.tournament == t1.pk and r.player == s["players"]["Bruno"].pk)
    assert (bruno.rank, bruno.shared, bruno.field, bruno.marks) == (2, 3, 4, -30)
    assert championships.rules_of(s["championship"]).table.worth(bruno) == 4 == Fraction(12, 3)
    assert [v for _t, v in read] and all(v > 0 for _t, v in read)


def test_a_series_written_with_an_accent_and_a_space_gets_an_address_code():
    """The walk: « Série 2 » in the licence file gave the category code « serie-série 2 » (« serie-s%C3%A9rie%202 »
    in the address). Now « serie-2 », one series with a licence written « 2 »."""
    from tournaments.clubs.models import Licence

    s = season_of_three()
    bruno, david = s["players"]["Bruno"], s["players"]["David"]
    Licence.objects.filter(number=bruno.licence).update(category="Série 2")
    Licence.objects.filter(number=david.licence).update(category="2")
    cats = {c.code: c for c in championships.categories(s["championship"], [p.pk for p in s["players"].values()])}
    assert {code for code in cats if code.startswith("serie")} == {"serie-2", "serie-3"}
    assert cats["serie-2"].members == frozenset({bruno.pk, david.pk}) and cats["serie-2"].label == "Série 2"
