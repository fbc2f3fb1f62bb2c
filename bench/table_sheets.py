"""The co-signed sheet's cost in the ranking, on PostgreSQL: the 1,000-player, 10-round Tarot tournament of
bench/ranking.py (12,500 deals, 50,000 score rows), every deal confirmed by its four players.

Measured in one run, medians of 7: the bare ``SUM … GROUP BY entry_id`` (the reference), the ranking
recomputation when unconfirmed deals count (no sheet read: the policy is one ``EXISTS``), and when only confirmed
deals count (the score rows joined to the confirmed sheets). Both rankings must come out equal (every deal is
confirmed). Target: the confirmed-only recompute within 2× the bare aggregate, as the plain one is.

    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/levee_bench_sheets .venv/bin/python bench/table_sheets.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/levee_bench_sheets")

from bench.ranking import ensure_database, generate, median_ms  # noqa: E402 (sets DATABASE_URL first)


def main() -> None:
    ensure_database()
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from tournaments.deals.models import Deal
    from tournaments.links.models import DealSheet, TablePolicy
    from tournaments.standings import rankings

    call_command("migrate", verbosity=0)
    t = generate()
    DealSheet.objects.filter(deal__table__round__tournament=t).delete()
    DealSheet.objects.bulk_create([DealSheet(deal_id=pk, version=v, state="confirmed", confirmed=4)
                                   for pk, v in Deal.objects.filter(table__round__tournament=t)
                                   .values_list("id", "version")], batch_size=5000)
    with connection.cursor() as c:
        c.execute("ANALYZE")

    def bare():
        with connection.cursor() as c:
            c.execute("SELECT entry_id, SUM(points) FROM tournaments_scorerow WHERE tournament_id = %s "
                      "GROUP BY entry_id", [t.pk])
            return c.fetchall()

    def compute():
        return rankings.ranking_compute(tournament=t)

    TablePolicy.objects.filter(tournament=t).delete()
    bare(), compute()
    bare_ms, bare_min = median_ms(bare)
    plain_ms, plain_min = median_ms(compute)
    plain = compute()
    TablePolicy.objects.create(tournament=t, unconfirmed_count=False)
    compute()
    signed_ms, signed_min = median_ms(compute)
    signed = compute()
    same = [(line.entry, line.metric("marks")) for line in plain.individual.lines] == [
        (line.entry, line.metric("marks")) for line in signed.individual.lines]
    ratio_plain, ratio_signed = plain_ms / bare_ms, signed_ms / bare_ms
    print(f"bare SQL SUM … GROUP BY (50,000 rows): median {bare_ms:.1f} ms (min {bare_min:.1f})")
    print(f"recompute, unconfirmed deals count: median {plain_ms:.1f} ms (min {plain_min:.1f}) = {ratio_plain:.2f}×")
    print(f"recompute, confirmed deals only: median {signed_ms:.1f} ms (min {signed_min:.1f}) = {ratio_signed:.2f}× "
          f"[target ≤ 2×: {'OK' if ratio_signed <= 2 else 'MISSED'}]; same ranking: {same}")


if __name__ == "__main__":
    main()
