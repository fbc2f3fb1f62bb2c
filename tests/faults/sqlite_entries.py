"""Run by tests/faults/test_sqlite_entries.py in a process of its own: the embedded SQLite file database
(the settings of ``make run``), entries saved at once from several threads, as runserver's threads do.

Prints one JSON line: the errors met and the deal numbers of each table.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "levee.settings"
os.environ["DATABASE_URL"] = f"sqlite:///{sys.argv[1]}"
os.environ.pop("CELERY_BROKER_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402

from tests.tournaments.factories import TournamentFactory, UserFactory, seated_table, tarot_summary  # noqa: E402
from tournaments.deals import selectors  # noqa: E402
from tournaments.deals.record import deal_record  # noqa: E402

call_command("migrate", verbosity=0)
tournament = TournamentFactory(game="tarot", options={"players": 4})
tables = [seated_table(tournament, number=n) for n in (1, 2)]
user = UserFactory(username="arbitre")
from tournaments.event.models import TournamentRole  # noqa: E402

TournamentRole.objects.create(tournament=tournament, user=user, role="chief_arbiter")
connections.close_all()

THREADS, EACH = 6, 4
barrier = threading.Barrier(THREADS)
errors: list[str] = []
replays: list[bool] = []


def worker(i: int) -> None:
    table_id = tables[i % 2].pk
    try:
        barrier.wait()
        for j in range(EACH):
            # threads 0 and 2 (table 1) send the same deals with the same keys: a double tap on « Enregistrer »
            key = f"tap-{j}" if i in (0, 2) else f"t{i}-{j}"
            deal = deal_record(table=selectors.table_for_entry(table_id), record=tarot_summary(points=41 + j),
                                        user=user, idempotency_key=key)
            replays.append(deal.idempotent_replay)
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        connections.close_all()


threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
for t in threads:
    t.start()
for t in threads:
    t.join()

from tournaments.deals.models import Deal  # noqa: E402

numbers = {str(t.number): sorted(Deal.objects.filter(table=t).values_list("number", flat=True)) for t in tables}
print(json.dumps({"errors": errors, "numbers": numbers, "replays": sum(replays)}))
