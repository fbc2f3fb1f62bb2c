"""La Triomphe by teams, two against two (RULES.md §2.2 rule 3), round 1 published with table 1's match still in play
(two deals, one of them a renonce ruled by the chief): the ranking as the public reads it, its explanations and a
player's own link agree (a phone walk found them contradicting each other).

By hand (``scoring/ranking.py``: a match won 2 match points, lost 0; a match still in play counts nothing yet,
``standings/rankings.py match_results``): table 2's winning side 2 match points each, its losing side 0; table 1's
four players no result. Shown: table 2's winners 1 (tied), its losers 3 (tied); table 1's players « — », listed last,
with the words of a match in play (« La partie de la table 1 est encore en cours » is what the organizer was told
when publishing). The teams alike: the winners' team 1st, the losers' 2nd, the two teams of table 1 « — ».
Before round 1 is published, no rank on a player's link (a walk read « 1er sur 14 (ex aequo) » for everyone)."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.events import deals as gen
from tournaments.deals.models import Deal
from tournaments.event.models import Entry
from tournaments.links import service

pytestmark = [pytest.mark.django_db, pytest.mark.events]

IN_PLAY = "Partie en cours : classé après ceux qui ont un résultat."
TEAMS = ("Les Œillets", "Cœur de Lion", "La Retourne", "Le Talon")


def text(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", fragment))).strip()


def entry_rows(page: str) -> dict[int, tuple[str, str]]:
    """Each entry's row of the public ranking: (its rank cell, its « pourquoi ce rang »)."""
    return {int(pk): (text(rank).replace(" ", ""), text(words)) for pk, rank, words in re.findall(
        r'<tr[^>]*data-entry="(\d+)"><td>(.*?)</td>.*?</summary>(.*?)</details>', page, re.S)}


def team_rows(page: str) -> dict[str, tuple[str, str]]:
    return {text(name): (text(rank), text(words)) for _pk, rank, name, words in re.findall(
        r'<tr data-team="(\d+)"><td>(.*?)</td><td class="l">(.*?)</td>.*?</summary>(.*?)</details>', page, re.S)}


def rank_panel(page: str) -> str | None:
    if 'id="my-rank"' not in page:
        return None
    return text(page.split('id="my-rank"')[1].split(">", 1)[1].split("</p>")[0])


def test_a_match_in_play_at_publication(event):
    ev = event(label="triomphe-in-play", game="triomphe", seed=4500, rounds=2, players_per_table=4, fmt="teams",
               target=5, extra={"partners": "on"})
    entries = ev.register(8)
    url = reverse("teams", args=[ev.slug])
    for k, name in enumerate(TEAMS):
        response = ev.post("organizer", url, {"action": "create", "name": name,
                                              "members": [str(e.pk) for e in entries[2 * k:2 * k + 2]]})
        assert response.status_code == 302, ev.problems(response)
    ev.start()
    r1 = ev.round_create()
    # seated by hand: Les Œillets against Cœur de Lion at table 1, La Retourne against Le Talon at table 2
    ev.seat_by_hand(r1, [[e.pk for e in entries[0:4]], [e.pk for e in entries[4:8]]])
    ev.round_status(r1, "running")
    t1, t2 = r1.tables.order_by("number")
    # table 1: one deal played, then a renonce the chief rules (the offender loses 1 point, RULES.md §2.6 rule 21):
    # two deals, at most 1 + 1 points a side, short of the target of 5 — the match is still in play
    ev.enter(t1, "link")
    deal = ev.enter_irregular(t1, "desk", gen.renonce_fields(ev.rng, ev.head(t1), ev.next_dealer(t1),
                                                             **ev.playing_seats(t1)))
    ev.rule_irregular(deal, "penalty", penalty="triomphe_failed_to_take", reason="Renonce")
    assert Deal.objects.filter(table=t1).count() == 2
    t1.refresh_from_db()
    assert not t1.match_ended
    ev.play_table(t2, vias=("api",))
    t2.refresh_from_db()
    assert t2.match_ended
    seats2 = [s.entry_id for s in t2.seats.order_by("position")]
    winners = {seats2[i] for i in t2.match_winner}
    losers = set(seats2) - winners
    table1 = {s.entry_id for s in t1.seats.all()}
    names = dict(Entry.objects.filter(tournament=ev.tournament).values_list("id", "player__name"))
    links = {pk: service.link_for_entry(entry=Entry.objects.get(pk=pk)).token for pk in names}

    def link_page(pk: int) -> str:
        page = ev.get("anonymous", reverse("player_home", args=[links[pk]]))
        assert page.status_code == 200
        return page.content.decode()

    # nothing published yet (a ranking computed, no round released): no rank on anyone's link
    for pk in names:
        assert rank_panel(link_page(pk)) is None, names[pk]

    # round 1 published with table 1 in play (the organizer confirms it)
    response = ev.post("organizer", reverse("round_release", args=[ev.slug, r1.number]),
                       {"released": "1", "confirm_unfinished": "1"})
    assert response.status_code == 302, ev.problems(response)
    r1.refresh_from_db()
    assert r1.released
    ev.check("round 1 published, table 1 in play")

    page = ev.get("anonymous", reverse("public-ranking", args=[ev.slug])).content.decode()
    rows = entry_rows(page)
    assert set(rows) == set(names)
    for pk in winners:
        assert rows[pk][0] == "1=", (names[pk], rows[pk])
    for pk in losers:
        assert rows[pk][0] == "3=", (names[pk], rows[pk])
    for pk in table1:
        assert rows[pk] == ("—", IN_PLAY), (names[pk], rows[pk])
    for pk in winners | losers:
        words = rows[pk][1]
        (partner,) = (winners if pk in winners else losers) - {pk}
        rank = 1 if pk in winners else 3
        assert words.startswith(f"Rang {rank} sur 8 : {2 if pk in winners else 0} point"), words
        # compared with his partner only: never with a line shown without a rank, never a rank not shown
        assert f"À égalité de points de match avec {names[partner]}." in words, words
        assert not any(names[other] in words for other in table1), words
        assert not re.search(r"rang [^13]", words), words

    teams = team_rows(page)
    assert teams["Les Œillets"] == ("—", IN_PLAY) and teams["Cœur de Lion"] == ("—", IN_PLAY), teams
    team_of = dict(Entry.objects.filter(tournament=ev.tournament).values_list("id", "team__name"))
    (won,) = {team_of[pk] for pk in winners}
    (lost,) = {team_of[pk] for pk in losers}
    assert teams[won][0] == "1" and teams[lost][0] == "2", teams
    assert "Œillets" not in teams[lost][1] and "Cœur" not in teams[lost][1], teams[lost]

    # a player's own link says what the public ranking says for him
    for pk in table1:
        assert rank_panel(link_page(pk)).startswith(f"Classement — · {IN_PLAY}"), names[pk]
    for pk in winners:
        assert rank_panel(link_page(pk)).startswith("Classement 1er sur 8 (ex aequo) · Points de match : 2")
    for pk in losers:
        assert rank_panel(link_page(pk)).startswith("Classement 3e sur 8 (ex aequo) · Points de match : 0")
