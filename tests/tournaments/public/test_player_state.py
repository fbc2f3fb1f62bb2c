"""The state of a player's page across events, read in one written-out statement
(``tournaments.public.player_state``): each of its parts against the ORM's definition of it, on every database the
tests run on; a link revoked, a table's link, an unknown token; what moves it."""

from __future__ import annotations

import pytest
from django.db.models import Count, Max, Q
from django.utils import timezone

from tests.tournaments.seasons.builders import season_of_three
from tournaments.event.models import Entry, Player
from tournaments.links import service as links
from tournaments.links.models import PrivateLink
from tournaments.public import player_state
from tournaments.seasons.models import ChampionshipSnapshot
from tournaments.standings.models import RankingSnapshot

pytestmark = pytest.mark.django_db


def _orm_tick(player: Player) -> tuple[object, ...]:
    """The same facts by the ORM (what the page's state was made of before the statement)."""
    entries = Entry.objects.filter(player=player).aggregate(m=Max("id"), n=Count("id"),
                                                            w=Count("id", filter=Q(withdrawn=True)))
    return (RankingSnapshot.objects.filter(tournament__entries__player=player).aggregate(m=Max("id"))["m"],
            ChampionshipSnapshot.objects.filter(championship__tournaments__entries__player=player)
            .aggregate(m=Max("id"))["m"],
            f"{entries['m']} {entries['n']} {entries['w']}" if entries["n"] else None)


def test_each_part_of_the_statement_is_the_orms():
    s = season_of_three()
    for name, player in s["players"].items():
        state = player_state.of_player(player.pk)
        assert state is not None, name
        assert state.tick[:3] == _orm_tick(player), name
        assert state.tick[3:] == (player.name, None, s["club"].pk, player.club, s["club"].name), name
        assert (state.player_id, state.licence) == (player.pk, f"L-{name}")
    # Bruno withdrawn from T2: his count of withdrawn entries moves, and only his
    bruno = s["players"]["Bruno"]
    Entry.objects.filter(player=bruno, tournament=s["tournaments"][1]).update(withdrawn=True)
    assert player_state.of_player(bruno.pk).tick[:3] == _orm_tick(bruno)
    assert player_state.of_player(bruno.pk).tick[2].endswith(" 1")
    # a player with no entry: no snapshot, no entry
    alone = Player.objects.create(name="Marie-Bernadette Delacroix-Montfort")
    assert player_state.of_player(alone.pk).tick[:3] == (None, None, None)
    assert player_state.of_player(10**9) is None


def test_what_moves_a_players_state():
    s = season_of_three()
    ana = s["players"]["Ana"]
    before = player_state.of_player(ana.pk).tick
    s["club"].name = "Tarot Club de Vanves-Malakoff"
    s["club"].save()
    renamed = player_state.of_player(ana.pk).tick
    assert renamed != before and renamed[-1] == "Tarot Club de Vanves-Malakoff"
    Player.objects.filter(pk=ana.pk).update(anonymized_at=timezone.now())
    assert player_state.of_player(ana.pk).tick[4] is not None


def test_through_a_link():
    s = season_of_three()
    ana = s["players"]["Ana"]
    link = links.link_for_entry(entry=ana.entries.get(tournament=s["tournaments"][0]))
    state = player_state.of_link(link.token, links.MAX_TOKEN)
    assert state is not None and state.live and state.link_id == link.pk and state.player_id == ana.pk
    assert state.tick == player_state.of_player(ana.pk).tick
    PrivateLink.objects.filter(pk=link.pk).update(revoked_at=timezone.now())
    assert not player_state.of_link(link.token, links.MAX_TOKEN).live
    table = s["tournaments"][0].rounds.get().tables.get()
    assert player_state.of_link(links.link_for_table(table=table).token, links.MAX_TOKEN) is None  # a table's
    assert player_state.of_link("no-such-token", links.MAX_TOKEN) is None
    assert player_state.of_link("x" * (links.MAX_TOKEN + 1), links.MAX_TOKEN) is None
    assert player_state.of_link("", links.MAX_TOKEN) is None
