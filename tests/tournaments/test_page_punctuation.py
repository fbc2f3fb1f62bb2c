"""Seams the screenshots of the rehearsal showed (issue 20): the day's line of a tournament without a date starts
with its venue, not with « · »; French punctuation before a colon; the ranking's export links written alike."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_days_line_without_a_date_starts_with_the_venue(client, tarot_table, staff):
    tournament = tarot_table.round.tournament
    tournament.date, tournament.start_time, tournament.venue = None, None, "Salle des fêtes"
    tournament.save()
    client.force_login(staff["organizer"])
    page = client.get(reverse("tournament_detail", args=[tournament.slug])).content.decode()
    day = re.search(r'<p class="tournament-day">(.*?)</p>', page, re.S).group(1)
    assert day.strip() == "Salle des fêtes"
    assert "Exports :" in page and "Exports:" not in page


def test_the_rankings_export_links_are_capitalised_alike(client, tarot_table):
    tournament = tarot_table.round.tournament
    page = client.get(reverse("public-ranking", args=[tournament.slug])).content.decode()
    links = re.findall(r"<a [^>]*>([^<]+)</a>", re.search(r'<p class="exports noprint">(.*?)</p>', page, re.S)
                       .group(1))
    assert links and all(text.strip()[0].isupper() for text in links), links
