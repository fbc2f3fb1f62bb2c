"""The public pages rendered once per published state: the same sentences as before, ETag and Last-Modified, 304
for a conditional request without reading a score row, 204 for the polling fragment while nothing changed, the
ranking in pages with the reader's own line and a name search, gzip."""

from __future__ import annotations

import gzip

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.public import lines
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db

SHARED = " ; au Tarot, les égalités sont partagées."


@pytest.fixture
def tournament():
    """8 players, best single deal declared as the tie-break. By hand:
    T1 (A,B,C,D): A takes +90, B C D −30; C takes +60, A B D −20 → A 70 (best 90), B −50, C 30, D −50 (best −20).
    T2 (E,F,G,H): E takes +60, F G H −20; G takes and loses −30, E F H +10 → E 70 (best 60), F −10, G −50, H −10
    (best 10 both; G best −20). Ranks: A 1 (ahead of E on best deal), E 2, C 3, F H 4=, B D G 6=."""
    t, e = make_tournament("ABCDEFGH", slug="cache", tie_breaks=["best_deal"])
    t1, t2 = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    add_deal(t1, [90, -30, -30, -30], taker=0)
    add_deal(t1, [-20, -20, 60, -20], taker=2)
    add_deal(t2, [60, -20, -20, -20], taker=0)
    add_deal(t2, [10, 10, -30, 10], taker=2)
    tasks.ranking_refresh(t.pk)
    return t, e


def test_the_ranking_page_says_the_hand_computed_sentences(client, tournament):
    t, _ = tournament
    html = client.get(reverse("public-ranking", args=[t.slug])).content.decode()
    for sentence in (
        "Rang 1 sur 8 : 70 points au total. À égalité de points au total avec E. "
        "Devant E (rang 2) au départage « meilleure donne » : 90 contre 60.",
        "Rang 2 sur 8 : 70 points au total. À égalité de points au total avec A. "
        "Derrière A (rang 1) au départage « meilleure donne » : 60 contre 90.",
        "Rang 3 sur 8 : 30 points au total. Décidé par les points au total seuls.",
        "Rang 4 sur 8 : -10 points au total. À égalité de points au total avec H. Rang partagé avec H : égalité "
        "de points au total et à chaque départage annoncé (meilleure donne)" + SHARED,
        "Rang 6 sur 8 : -50 points au total. À égalité de points au total avec D, G. Rang partagé avec D, G : "
        "égalité de points au total et à chaque départage annoncé (meilleure donne)" + SHARED,
    ):
        assert sentence in html, sentence
    names = [html.index(f">{x}</a>") for x in "AECFHBDG"]
    assert names == sorted(names)


def test_conditional_request_is_a_304_without_reading_a_score_row(client, tournament):
    t, e = tournament
    for url in (reverse("public-ranking", args=[t.slug]), reverse("public-player", args=[t.slug, e["B"].pk]),
                reverse("public-screen", args=[t.slug]), reverse("public-home", args=[t.slug])):
        first = client.get(url)
        assert first.status_code == 200
        etag, modified = first["ETag"], first["Last-Modified"]
        assert etag.startswith('"' + t.ranking_snapshots.get().digest[:16])
        with CaptureQueriesContext(connection) as queries:
            again = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304 and again["ETag"] == etag and not again.content
        assert len(queries) == 1, [q["sql"] for q in queries]
        assert "scorerow" not in queries[0]["sql"] and "lines" not in queries[0]["sql"]  # nor the ranking's lines
        assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
        assert client.get(url, HTTP_IF_NONE_MATCH='"something-else"').status_code == 200


def test_a_second_request_is_served_without_rendering_again(client, tournament):
    t, _ = tournament
    url = reverse("public-ranking", args=[t.slug])
    first = client.get(url).content
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    assert again.content == first and len(queries) == 1


