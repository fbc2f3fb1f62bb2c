"""A player's own page through his link speaks to him (« Mes rangs au fil des tournois », not « Ses rangs »), and
before any round of his is published it says so rather than « Aucune donne enregistrée » while his link's home
lists his deals (a walk, Écarté through a player's link)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournaments.event.models import Round
from tournaments.links import service as links

from .builders import season_of_three

pytestmark = pytest.mark.django_db


def test_his_own_page_says_my_ranks(client):
    s = season_of_three()
    ana = s["players"]["Ana"]
    link = links.link_for_entry(entry=ana.entries.get(tournament=s["tournaments"][0]))
    private = client.get(reverse("player-history-private", args=[link.token])).content.decode()
    assert "Mes rangs au fil des tournois" in private and "Ses rangs" not in private
    public = client.get(reverse("public-player-history", args=[ana.pk])).content.decode()
    assert "Ses rangs au fil des tournois" in public


def test_no_round_published_yet_is_said_so(client):
    s = season_of_three()
    Round.objects.filter(tournament__in=s["tournaments"]).update(released=False)
    ana = s["players"]["Ana"]
    link = links.link_for_entry(entry=ana.entries.get(tournament=s["tournaments"][0]))
    page = client.get(reverse("player-history-private", args=[link.token])).content.decode()
    stats = page.split("Statistiques des donnes")[1]
    assert "Aucune donne publiée pour l’instant." in stats and "Aucune donne enregistrée" not in stats


def test_a_result_is_written_in_its_unit():
    """A walk: the player's page said « Total 2 » (match points, Écarté) where the tournament's page said
    « Total : 3 » (marks): each tournament's result now says its unit."""
    from fractions import Fraction

    from tournaments.event.models import Tournament
    from tournaments.public.seasons import total_text
    from tournaments.seasons.history import Played

    t = Tournament(name="T")
    assert total_text(Played(t, 1, 1, 4, False, 90, "marks")) == "90"
    assert total_text(Played(t, 1, 1, 4, False, 2, "match_points")) == "2 (points de match)"
    assert total_text(Played(t, 1, 1, 4, False, Fraction(250, 3), "score", percent=True)) == "83,33\u00a0%"
    assert total_text(Played(t, 1, None, 0, False, None, "marks")) == "—"


def test_the_tournaments_table_heads_its_column_result(client):
    s = season_of_three()
    page = client.get(reverse("public-player-history", args=[s["players"]["Ana"].pk])).content.decode()
    assert '<th scope="col">Résultat</th>' in page and "<td>90</td>" in page
