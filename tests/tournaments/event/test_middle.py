"""The messy middle: late arrivals, leavers, replacements, a table one short, swaps by name, clubs apart."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.integration.builders import add_deal, make_round, make_tournament
from tournaments.common.errors import ServiceError
from tournaments.event import middle
from tournaments.event.models import Entry, Player, Round, Seat, TournamentRole
from tournaments.standings import draw as seating_service
from tournaments.standings import rankings

pytestmark = pytest.mark.django_db


def seated(rnd: Round) -> list[list[str]]:
    return [[s.entry.player.name for s in t.seats.order_by("position").select_related("entry__player")]
            for t in rnd.tables.order_by("number")]


def totals(t) -> dict[str, int]:
    computed = rankings.ranking_compute(tournament=t, rounds="all")
    names = dict(Entry.objects.filter(tournament=t).values_list("id", "player__name"))
    return {names[line.entry]: line.metric("marks") for line in computed.individual.lines}


def test_a_late_arrival_is_drawn_from_his_round_on():
    t, _ = make_tournament("ABCDEFGH", slug="late")
    t.rounds_planned = 3
    t.save()
    middle.late_arrival(tournament=t, name="  Zoé   Late ", from_round=2)
    r1 = Round.objects.create(tournament=t, number=1)
    seating_service.round_draw(round=r1, method="rotation")
    assert "Zoé Late" not in {n for x in seated(r1) for n in x}
    r2 = Round.objects.create(tournament=t, number=2)
    seating_service.round_draw(round=r2, method="rotation")
    assert "Zoé Late" in {n for x in seated(r2) for n in x}
    assert sorted(len(x) for x in seated(r2)) == [4, 5]  # 9 = 4 + 5


def test_the_round_of_arrival_is_checked():
    t, _ = make_tournament("ABCD", slug="late2")
    with pytest.raises(ServiceError) as exc:
        middle.late_arrival(tournament=t, name="Zoé", from_round=5)
    assert exc.value.field == "from_round"
    with pytest.raises(ServiceError) as exc:
        middle.late_arrival(tournament=t, name="   ", from_round=1)
    assert exc.value.field == "name"


def test_a_leaver_keeps_his_deals_and_leaves_the_next_round_short():
    t, e = make_tournament("ABCDEFGH", slug="leave")
    t1, _t2 = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    add_deal(t1, [60, -20, -20, -20], taker=0)
    # round 2 already drawn by hand (not started): A sits at table 1 with E, F, G
    make_round(t, 2, [[e[x] for x in "AEFG"], [e[x] for x in "BCDH"]], released=False)
    short = middle.player_leaves(entry=e["A"])
    assert [(tb.round.number, tb.number) for tb in short] == [(2, 1)]
    r2 = t.rounds.get(number=2)
    assert seated(r2) == [["E", "F", "G"], ["B", "C", "D", "H"]]  # a table of 3, seats moved up
    assert totals(t)["A"] == 60  # his past deal stays
    r3 = Round.objects.create(tournament=t, number=3)
    seating_service.round_draw(round=r3, method="rotation")
    assert "A" not in {n for x in seated(r3) for n in x}


def test_a_table_of_three_cannot_go_down_to_two():
    t, e = make_tournament("ABCDEFGHIJ", slug="three")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFG"], [e[x] for x in "HIJ"]], released=False)
    seat = Seat.objects.get(entry=e["E"])
    with pytest.raises(ServiceError) as exc:
        middle.seat_remove(seat=seat)
    assert exc.value.code == "table_too_small"
    assert Seat.objects.filter(entry=e["E"]).exists()


def test_no_seat_change_once_a_deal_is_entered():
    t, e = make_tournament("ABCD", slug="locked")
    (t1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    add_deal(t1, [30, -10, -10, -10], taker=0)
    with pytest.raises(ServiceError) as exc:
        middle.seat_remove(seat=Seat.objects.get(entry=e["D"]))
    assert exc.value.code == "table_started"
    with pytest.raises(ServiceError):
        middle.seat_replace(seat=Seat.objects.get(entry=e["D"]), name="Sub", rest_of_event=True)


def test_a_replacement_for_one_round_plays_for_the_player_replaced():
    t, e = make_tournament("ABCD", slug="sub1")
    (t1,) = make_round(t, 1, [[e[x] for x in "ABCD"]])
    seat = middle.seat_replace(seat=Seat.objects.get(entry=e["B"]), name="Remplaçant Un")
    assert seat.substitute == "Remplaçant Un" and seat.entry_id == e["B"].pk
    add_deal(t1, [-30, 90, -30, -30], taker=1)
    assert totals(t)["B"] == 90  # decided in advance: his marks count for B (docs/ranking.md)
    assert not Player.objects.filter(name="Remplaçant Un").exists()  # not a ranked entry


def test_a_replacement_for_the_rest_of_the_event_is_ranked_apart():
    t, e = make_tournament("ABCDEFGH", slug="subrest")
    (t1, _) = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    add_deal(t1, [-30, 90, -30, -30], taker=1)  # B earns 90 in round 1
    tables2 = make_round(t, 2, [[e[x] for x in "ABEF"], [e[x] for x in "CDGH"]], released=False)
    make_round(t, 3, [[e[x] for x in "ABGH"], [e[x] for x in "CDEF"]], released=False)
    middle.seat_replace(seat=Seat.objects.get(entry=e["B"], table=tables2[0]), name="Yves Remplace",
                        rest_of_event=True)
    new = Entry.objects.get(player__name="Yves Remplace")
    e["B"].refresh_from_db()
    assert e["B"].withdrawn and new.replaces_id == e["B"].pk and new.from_round == 2
    assert seated(t.rounds.get(number=2))[0] == ["A", "Yves Remplace", "E", "F"]
    assert seated(t.rounds.get(number=3))[0] == ["A", "Yves Remplace", "G", "H"]  # later rounds follow
    add_deal(tables2[0], [-10, 30, -10, -10], taker=1)
    ranked = totals(t)
    assert ranked["B"] == 90 and ranked["Yves Remplace"] == 30


def test_clubs_apart_in_the_first_round_when_asked():
    t, e = make_tournament([f"P{i}" for i in range(12)], slug="clubs")
    t.separate_clubs = True
    t.save()
    for i, entry in enumerate(e.values()):
        entry.player.club = ["Lyon", "Paris", "Nice", ""][i % 4] if i < 9 else ""
        entry.player.save()
    for seed in range(3):
        rnd, _ = Round.objects.get_or_create(tournament=t, number=1)
        seating_service.round_draw(round=rnd, method="random", seed=seed)
        for table in rnd.tables.all():
            clubs = [s.entry.player.club for s in table.seats.all() if s.entry.player.club]
            assert len(clubs) == len(set(clubs)), clubs


@pytest.fixture
def organizer(client):
    user = get_user_model().objects.create_user("orga", password="x")
    client.force_login(user)
    return user


def test_the_changes_page_swaps_two_players_by_name(client, organizer):
    t, e = make_tournament(["Élodie Martin", "Karim B", "C", "D", "E", "F", "G", "H"], slug="swp")
    TournamentRole.objects.create(tournament=t, user=organizer, role="organizer")
    make_round(t, 1, [[e[x] for x in ["Élodie Martin", "Karim B", "C", "D"]], [e[x] for x in "EFGH"]],
               released=False)
    url = reverse("round_changes", args=[t.slug, 1])
    page = client.get(url).content.decode()
    assert "Élodie Martin — table 1" in page and page.index("Élodie Martin — table 1") < page.index("Karim B — table 1")
    assert 'type="number"' not in page  # nobody types a number
    response = client.post(url, {"action": "swap", "a": e["Élodie Martin"].pk, "b": e["E"].pk}, follow=True)
    assert "Élodie Martin et E ont changé de place." in response.content.decode()
    assert seated(t.rounds.get(number=1)) == [["E", "Karim B", "C", "D"], ["Élodie Martin", "F", "G", "H"]]


def test_a_table_one_short_is_offered_in_the_game_s_own_sizes(client, organizer):
    """Tarot: « une table de 4 joue alors à 3 »; L'Écarté (a game of two): no table one short at all (a walk read the
    Tarot's words and « Retirer ce joueur de sa table » on an Écarté round)."""
    t, e = make_tournament(list("ABCDEFGH"), slug="short-tarot")
    TournamentRole.objects.create(tournament=t, user=organizer, role="organizer")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]], released=False)
    page = client.get(reverse("round_changes", args=[t.slug, 1])).content.decode()
    assert 'id="short"' in page and "Absent ou parti : une table de 4 joue alors à 3" in page and "Au Tarot" not in page
    t2, e2 = make_tournament(list("ABCD"), game="ecarte", slug="short-ecarte")
    t2.options = {"players": 2}
    t2.save(update_fields=["options"])
    TournamentRole.objects.create(tournament=t2, user=organizer, role="organizer")
    make_round(t2, 1, [[e2["A"], e2["B"]], [e2["C"], e2["D"]]], released=False)
    page = client.get(reverse("round_changes", args=[t2.slug, 1])).content.decode()
    assert 'id="short"' not in page and "Retirer ce joueur de sa table" not in page and "Tarot" not in page


