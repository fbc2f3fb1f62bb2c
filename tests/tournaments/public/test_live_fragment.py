"""« ma place »'s live fragment (htmx, ``?me=``) spliced from bytes kept for every reader: the same HTML as the
template renders for that reader, its gzip copy one valid member, no template rendered per reader, nothing stale
after a deal or a publication, and what a player made anonymous is no longer kept."""

from __future__ import annotations

import gzip
import zlib

import pytest
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.public import fragment, lines, pages, published
from tournaments.standings import tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    """8 players. By hand: T1 (A,B,C,D): A takes +90, B C D −30; C takes +60, A B D −20 → A 70, B −50, C 30,
    D −50. T2 (E,F,G,H): E takes +60, F G H −20; G takes and loses −30, E F H +10 → E 70, F −10, G −50, H −10.
    Ranks (no tie-break): A E 1=, C 3, F H 4=, B D G 6=."""
    t, e = make_tournament("ABCDEFGH", slug="live")
    t1, t2 = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    add_deal(t1, [90, -30, -30, -30], taker=0)
    add_deal(t1, [-20, -20, 60, -20], taker=2)
    add_deal(t2, [60, -20, -20, -20], taker=0)
    add_deal(t2, [10, 10, -30, 10], taker=2)
    tasks.ranking_refresh(t.pk)
    return t, e


def _template_render(slug: str, lang: str, *, page: int = 1, me: int, every: int = 10) -> str:
    """The fragment as the template renders it for this reader (the path every other page takes)."""
    state = published.read(slug)
    return pages.ranking_page(state, lang, page=page, me=me, every=every, fragment=True)[2]()


def test_pieces_compressed_apart_make_one_valid_gzip_member():
    texts = [b"<div>", b"", "café ".encode() * 500, b"</div>"]
    pieces = [(text, fragment.deflated(text)) for text in texts]
    joined = fragment.gzip_joined(pieces)
    # wbits 31: exactly one gzip member, its CRC-32 and length checked
    assert zlib.decompress(joined, 31) == b"<div>" + b"caf\xc3\xa9 " * 500 + b"</div>"
    assert gzip.decompress(joined) == b"".join(texts)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_spliced_fragment_is_what_the_template_renders_for_each_reader(client, tournament, monkeypatch, lang):
    monkeypatch.setattr(lines, "PAGE_SIZE", 3)  # 8 lines in 3 pages: A E C | F H B | D G
    t, e = tournament
    client.cookies["django_language"] = lang
    url = reverse("public-ranking", args=[t.slug])
    for page, who in ((1, "G"), (1, "A"), (3, "G"), (2, "F"), (2, "A"), (5, "D")):
        me = e[who].pk
        got = client.get(f"{url}?page={page}&me={me}", HTTP_HX_REQUEST="true")
        assert got.status_code == 200
        assert got.content.decode() == _template_render(t.slug, lang, page=page, me=me), (page, who)
    # G (rank 6=) on the top page: his section, with the link to his page (page 3); not marked among the rows
    top = client.get(f"{url}?me={e['G'].pk}", HTTP_HX_REQUEST="true").content.decode()
    box = top.split('id="me"', 1)[1].split("</section>", 1)[0]
    assert ">G</a>" in box and f"page=3&amp;me={e['G'].pk}#e{e['G'].pk}" in box
    assert "aria-current" not in top
    assert f"me={e['G'].pk}&amp;every=10&amp;since=" in top.split(">", 1)[0]
    # on his own page: his row marked, no link
    own = client.get(f"{url}?page=3&me={e['G'].pk}", HTTP_HX_REQUEST="true").content.decode()
    assert f'<tr aria-current="true" data-entry="{e["G"].pk}"' in own
    assert "page=3&amp;me=" not in own.split('id="me"', 1)[1].split("</section>", 1)[0]


def test_a_reader_not_in_the_ranking_gets_the_page_without_a_section(client, tournament):
    t, _ = tournament
    url = reverse("public-ranking", args=[t.slug])
    got = client.get(f"{url}?me=987654", HTTP_HX_REQUEST="true").content.decode()
    assert got == _template_render(t.slug, "fr", me=987654)
    assert 'id="me"' not in got and "me=987654&amp;every=10" in got


def test_the_gzip_copy_is_the_same_fragment(client, tournament):
    t, e = tournament
    url = reverse("public-ranking", args=[t.slug]) + f"?me={e['B'].pk}"
    plain = client.get(url, HTTP_HX_REQUEST="true").content
    packed = client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip"
    assert zlib.decompress(packed.content, 31) == plain


def test_no_template_is_rendered_for_a_new_reader(client, tournament):
    """Before: every reader's first fragment after a publication rendered the template (50 rows and his line) in
    each web process, and kept a copy for him alone."""
    t, e = tournament
    url = reverse("public-ranking", args=[t.slug])
    first = client.get(f"{url}?me={e['A'].pk}", HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    for who in "BCDEFGH":
        later = client.get(f"{url}?me={e[who].pk}", HTTP_HX_REQUEST="true")
        assert later.status_code == 200 and later.templates == [], who


def test_a_deal_and_a_publication_show_at_once_in_my_place(client, tournament):
    t, e = tournament
    url = reverse("public-ranking", args=[t.slug])
    html = client.get(f"{url}?me={e['B'].pk}", HTTP_HX_REQUEST="true").content.decode()
    poll = html.split('hx-get="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert client.get(poll, HTTP_HX_REQUEST="true").status_code == 204
    t1 = t.rounds.get(number=1).tables.get(number=1)
    add_deal(t1, [-30, 90, -30, -30], taker=1)  # B: −50 + 90 = 40
    stale = client.get(poll, HTTP_HX_REQUEST="true")
    assert stale.status_code == 200 and 'data-up-to-date="no"' in stale.content.decode()
    tasks.ranking_refresh(t.pk)
    fresh = client.get(poll, HTTP_HX_REQUEST="true").content.decode()
    box = fresh.split('id="me"', 1)[1].split("</section>", 1)[0]
    assert 'data-up-to-date="yes"' in fresh and ">B</a>" in box and "<td>40</td>" in box


def test_a_conditional_request_is_a_304(client, tournament):
    t, e = tournament
    url = reverse("public-ranking", args=[t.slug]) + f"?me={e['C'].pk}"
    first = client.get(url, HTTP_HX_REQUEST="true")
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content and again["ETag"] == first["ETag"]


def test_the_kept_skeletons_are_dropped_with_the_tournaments_pages(client, tournament):
    t, e = tournament
    client.get(reverse("public-ranking", args=[t.slug]) + f"?me={e['C'].pk}", HTTP_HX_REQUEST="true")
    assert published.forget_kept([f"levee:public:{t.pk}:"]) >= 1
    assert fragment.forget([f"levee:public:{t.pk}:"]) == 0
