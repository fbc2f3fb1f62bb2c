"""The round's page tells the organizer, before he draws, what tables the draw will make (« 11 joueurs : 1 table
de 5, 2 tables de 3. »), or why none can be made and what to do; the draw then makes exactly those tables.

Expected tables from the rule texts and hand arithmetic: Tarot's tables are of 3, 4 or 5, tables of 3 admitted
(RULES.md §1.2, §1.12 rule 35); at « 5 par table » 11 = 5 + 3 + 3 (no 4s and 5s make 11 with a table of 5 but
5 + 3 + 3). Le Vingt-quatre is played at 5 or 4, never fewer (§5 rule 1): 7 = 5 + 2 exempts. A game of two
pairs with one exempt when the count is odd.
"""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tests.integration.builders import make_tournament
from tests.tournaments.factories import UserFactory
from tournaments.event.models import Round

pytestmark = pytest.mark.django_db


def _plan(client, t) -> str:
    page = html.unescape(client.get(reverse("round_detail", args=[t.slug, 1])).content.decode())
    assert 'id="draw-plan"' in page, "no word of the tables before the draw"
    return page.split('id="draw-plan"')[1].split(">", 1)[1].split("</p>")[0]


def _sizes(t) -> list[int]:
    return sorted((tb.seats.count() for tb in Round.objects.get(tournament=t, number=1).tables.all()), reverse=True)


@pytest.mark.parametrize(("game", "options", "n", "said", "sizes"), [
    ("tarot", {"players": 5, "five": "called_king"}, 11, "11 joueurs : 1 table de 5, 2 tables de 3.", [5, 3, 3]),
    ("tarot", {"players": 5, "five": "mort"}, 11, "11 joueurs : 1 table de 5, 2 tables de 3.", [5, 3, 3]),
    ("tarot", {}, 13, "13 joueurs : 2 tables de 4, 1 table de 5.", [5, 4, 4]),
    ("tarot", {}, 14, "14 joueurs : 2 tables de 4, 2 tables de 3.", [4, 4, 3, 3]),
    ("vingt-quatre", {}, 7, "7 joueurs : 1 table de 5, 2 exempts.", [5, 1, 1]),
    ("vingt-quatre", {}, 9, "9 joueurs : 1 table de 5, 1 table de 4.", [5, 4]),
    ("ecarte", {}, 9, "9 joueurs : 4 tables de 2, 1 exempt.", [2, 2, 2, 2, 1]),
])
def test_the_round_page_says_the_tables_before_the_draw(client, game, options, n, said, sizes):
    t, _ = make_tournament([f"Joueur {i:02}" for i in range(n)], game=game, slug=f"plan-{game}-{n}")
    t.options = options
    t.save()
    Round.objects.create(tournament=t, number=1)
    client.force_login(UserFactory(is_superuser=True))
    assert _plan(client, t) == said
    client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "random", "seed": "3"})
    assert _sizes(t) == sizes


def test_a_count_no_table_seats_is_refused_before_the_draw_with_what_to_do(client):
    t, _ = make_tournament(list("ABCDE"), slug="plan-tarot4-5")
    t.options = {"players": 4}
    t.save()
    Round.objects.create(tournament=t, number=1)
    client.force_login(UserFactory(is_superuser=True))
    said = _plan(client, t)
    assert said.startswith("Impossible de placer 5 joueurs à des tables de 3 ou 4 joueurs.")
    assert "inscrivez ou retirez des joueurs (page « Joueurs »)" in said
    response = client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "rotation"}, follow=True)
    assert "inscrivez ou retirez des joueurs" in html.unescape(response.content.decode())
    assert _sizes(t) == []