def test_the_arrivals_page_checks_in_and_registers_late(client, organizer):
    t, e = make_tournament(["Karim B", "Élodie Martin"], slug="arr")
    t.rounds_planned = 3
    t.save()
    TournamentRole.objects.create(tournament=t, user=organizer, role="organizer")
    url = reverse("arrivals", args=[t.slug])
    page = client.get(url).content.decode()
    assert page.index("Élodie Martin") < page.index("Karim B")
    client.post(url, {"action": "in", "entry": e["Karim B"].pk})
    assert Entry.objects.get(pk=e["Karim B"].pk).checked_in_at is not None
    fragment = client.post(url, {"action": "out", "entry": e["Karim B"].pk}, HTTP_HX_REQUEST="true")
    assert fragment.content.decode().lstrip().startswith("<li")
    assert Entry.objects.get(pk=e["Karim B"].pk).checked_in_at is None
    client.post(url, {"action": "late", "name": "Lucie Tard", "club": "", "licence": "", "from_round": "2"})
    assert Entry.objects.get(player__name="Lucie Tard").from_round == 2


def test_a_late_arrival_after_round_1_of_an_event_without_planned_rounds(client, organizer):
    """A walk: round 1 played, no number of rounds set — the arrivals page offered « Joue à partir de la manche :
    1 » only, and the service refused round 2 (« entre 1 et 1 »): nobody could arrive late. Now the rounds offered
    start at the next one to play, and the next round is always possible."""
    t, e = make_tournament("ABCDEFGH", slug="late-unplanned")
    t.rounds_planned = 0  # « nombre de manches » left empty
    t.save()
    tables = make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]])
    add_deal(tables[0], [90, -30, -30, -30], taker=0)
    TournamentRole.objects.create(tournament=t, user=organizer, role="organizer")
    url = reverse("arrivals", args=[t.slug])
    page = client.get(url).content.decode()
    assert 'name="from_round" value="2"' in page and 'name="from_round" value="1"' not in page
    client.post(url, {"action": "late", "name": "Lucie Tardieu", "club": "", "licence": "", "from_round": "2"})
    assert Entry.objects.get(player__name="Lucie Tardieu").from_round == 2
    with pytest.raises(ServiceError):
        middle.late_arrival(tournament=t, name="Yann Trop-Tard", from_round=3)  # two rounds ahead: not yet


