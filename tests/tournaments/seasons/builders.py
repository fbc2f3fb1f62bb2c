"""A small season built through the real path: three Tarot tournaments of a club, their rankings published by the
standings' task (which calls the ``ranking_published`` port, so the championships are recomputed), one
championship over them.

Marks per tournament (one table of four, one deal each):
* T1 (1 Oct.): Ana, Bruno, Chloé, David: +90, −30, −30, −30 → Ana 1st, the three others 2nd shared (places 2–4)
* T2 (1 Nov.): Bruno, Chloé, David, Émile: +60, +20, −20, −60 → 1st to 4th in that order
* T3 (1 Dec.): Ana, Chloé, David, Émile: −60, +60, +20, −20 → Chloé, David, Émile, Ana
"""

from __future__ import annotations

from datetime import date

from tests.integration.builders import add_deal
from tournaments.clubs.models import Club, Licence
from tournaments.event.models import Entry, Player, Round, Seat, Table, Tournament
from tournaments.seasons.models import Championship, Season
from tournaments.standings import tasks

NAMES = ("Ana", "Bruno", "Chloé", "David", "Émile")
BORN = {"Ana": date(2010, 5, 1), "David": date(1950, 1, 1)}
SERIES = {"Ana": "Dames", "Bruno": "2", "Chloé": "Dames", "David": "2", "Émile": "3"}
TOURNAMENTS = (
    ("t1", date(2025, 10, 1), ("Ana", "Bruno", "Chloé", "David"), (90, -30, -30, -30)),
    ("t2", date(2025, 11, 1), ("Bruno", "Chloé", "David", "Émile"), (60, 20, -20, -60)),
    ("t3", date(2025, 12, 1), ("Ana", "Chloé", "David", "Émile"), (-60, 60, 20, -20)),
)


def tournament(slug: str, day: date, who: tuple[str, ...], marks: tuple[int, ...], players: dict[str, Player],
               club: Club | None, championship: Championship | None = None) -> Tournament:
    t = Tournament.objects.create(name=f"Tournoi {slug.upper()}", slug=slug, game="tarot", status="finished",
                                  is_public=True, date=day, club=club)
    if championship is not None:  # counted before its ranking is published (at once, outside a transaction)
        championship.tournaments.add(t)
    rnd = Round.objects.create(tournament=t, number=1, released=True, status="finished")
    table = Table.objects.create(round=rnd, number=1)
    for position, name in enumerate(who):
        entry = Entry.objects.create(tournament=t, player=players[name])
        Seat.objects.create(table=table, position=position, entry=entry)
    deal = add_deal(table, list(marks), taker=0)
    # the verdict as the deal service stores it (a summary: no tricks): seat 0 took a garde, made when he scored
    result = {"contract": "garde", "taker": 0, "partner": None, "defenders": [1, 2, 3], "made": marks[0] > 0,
              "petit_au_bout": "attack" if marks[0] == 90 else None, "handfuls": [], "chelem": None}
    deal.verdict = {"deals": [{"result": result, "tricks_won": [0, 0, 0, 0]}], "totals": list(marks)}
    deal.save(update_fields=["verdict"])
    return t


def season_of_three(**rules) -> dict:
    club = Club.objects.create(name="Tarot Club de Vanves", slug="vanves", city="Vanves", federation_number="9201")
    players = {}
    for name in NAMES:
        players[name] = Player.objects.create(name=name, club=club.name, licence=f"L-{name}", home_club=club,
                                              birth_date=BORN.get(name))
        Licence.objects.create(number=f"L-{name}", last_name=name, category=SERIES[name], club=club)
    season = Season.objects.create(name="Saison 2025-2026", slug="saison-2025", club=club,
                                   starts_on=date(2025, 9, 1), ends_on=date(2026, 6, 30))
    options = {"table": {"kind": "rank", "points": [10, 6, 4, 2]}, "best": 2, "minimum": 2,
               "tie_breaks": ["wins"], "categories": ["jeunes", "seniors", "dames", "series"], **rules}
    championship = Championship.objects.create(season=season, name="Challenge du club", slug="challenge", **options)
    made = []
    for slug, day, who, marks in TOURNAMENTS:
        made.append(tournament(slug, day, who, marks, players, club, championship))
    for t in made:
        tasks.ranking_refresh(t.pk)  # published: the port recomputes the championship
    return {"club": club, "players": players, "season": season, "championship": championship, "tournaments": made}
