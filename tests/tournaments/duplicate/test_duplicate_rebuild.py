"""A duplicate's movement set up again once deals exist (issue 20): the rounds played stay as they are — their
tables, seats, étuis and every recorded deal — and the rounds after them are rebuilt for the players entered now
(a withdrawal, a late arrival, a round added), each player keeping his orientation where the counts allow.
Refused, in words naming the deals, when every round is played or when the étuis a round would change."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import EntryFactory, TournamentFactory, UserFactory, role, tarot_summary
from tournaments.deals.models import Deal
from tournaments.deals.record import deal_record
from tournaments.duplicate.models import DuplicateTable, Etui
from tournaments.duplicate.service import duplicate_create
from tournaments.event.models import Entry, Seat, Table

pytestmark = pytest.mark.django_db

SETUP = {"boards_per_round": 2, "seed": "rebuild", "method": "matchpoints", "score": "mean", "short": "auto",
         "tie_breaks": ""}


@pytest.fixture
def event(client):
    tournament = TournamentFactory(game="tarot", options={"players": 4}, rounds_planned=3)
    for i in range(16):
        EntryFactory(tournament=tournament, player__name=f"Joueur {i:02d}")
    duplicate_create(tournament=tournament, boards_per_round=2, seed="rebuild")
    organizer = UserFactory(username="orga-rebuild")
    role(tournament, organizer, "organizer")
    client.force_login(organizer)
    return tournament


def _seating(tournament, round_no):
    return sorted(Seat.objects.filter(table__round__tournament=tournament, table__round__number=round_no)
                  .values_list("table__number", "position", "entry_id", "table_id"))


def _play(tournament, round_no, table_no):
    table = Table.objects.get(round__tournament=tournament, round__number=round_no, number=table_no)
    return deal_record(table=table, user=UserFactory(), record=tarot_summary(taker=1, points=49, dealer=0))


def test_a_withdrawal_after_round_one_rebuilds_rounds_two_and_three_only(client, event):
    deal = _play(event, 1, 1)
    round_one = _seating(event, 1)
    etuis_one = list(Etui.objects.filter(tournament=event, round_number=1).values_list("number", "fingerprint"))
    orientation = {entry: position for _, position, entry, _ in round_one}
    gone = Entry.objects.filter(tournament=event).order_by("id")[5]
    gone.withdrawn = True
    gone.save()
    response = client.post(f"/t/{event.slug}/duplicate/", SETUP, follow=True)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Manches 2 à 3 refaites" in page and "gardées avec leurs donnes (1)" in page, page
    # round 1 untouched: the same tables (same rows), seats, étuis and the deal
    assert _seating(event, 1) == round_one
    assert list(Etui.objects.filter(tournament=event, round_number=1).values_list("number", "fingerprint")) == etuis_one
    assert Deal.objects.get(pk=deal.pk).table.round.number == 1
    # rounds 2 and 3: the 15 players still in, each once; 15 = 3 tables of 4 + one of 3 (short « auto »)
    active = set(Entry.objects.filter(tournament=event, withdrawn=False).values_list("id", flat=True))
    for r in (2, 3):
        seats = _seating(event, r)
        assert sorted(e for _, _, e, _ in seats) == sorted(active)
        sizes = sorted(Table.objects.get(pk=t).seats.count() for t in {t for *_, t in seats})
        assert sizes == [3, 4, 4, 4]
        assert DuplicateTable.objects.filter(table__round__number=r, table__round__tournament=event).count() == 4
        # at the tables of 4 each player keeps the orientation he had, as far as 15 = 4 + 4 + 4 + 3 allows:
        # one orientation loses its withdrawn player and the tables of 3 take 3 players: at most 4 move
        fours = {t for t in {t for *_, t in seats} if Table.objects.get(pk=t).seats.count() == 4}
        kept = sum(orientation[e] == p for _, p, e, t in seats if t in fours)
        assert kept >= 12 - 4, kept
    # the étuis of round 2 exist once each, for 4 and for 3 players
    assert Etui.objects.filter(tournament=event, round_number=2, players=4).count() == 2
    assert Etui.objects.filter(tournament=event, round_number=2, players=3).count() == 2


def test_the_etuis_a_round_cannot_change_once_played(client, event):
    _play(event, 1, 2)
    before = _seating(event, 2)
    page = client.post(f"/t/{event.slug}/duplicate/", SETUP | {"boards_per_round": 3}).content.decode()
    assert "la manche 1 est jouée avec 2 étuis" in page or "manches 1 à 1" in page or "2 étuis par manche" in page
    assert _seating(event, 2) == before


def test_every_round_played_is_refused_naming_the_deals(client, event):
    for r in (1, 2, 3):
        _play(event, r, 1)
    _play(event, 3, 2)
    before = [_seating(event, r) for r in (1, 2, 3)]
    page = client.get(f"/t/{event.slug}/duplicate/").content.decode()
    assert "4 donnes" in page and "Refaire les manches" not in page and "btn-primary\" type=\"submit\"" not in page
    response = client.post(f"/t/{event.slug}/duplicate/", SETUP)
    text = response.content.decode()
    assert response.status_code == 200 and "4 donnes" in text and "Ajoutez une manche" in text
    assert [_seating(event, r) for r in (1, 2, 3)] == before
    assert Deal.objects.filter(table__round__tournament=event).count() == 4


def test_a_round_added_after_play_is_built(client, event):
    _play(event, 1, 1)
    event.rounds_planned = 4
    event.save()
    response = client.post(f"/t/{event.slug}/duplicate/", SETUP)
    assert response.status_code == 302
    assert event.rounds.count() == 4
    assert sorted(Etui.objects.filter(tournament=event).values_list("number", flat=True)) == list(range(1, 9))