def test_a_one_round_substitute_follows_his_player_through_a_swap():
    t, e = make_tournament("ABCDEFGH", slug="subswap")
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]], released=False)
    middle.seat_replace(seat=Seat.objects.get(entry=e["B"]), name="Yann")
    seating_service.round_swap(round=t.rounds.get(number=1), a=e["B"].pk, b=e["E"].pk)
    seat = Seat.objects.get(entry=e["B"])
    assert (seat.table.number, seat.substitute) == (2, "Yann")
    assert Seat.objects.exclude(substitute="").count() == 1


def test_a_late_arrival_or_a_replacement_sent_twice_is_made_once():
    t, e = make_tournament("ABCDEFGH", slug="twice")
    first = middle.late_arrival(tournament=t, name="Lucie Tardieu", from_round=1)
    again = middle.late_arrival(tournament=t, name="lucie  tardieu", from_round=1)  # a double tap
    assert first.pk == again.pk and t.entries.count() == 9
    make_round(t, 1, [[e[x] for x in "ABCD"], [e[x] for x in "EFGH"]], released=False)
    seat = Seat.objects.get(entry=e["B"])
    middle.seat_replace(seat=seat, name="Yann", rest_of_event=True)
    middle.seat_replace(seat=Seat.objects.get(pk=seat.pk), name="Yann", rest_of_event=True)
    assert Entry.objects.filter(tournament=t, player__name="Yann").count() == 1
    assert Entry.objects.get(player__name="Yann").replaces_id == e["B"].pk


def test_a_late_arrival_registered_by_his_licence_alone():
    """The walk: the arrivals page needed a name though the licence file knows it (the players page did not). A
    licence of the file alone registers « Prénom Nom » with his birth date; one the file does not know asks for the
    name, on the name field; sent twice, he is registered once."""
    import datetime as dt

    from tournaments.clubs.models import Licence

    t, _ = make_tournament("ABCD", slug="late-licence")
    t.rounds_planned = 3
    t.save()
    Licence.objects.create(number="3500077", last_name="LE BRIS", first_name="Maëlle", club_name="TC Rennes",
                           birth_date=dt.date(1990, 4, 2))
    entry = middle.late_arrival(tournament=t, name="", licence="3500077", from_round=2)
    assert (entry.player.name, entry.player.licence, entry.player.birth_date, entry.from_round) == (
        "Maëlle LE BRIS", "3500077", dt.date(1990, 4, 2), 2)
    assert middle.late_arrival(tournament=t, name=" ", licence="3500077", from_round=2).pk == entry.pk
    with pytest.raises(ServiceError) as refused:
        middle.late_arrival(tournament=t, name="", licence="9999999", from_round=2)
    assert refused.value.field == "name" and "9999999" in refused.value.message
    assert Entry.objects.filter(tournament=t).count() == 5
