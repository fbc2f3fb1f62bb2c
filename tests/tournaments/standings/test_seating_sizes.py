"""Issue 20: table sizes come from the game's allowed counts (``games.table_sizes``); a draw that cannot
seat everybody is refused in French naming the counts; a table of a size its game is not played at
(seated before the fix) opens without a server error; the organizer's « Joueurs par table » offers
only the game's counts."""

from __future__ import annotations

import pathlib
import re

import pytest
from django.urls import reverse

from tests.integration.builders import make_round, make_tournament
from tests.tournaments.factories import UserFactory
from tournaments.common import games
from tournaments.event.models import Round, Tournament
from tournaments.standings import draw as seating_service

pytestmark = pytest.mark.django_db


def sizes_of(rnd: Round) -> list[int]:
    return [t.seats.count() for t in rnd.tables.order_by("number")]


@pytest.mark.parametrize(("game", "options", "expected"), [
    ("tarot", {}, (4, 3, 5)),
    ("tarot", {"players": 4}, (4, 3)),
    ("tarot", {"players": 5, "five": "called_king"}, (5, 4, 3)),
    ("vingt-quatre", {}, (5, 4)),
    ("vingt-quatre", {"players": 4}, (4, 5)),
    ("imperiale", {}, (2,)),
    ("imperiale", {"players": 3}, (3, 2)),
    ("ecarte", {}, (2,)),
    ("ecarte", {"players": 4}, (4, 2, 3)),
    ("triomphe", {"players": 4, "teams": [[0, 1], [2, 3]]}, (4,)),
])
def test_table_sizes_by_game_and_choice(game, options, expected):
    assert games.table_sizes(game, options) == expected
    assert set(expected) <= set(games.players_choices(game))


@pytest.mark.parametrize(("n", "expected"), [
    (13, [4, 4, 5]),     # 13 = 4a + 1: one table of 5 (RULES.md §1.12 rules 35, A-T6)
    (14, [4, 4, 3, 3]),  # 4a + 2: two tables of 3
    (17, [4, 4, 4, 5]),
])
def test_tarot_by_the_game_tables_of_four_then_three_or_five(n, expected):
    t, _ = make_tournament([f"P{i:02}" for i in range(n)], slug=f"tarot{n}")
    rnd = Round.objects.create(tournament=t, number=1)
    seating_service.round_draw(round=rnd, method="rotation")
    assert sizes_of(rnd) == expected


@pytest.mark.parametrize(("n", "expected"), [(13, [4, 3, 3, 3]), (14, [4, 4, 3, 3]), (17, [4, 4, 3, 3, 3])])
def test_tarot_at_four_homologable_tables_of_four_and_three(n, expected):
    t, _ = make_tournament([f"P{i:02}" for i in range(n)], slug=f"tarot4-{n}")
    t.options = {"players": 4}
    t.save()
    rnd = Round.objects.create(tournament=t, number=1)
    seating_service.round_draw(round=rnd, method="random", seed=2)
    assert sizes_of(rnd) == expected


def test_tarot_at_four_five_players_is_refused_in_french():
    t, _ = make_tournament(list("ABCDE"), slug="tarot4-5")
    t.options = {"players": 4}
    t.save()
    rnd = Round.objects.create(tournament=t, number=1)
    with pytest.raises(Exception) as caught:
        seating_service.round_draw(round=rnd, method="rotation")
    assert caught.value.message.startswith("impossible de placer 5 joueurs à des tables de 3 ou 4 joueurs. Pour "
                                           "tirer les tables : inscrivez ou retirez des joueurs")


def test_impossible_draw_on_the_page_is_a_message_not_a_server_error(client):
    """Three players at Le Vingt-quatre (played at 5 or 4, never fewer: RULES.md §5 rule 1). Seven, refused here
    before, now make a table of 5 and 2 exempts (``test_draw_forecast``)."""
    t, _ = make_tournament(list("ABC"), game="vingt-quatre", slug="v24-3")
    Round.objects.create(tournament=t, number=1)
    client.force_login(UserFactory(is_superuser=True))
    response = client.post(reverse("round_draw", args=[t.slug, 1]), {"method": "swiss"}, follow=True)
    assert response.status_code == 200
    assert "Impossible de placer 3 joueurs à des tables de 4 ou 5 joueurs" in response.content.decode()  # a sentence
    assert not Round.objects.get(tournament=t, number=1).tables.exists()


def test_hand_seating_refuses_a_table_of_one_at_vingt_quatre():
    t, e = make_tournament(list("ABCDEFGH"), game="vingt-quatre", slug="v24-hand")
    rnd = Round.objects.create(tournament=t, number=1)
    from tournaments.common.errors import InvalidInput
    from tournaments.event.setup import round_seat

    with pytest.raises(InvalidInput) as caught:
        round_seat(round=rnd, tables=[[e[x].pk for x in "ABCDE"], [e["F"].pk], [e["G"].pk], [e["H"].pk]])
    assert caught.value.field == "tables[1]"
    assert round_seat(round=rnd, tables=[[e[x].pk for x in "ABCD"], [e[x].pk for x in "EFGH"]])


