"""The public pages in French (the default) and in English: labels from the catalogues, rank explanations
from scoring.ranking in the page's language, names instead of ids."""

from __future__ import annotations

import html

import pytest
from django.conf import settings
from django.urls import reverse

from tests.integration.builders import add_deal, end_match, make_round, make_tournament
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    t, e = make_tournament("ABCD", slug="i18n", tie_breaks=["best_deal"])
    (t1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    add_deal(t1, [60, -20, -20, -20], taker=0)     # A 60 (best 60)
    add_deal(t1, [-30, 90, -30, -30], taker=1)     # B 90 (best 90): A 30, B 70, C −50, D −50
    tasks.ranking_refresh(t.pk)
    return t, e


def get(client, url, lang):
    """The page in ``lang`` as the language switcher leaves it (a cookie: pages ignore Accept-Language)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.get(url).content.decode()


@pytest.mark.parametrize("name", ["public-home", "public-ranking", "public-screen", "public-ranking-print",
                                  "public-results-print"])
def test_every_public_page_in_both_languages(client, tournament, name):
    t, _ = tournament
    url = reverse(name, args=[t.slug])
    fr, en = get(client, url, "fr"), get(client, url, "en")
    assert 'lang="fr"' in fr and 'lang="en"' in en
    assert fr != en


def test_ranking_labels_and_explanations(client, tournament):
    t, _ = tournament
    url = reverse("public-ranking", args=[t.slug])
    fr = get(client, url, "fr")
    # C and D: −50 each, best deal −20 both → shared 3rd, every declared tie-break equal
    assert "<th>Rang</th>" in fr and "Meilleure donne" in fr and "pourquoi ?" in fr and "À jour" in fr
    assert ("Rang 3 sur 4 : -50 points au total. À égalité de points au total avec D. Rang partagé avec D : "
            "égalité de points au total et à chaque départage annoncé (meilleure donne)") in fr
    en = get(client, url, "en")
    assert "<th>Rank</th>" in en and "Best deal" in en and "why?" in en and "Up to date" in en
    assert ("Rank 3 of 4: -50 total marks. Level on total marks with D. Rank shared with D: equal on total marks "
            "and on every declared tie-break (best single deal)") in en


def test_player_and_round_pages(client, tournament):
    t, e = tournament
    fr = get(client, reverse("public-player", args=[t.slug, e["A"].pk]), "fr")
    en = get(client, reverse("public-player", args=[t.slug, e["A"].pk]), "en")
    # « de » elided before the vowel (tournaments.common.elision)
    assert "Donne après donne" in fr and "Total cumulé d'A" in html.unescape(fr) and "rang 2" in fr
    assert "Deal after deal" in en and "Running total of A" in en and "rank 2" in en
    fr = get(client, reverse("public-round", args=[t.slug, 1]), "fr")
    en = get(client, reverse("public-round", args=[t.slug, 1]), "en")
    assert "<h1>Manche 1</h1>" in fr and "Donne" in fr
    assert "<h1>Round 1</h1>" in en and ">Deal<" in en


def test_language_switch_on_public_pages(tournament):
    """The public pages are the same bytes for every reader: their switcher posts without a CSRF token."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    t, _ = tournament
    html = get(client, reverse("public-ranking", args=[t.slug]), "fr")
    assert f'action="{reverse("public-language")}"' in html and 'value="en"' in html
    assert "csrfmiddlewaretoken" not in html
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    response = client.post(reverse("public-language"), {"language": "en",
                                                         "next": reverse("public-ranking", args=[t.slug])})
    assert response.status_code == 302
    assert "<th>Rank</th>" in client.get(reverse("public-ranking", args=[t.slug])).content.decode()


def test_forfeit_shown_with_the_round_results(client):
    from tournaments.deals.forfeits import forfeit_record

    t, e = make_tournament("PQ", game="ecarte", slug="i18nff")
    (a,) = make_round(t, 1, [[e["P"], e["Q"]]])
    end_match(a, [1, 0], None)
    forfeit_record(table=a, kind="forfeit", absent=[e["P"].pk], user=None)
    tasks.ranking_refresh(t.pk)
    fr = get(client, reverse("public-round", args=[t.slug, 1]), "fr")
    en = get(client, reverse("public-round", args=[t.slug, 1]), "en")
    assert "Forfait : P" in fr and "gagnant : Q" in fr
    assert "Forfeit: P" in en and "winner: Q" in en


def test_a_match_in_play_says_so_on_the_round_page(client):
    """Le Vingt-quatre's « Partie 1 1 1 1 0 » read like a result while the match went on: « Partie (en cours) »
    until it ends, then the winner."""
    from tournaments.common import hooks
    from tournaments.event.models import Table

    t, e = make_tournament("PQ", game="ecarte", slug="i18nplay")
    (a,) = make_round(t, 1, [[e["P"], e["Q"]]])
    add_deal(a, [2, 0])
    add_deal(a, [0, 1])
    Table.objects.filter(pk=a.pk).update(match_totals=[2, 1], match_ended=False)
    hooks.scores_changed(t.pk)  # what the deal service does
    tasks.ranking_refresh(t.pk)
    fr = get(client, reverse("public-round", args=[t.slug, 1]), "fr")
    en = get(client, reverse("public-round", args=[t.slug, 1]), "en")
    assert "Partie <span class=\"status\">(en cours)</span>" in fr
    assert "Match <span class=\"status\">(in progress)</span>" in en
    end_match(a, [5, 1], 0)
    tasks.ranking_refresh(t.pk)
    fr = get(client, reverse("public-round", args=[t.slug, 1]), "fr")
    assert "(en cours)" not in fr and "gagnant : P" in fr
