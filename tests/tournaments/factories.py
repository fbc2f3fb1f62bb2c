"""factory_boy factories and deal builders for the tournaments tests."""

from __future__ import annotations

import random
from typing import Any

import factory
from django.contrib.auth import get_user_model

from tournaments.clubs.models import Club, ClubRole
from tournaments.event.models import Entry, Player, Round, Seat, Table, Tournament, TournamentRole


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("secret-pass")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    city = "Lyon"
    federation_number = factory.Sequence(lambda n: f"{n:05d}")


class ClubRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ClubRole

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = ClubRole.Role.ORGANIZER


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Tournoi {n}")
    slug = factory.Sequence(lambda n: f"tournoi-{n}")
    game = "tarot"
    options = factory.LazyFunction(dict)
    status = Tournament.Status.RUNNING
    is_public = True


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Joueur {n}")
    club = "Club de Tarot"
    licence = factory.Sequence(lambda n: f"L{n:06d}")


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Entry

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)


class TableFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Table

    round = factory.SubFactory(RoundFactory)
    number = factory.Sequence(lambda n: n + 1)


def seated_table(tournament: Tournament, *, players: int = 4, round_number: int = 1, number: int = 1,
                 names: list[str] | None = None) -> Table:
    """A table of ``players`` new entries in round ``round_number`` (created if needed)."""
    rnd, _ = Round.objects.get_or_create(tournament=tournament, number=round_number)
    table = Table.objects.create(round=rnd, number=number)
    for position in range(players):
        name = names[position] if names else None
        player = PlayerFactory(name=name) if name else PlayerFactory()
        entry = EntryFactory(tournament=tournament, player=player)
        Seat.objects.create(table=table, position=position, entry=entry)
    return table


def role(tournament: Tournament, user: Any, name: str, tables: list[Table] = ()) -> TournamentRole:  # type: ignore[assignment]
    obj, _ = TournamentRole.objects.get_or_create(tournament=tournament, user=user, role=name)
    if tables:
        obj.tables.add(*tables)
    return obj


# -- Tarot deals -----------------------------------------------------------------------------------

FIXED = ("format", "game", "options", "players")


def own_fields(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in FIXED}


def tarot_full_deal(seed: int, *, contract: str = "garde", players: int = 4, dealer: int | None = None
                    ) -> dict[str, Any]:
    """A random legal Tarot deal with hands, chien, écart and every trick (its own fields)."""
    from rules.tarot import random_record

    return own_fields(random_record(random.Random(seed), players=players, contract=contract, dealer=dealer))


def tarot_summary(*, taker: int = 1, contract: str = "garde", oudlers: int = 2, points: float = 49,
                  dealer: int = 0, petit_au_bout: str | None = None, handfuls: list | None = None) -> dict[str, Any]:
    """A Tarot deal entered as a summary (no tricks)."""
    return {
        "dealer": dealer,
        "bid": {"taker": taker, "contract": contract, "called": None},
        "partner": None,
        "chelem_announced": False,
        "handfuls": handfuls or [],
        "summary": {"oudlers": oudlers, "points": points, "petit_au_bout": petit_au_bout, "chelem": None},
    }


def tarot_illegal_deal(seed: int) -> tuple[dict[str, Any], int, int, str]:
    """A full Tarot deal with one card replaced by an illegal one from the same hand.

    Returns the deal's fields and where the first violation is: (trick, seat, card code).
    """
    from rules.cards import cards_of, format_card, mask_of, parse_card
    from rules.play import DealState
    from rules.record import read_deal
    from rules.tarot import TAROT, random_record

    for s in range(seed, seed + 200):
        record = random_record(random.Random(s), players=4, contract="garde")
        options = TAROT.parse_options({"players": 4})
        deal = read_deal(record, index=0, field="", players=4)
        rules = TAROT.deal_rules(options, deal.raw, players=4, field="")
        setup = rules.setup([mask_of(h) for h in deal.hands])
        state = DealState(rules, setup.hands)
        for t, trick in enumerate(record["tricks"]):
            for k, code in enumerate(trick):
                seat = state.seat_to_play
                illegal = state.hands[seat] & ~state.legal_mask()
                if k > 0 and illegal:
                    bad = cards_of(illegal)[0]
                    tricks = [list(x) for x in record["tricks"]]
                    tricks[t][k] = format_card(bad)
                    record["tricks"] = tricks
                    return own_fields(record), t, seat, format_card(bad)
                state.apply(parse_card(code))
    raise AssertionError("no deal with a constrained play found")


def tap_save(client: Any, table: Any, fields: dict[str, Any], key: str = "key-1") -> Any:
    """What the tap page's « Vérifier et enregistrer » posts (the deal's own fields as JSON, with its key)."""
    import json

    from django.urls import reverse

    return client.post(reverse("deal_play_save", args=[table.pk]), json.dumps({"fields": fields}),
                       content_type="application/json", headers={"Idempotency-Key": key})


def tap_correct(client: Any, deal: Any, fields: dict[str, Any], *, version: Any, reason: str) -> Any:
    """What the correction's tap page posts."""
    import json

    from django.urls import reverse

    body = {"fields": fields, "version": version, "reason": reason}
    return client.post(reverse("deal_correct_play_save", args=[deal.pk]), json.dumps(body),
                       content_type="application/json")
