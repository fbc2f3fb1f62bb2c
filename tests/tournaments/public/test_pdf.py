"""The PDF print-outs, rendered by WeasyPrint (in a worker, never in the request) and read back with pypdf: names,
scores, page breaks."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from pypdf import PdfReader

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.event.models import Seat, TournamentRole
from tournaments.public import tasks
from tournaments.standings import tasks as standings_tasks

pytestmark = pytest.mark.django_db
LONG = "Marie-Bernadette Delacroix-Montfort"


def pdf_of(client, url: str) -> bytes:
    """The PDF at ``url``: first « en préparation » (202) while its render is queued, then, the worker done, the
    file."""
    waiting = client.get(url)
    assert waiting.status_code == 202 and "en préparation" in waiting.content.decode()
    assert tasks.run_pending() >= 1
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return b"".join(response.streaming_content)


def pages(client, url: str) -> list[str]:
    """The text of each page, without spaces (the extraction splits kerned words: « T ournoi »)."""
    reader = PdfReader(io.BytesIO(pdf_of(client, url)))
    return ["".join(page.extract_text().split()) for page in reader.pages]


def sq(text: str) -> str:
    return "".join(text.split())


@pytest.fixture
def day(client):
    names = ["Karim Benali", "Élodie Martin", LONG, "Bruno Roux", "Anne Petit", "Odile Blanc", "Paul Noir",
             "Zoé Vert"]
    t, e = make_tournament(names, slug="pdf")
    t.deals_per_round = 6
    t.save()
    t1, t2 = make_round(t, 1, [[e[n] for n in names[:4]], [e[n] for n in names[4:]]])
    add_deal(t1, [150, -50, -50, -50], taker=0)      # Karim makes a garde: 150
    add_deal(t1, [-30, -30, 90, -30], taker=2)
    add_deal(t2, [-40, 120, -40, -40], taker=1)      # Odile 120
    Seat.objects.filter(entry=e["Zoé Vert"]).update(substitute="Yann Remplaçant")
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()  # the renders queued at publication: the tests below ask for each PDF
    user = get_user_model().objects.create_user("orga", password="x")
    TournamentRole.objects.create(tournament=t, user=user, role="organizer")
    client.force_login(user)
    return t


def test_the_ranking_pdf(client, day):
    (text,) = pages(client, reverse("print-ranking", args=[day.slug]))
    assert "Classement" in text and sq("Tournoi pdf") in text and sq("page 1 / 1") in text
    # Karim 150 - 30 = 120 and Odile 120 share the first place; the long name 90 - 50 = 40 is third
    assert sq("1= Karim Benali 120 2 150") in text and sq("1= Odile Blanc 120 1 120") in text
    assert sq(f"3 {LONG} 40 2 90") in text


def test_the_round_results_pdf(client, day):
    (text,) = pages(client, reverse("print-round-results", args=[day.slug, 1]))
    assert sq("Résultats de la manche 1") in text and sq("Table 1") in text and sq("Table 2") in text
    assert sq("1 150 -50 -50 -50 2 -30 -30 90 -30 Total 120 -80 40 -80") in text
    assert sq("1 -40 120 -40 -40") in text


def test_the_score_sheets_one_table_a_page_with_the_tarot_columns(client, day):
    sheets = pages(client, reverse("print-score-sheets", args=[day.slug, 1]))
    assert len(sheets) == 2  # one page per table
    assert sq("Manche 1 — table 1") in sheets[0] and sq("Karim Benali") in sheets[0]
    assert sq("Anne Petit") not in sheets[0]
    assert sq("Manche 1 — table 2") in sheets[1] and sq("remplaçant : Yann Remplaçant") in sheets[1]
    for title in ("Preneur", "Contrat", "Bouts", "Points", "Poignées", "Petit au bout", "Chelem"):
        assert sq(title) in sheets[0]
    assert sq("page 2 / 2") in sheets[1]


def test_the_seating_list_by_name_then_by_table(client, day):
    by_name, by_table = pages(client, reverse("print-seating", args=[day.slug, 1]))
    assert by_name.index(sq("Anne Petit")) < by_name.index(sq("Élodie Martin")) < by_name.index(sq("Karim Benali"))
    assert sq("Yann Remplaçant (remplace Zoé Vert) 2") in by_name
    assert sq("placement par table") in by_table and sq("Table 2") in by_table


def test_the_score_sheets_are_for_the_staff(client, day):
    client.logout()
    assert client.get(reverse("print-score-sheets", args=[day.slug, 1])).status_code == 404


def test_a_table_of_the_round_results_is_never_split_from_its_total(client):
    """12 tables of 6 deals: a table's deals and its « Total » are on one page, one « Total » per table (not
    one after deal 1 where a page broke, issue 20)."""
    names = [f"Joueur {i:02d}" for i in range(48)]
    t, e = make_tournament(names, slug="pdf-long")
    t.deals_per_round = 6
    t.save()
    tables = make_round(t, 1, [[e[n] for n in names[4 * k:4 * k + 4]] for k in range(12)])
    for k, table in enumerate(tables):
        for d in range(6):
            s = 10 * (k + 1) + d  # table k's taker scores 3·s, the others -s
            add_deal(table, [3 * s, -s, -s, -s], taker=0)
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()
    user = get_user_model().objects.create_user("orga", password="x")
    TournamentRole.objects.create(tournament=t, user=user, role="organizer")
    client.force_login(user)
    text = pages(client, reverse("print-round-results", args=[t.slug, 1]))
    assert len(text) > 1  # the round takes several pages
    assert sum(p.count("Total") for p in text) == 12
    for k in range(12):
        s = [10 * (k + 1) + d for d in range(6)]
        total = sum(s)  # the taker: 3·(s0 + … + s5); each defender -(s0 + … + s5)
        (heading,) = [i for i, p in enumerate(text) if f"Table{k + 1}" in p.replace(f"Table{k + 1}0", "")
                      .replace(f"Table{k + 1}1", "").replace(f"Table{k + 1}2", "")]
        (footer,) = [i for i, p in enumerate(text) if sq(f"Total {3 * total} {-total} {-total} {-total}") in p]
        first = [i for i, p in enumerate(text) if sq(f"1 {3 * s[0]} {-s[0]} {-s[0]} {-s[0]} 2 {3 * s[1]}") in p]
        assert heading == footer == first[0], (k, heading, footer, first)


def test_the_round_results_pdf_shows_the_marks_that_do_not_count_as_the_web_page_does(client):
    """A deal awaiting the visa, an irregular deal: their marks in brackets (as the web round page shows them, the
    column adding up to the total), an annulled deal « — » (a phone walk: the PDF printed a pending deal's marks
    as points, the total leaving them out)."""
    names = ["Ana", "Bruno", "Chloé", "Denis"]
    t, e = make_tournament(names, slug="pdf-uncounted")
    t.deals_per_round = 4
    t.save()
    (table,) = make_round(t, 1, [[e[n] for n in names]])
    add_deal(table, [150, -50, -50, -50], taker=0)
    add_deal(table, [-104, -104, 312, -104], taker=2, status="pending")
    add_deal(table, [-60, 180, -60, -60], taker=1, status="irregular")
    add_deal(table, [90, -30, -30, -30], taker=0, status="annulled")
    standings_tasks.ranking_refresh(t.pk)
    tasks.forget()
    user = get_user_model().objects.create_user("orga", password="x")
    TournamentRole.objects.create(tournament=t, user=user, role="organizer")
    client.force_login(user)
    (text,) = pages(client, reverse("print-round-results", args=[t.slug, 1]))
    assert sq("1 150 -50 -50 -50") in text
    assert sq("2 (en attente du visa) (-104) (-104) (312) (-104)") in text
    assert sq("3 (irrégulière, non comptée) (-60) (180) (-60) (-60)") in text
    assert sq("4 (annulée) — — — —") in text
    assert sq("Total 150 -50 -50 -50") in text