def test_the_polling_fragment_is_a_204_until_the_ranking_changes(client, tournament):
    t, _ = tournament
    url = reverse("public-ranking", args=[t.slug])
    html = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert html.startswith('<div id="ranking"')
    poll = html.split('hx-get="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert "since=" in poll and "every=10" in poll
    with CaptureQueriesContext(connection) as queries:
        assert client.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    assert len(queries) == 1
    # a deal entered: the ranking is no longer up to date (the notice must appear), then published again
    t1 = t.rounds.get(number=1).tables.get(number=1)
    add_deal(t1, [-10, 30, -10, -10], taker=1)  # A 60, B -20, C 20, D -60: E alone first with 70
    stale = client.get(poll, HTTP_HX_REQUEST="true")
    assert stale.status_code == 200 and 'data-up-to-date="no"' in stale.content.decode()
    tasks.ranking_refresh(t.pk)
    fresh = client.get(poll, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-up-to-date="yes"' in fresh
    assert "Rang 1 sur 8 : 70 points au total. Décidé par les points au total seuls." in fresh


def test_the_ranking_in_pages_with_my_place_and_a_name_search(client, tournament, monkeypatch):
    monkeypatch.setattr(lines, "PAGE_SIZE", 3)
    t, e = tournament
    url = reverse("public-ranking", args=[t.slug])
    top = client.get(url).content.decode()
    assert ">A</a>" in top and ">C</a>" in top and ">F</a>" not in top
    assert "Lignes 1 à 3 sur 8" in top and "page=2" in top
    second = client.get(url + "?page=2").content.decode()
    assert ">F</a>" in second and ">B</a>" in second and ">A</a>" not in second
    # « ma place »: G is on page 3; on the top page his line is shown above, with a link to his page
    mine = client.get(url + f"?me={e['G'].pk}").content.decode()
    box = mine.split('id="me"', 1)[1].split("</section>", 1)[0]
    assert ">G</a>" in box and "Rang 6 sur 8" in box and f"page=3&amp;me={e['G'].pk}" in box
    assert ">A</a>" in mine.split('id="me"', 1)[1]  # the top of the ranking follows
    around = client.get(url + f"?page=3&me={e['G'].pk}").content.decode()
    assert f'<tr aria-current="true" data-entry="{e["G"].pk}"' in around
    found = client.get(url + "?q=h").content.decode()
    assert f'href="{url}?me={e["H"].pk}#me"' in found


def test_the_name_search_ignores_accents_case_and_hyphens():
    assert lines.fold("Marie-Hélène  DELACROIX") == "marie helene delacroix"


def test_the_name_search_finds_a_ligature_typed_as_two_letters():
    # « Œdipe Lœwenthal » is found by « oedipe » and « LOEWENTHAL » (a phone's keyboard has no œ), « Lætitia » by
    # « laetitia »
    assert lines.fold("Œdipe Lœwenthal") == "oedipe loewenthal" == lines.fold("Oedipe LOEWENTHAL")
    assert lines.fold("Lætitia") == "laetitia"


def test_pages_are_compressed_for_browsers_that_accept_gzip(client, tournament):
    t, _ = tournament
    url = reverse("public-ranking", args=[t.slug])
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 3


def test_the_player_page_follows_new_deals_even_before_the_ranking(client, tournament):
    t, e = tournament
    url = reverse("public-player", args=[t.slug, e["A"].pk])
    first = client.get(url)
    t1 = t.rounds.get(number=1).tables.get(number=1)
    add_deal(t1, [45, -15, -15, -15], taker=0)  # A 70 + 45 = 115 in his history, the ranking not yet published
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and "115" in again.content.decode()
    assert f"?me={e['A'].pk}#me" in again.content.decode()


def test_a_private_tournament_stays_hidden(client):
    t, _ = make_tournament("ABCD", slug="hidden", public=False)
    for name in ("public-home", "public-ranking", "public-screen", "public-ranking-print"):
        assert client.get(reverse(name, args=[t.slug])).status_code == 404
    assert client.get(reverse("public-ranking", args=["no-such-slug"])).status_code == 404


def test_the_published_state_is_kept_a_moment_in_the_process(client, tournament, settings):
    from tournaments.public import published

    t, _ = tournament
    settings.LEVEE_PUBLIC_STATE_SECONDS = 60
    published._recent.clear()
    try:
        url = reverse("public-ranking", args=[t.slug])
        etag = client.get(url)["ETag"]
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        assert len(queries) == 0
    finally:
        published._recent.clear()