@pytest.mark.parametrize("name", ["deal_play", "deal_enter", "table_detail"])
def test_entry_page_of_a_table_of_one_is_not_a_server_error(client, name):
    """A Vingt-quatre round of a table of 5 and tables of one player: since the draw gives exempts where no
    tables of 4 and 5 seat everybody, a table of one there is a bye, said so on the entry pages."""
    t, e = make_tournament(list("ABCDEFGH"), game="vingt-quatre", slug=f"v24-old-{name}")
    tables = make_round(t, 1, [[e[x] for x in "ABCDE"], [e["F"]], [e["G"]], [e["H"]]], released=False)
    client.force_login(UserFactory(is_superuser=True))
    response = client.get(reverse(name, args=[tables[1].pk]), follow=True)
    assert response.status_code == 200
    if name != "table_detail":
        assert ("Exempt : pas de donne à cette table, le joueur seul est exempt pour cette manche."
                in response.content.decode().replace("&#x27;", "'"))


@pytest.mark.parametrize("name", ["deal_play_state", "deal_play_save", "deal_offline", "deal_check"])
def test_posting_at_a_table_of_one_is_a_refusal_not_a_server_error(client, name):
    t, e = make_tournament(list("ABCDEFGH"), game="vingt-quatre", slug=f"v24-post-{name}")
    tables = make_round(t, 1, [[e[x] for x in "ABCDE"], [e["F"]], [e["G"]], [e["H"]]], released=False)
    client.force_login(UserFactory(is_superuser=True))
    response = client.post(reverse(name, args=[tables[1].pk]), '{"fields": {"dealer": 0, "cards": []}}',
                           content_type="application/json", HTTP_IDEMPOTENCY_KEY="k1")
    assert 400 <= response.status_code < 500 if name != "deal_check" else response.status_code < 500


def _creator(client):
    from django.contrib.auth.models import Permission

    user = UserFactory(username="orga-sizes")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client.force_login(user)


def test_players_per_table_offers_only_the_games_counts(client):
    """Issue 20: « Joueurs par table » offered 2 and 6 for Tarot."""
    _creator(client)
    html = client.get(reverse("tournament_create")).content.decode()
    for game, counts in (("tarot", (3, 4, 5)), ("vingt_quatre", (4, 5)), ("imperiale", (2, 3)),
                         ("ecarte", (2, 3, 4)), ("triomphe", (2, 3, 4, 5, 6))):
        offered = {int(v) for v in re.findall(rf'name="players_{game}"[^>]*value="(\d+)"', html)
                   + re.findall(rf'value="(\d+)"[^>]*name="players_{game}"', html)}
        assert offered == set(counts), game
    # « Tarot à 5 » is hidden when Tarot is played at 3 or 4 (a table of 5 is never drawn then)
    css = (pathlib.Path(__file__).parents[3] / "static/css/levee.css").read_text()
    assert ('input[name="players_tarot"][value="4"]:checked) .conv[data-field="tarot_five"]' in css
            and 'data-field="tarot_five"' in html)


@pytest.mark.parametrize(("post", "options"), [
    ({"players_tarot": "4", "tarot_five": "called_king"}, {"players": 4}),
    ({"players_tarot": "5", "tarot_five": "called_king"}, {"players": 5, "five": "called_king"}),
    ({"players_tarot": "", "tarot_five": "called_king"}, {"five": "called_king"}),
    ({"players_per_table": "4"}, {"players": 4}),  # the old field name still works
])
def test_tarot_players_and_five_saved(client, post, options):
    _creator(client)
    response = client.post(reverse("tournament_create"), {
        "name": "Open", "game": "tarot", "format": "individual", "rounds_planned": "2", **post})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Tournament.objects.get(name="Open").options == options


def test_tarot_at_five_asks_which_game(client):
    """At 5 players a table the called king or the « mort » is chosen, never defaulted without a word (a walk's
    tournament was silently « mort »: no called card in any entry form, and the conventions no longer change)."""
    _creator(client)
    response = client.post(reverse("tournament_create"), {
        "name": "Open", "game": "tarot", "format": "individual", "rounds_planned": "2", "players_tarot": "5"})
    assert response.status_code == 200
    assert "À 5 joueurs par table, choisissez : roi appelé ou mort." in response.content.decode()
    assert not Tournament.objects.filter(name="Open").exists()


def test_a_count_the_game_is_not_played_at_is_refused_in_french(client):
    _creator(client)
    response = client.post(reverse("tournament_create"), {
        "name": "Open", "game": "tarot", "format": "individual", "rounds_planned": "2", "players_per_table": "6"})
    assert response.status_code == 200
    assert "Tarot se joue à 3, 4 ou 5 joueurs par table, pas à 6." in response.content.decode()
    assert not Tournament.objects.filter(name="Open").exists()


def test_seating_form_rows_hold_the_largest_table_the_tournament_allows(client):
    t, _ = make_tournament([f"P{i}" for i in range(9)], game="vingt-quatre", slug="v24-form")
    Round.objects.create(tournament=t, number=1)
    client.force_login(UserFactory(is_superuser=True))
    html = client.get(reverse("round_detail", args=[t.slug, 1])).content.decode()
    assert 'name="t0_s4"' in html and 'name="t0_s5"' not in html  # tables of 5 at most
    assert 'name="t1_s0"' in html  # 9 players: two tables (5 + 4)
