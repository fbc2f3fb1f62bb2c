"""The defects the dress rehearsal runs into, each on its own minimal event, marked ``xfail(strict=True)``: the suite
stays green while they are there and turns red when one is fixed (then remove its mark, and its entry in
``invariants.KNOWN_5XX`` when it has one). Issue 20 lists most of them; the others were found by the rehearsal."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.events.test_duplicate import setup_duplicate
from tests.integration.builders import downloaded
from tournaments.deals import selectors
from tournaments.deals.models import Deal
from tournaments.duplicate.models import DuplicateTable

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def _running(event, **kwargs):
    players = kwargs.pop("players")
    ev = event(**kwargs)
    entries = ev.register(players)
    ev.start()
    return ev, entries


def test_vingt_quatre_8_players_every_tables_entry_page_opens(event):
    ev, _ = _running(event, label="d-v24", game="vingt-quatre", seed=8, rounds=1, players=8)
    rnd = ev.round_create()
    ev.draw(rnd, "swiss", check=False)
    for table in rnd.tables.all():
        assert ev.get("organizer", reverse("deal_enter", args=[table.pk]), follow=True).status_code == 200


def test_a_bye_tables_entry_page_says_bye(event):
    """Every way into a bye's entry (Écarté, 5 players: one alone) says « exempt » with a 4xx or the table's page,
    never a 500: the tap page, its state and save, the expert form, the offline save, the link, the API."""
    import json

    ev, _ = _running(event, label="d-bye", game="ecarte", seed=5, rounds=1, players_per_table=2, players=5)
    rnd = ev.round_create()
    ev.draw(rnd, "swiss")
    bye = next(t for t in rnd.tables.all() if t.seats.count() == 1)
    page = ev.get("organizer", reverse("deal_play", args=[bye.pk]), follow=True)
    assert page.status_code == 200 and "exempt" in page.content.decode().lower()
    body = json.dumps({"fields": {"dealer": 0, "cards": []}})
    key = {"HTTP_IDEMPOTENCY_KEY": "bye-1"}
    for url in (reverse("deal_play_state", args=[bye.pk]), reverse("deal_play_save", args=[bye.pk])):
        response = ev.request("organizer", "post", url, body, content_type="application/json", **key)
        assert 400 <= response.status_code < 500 and "exempt" in response.content.decode().lower(), url
    for url in (reverse("deal_enter", args=[bye.pk]), reverse("deal_offline", args=[bye.pk])):
        response = ev.post("organizer", url, {"mode": "record", "record": "{}"}, follow=True, **key)
        assert response.status_code < 500 and "exempt" in response.content.decode().lower(), url
    client, token = ev.link_client(bye)
    for url in (reverse("link_enter", args=[token]),):
        response = ev.get(client, url, follow=True)
        assert response.status_code == 200 and "exempt" in response.content.decode().lower(), url
    response = ev.request("anonymous", "post", reverse("api:table-deals", args=[bye.pk]), json.dumps({"dealer": 0}),
                          content_type="application/json", HTTP_AUTHORIZATION=f"Token {ev.api_token('chief')}", **key)
    assert 400 <= response.status_code < 500 and "exempt" in response.content.decode().lower()


def test_the_results_file_of_a_match_game(event):
    ev, _ = _running(event, label="d-json", game="vingt-quatre", seed=2405, rounds=1, target=8, players=5)
    ev.run_rounds(1, method="swiss")
    response = downloaded(lambda url: ev.get("anonymous", url), reverse("public-results-file", args=[ev.slug]))
    assert response.status_code == 200
    metrics = [m for line in response.json()["ranking"]["lines"] for m in line["metrics"].values()]
    assert metrics and all(m is None or isinstance(m, int) or re.fullmatch(r"-?\d+/\d+", m) for m in metrics), metrics


def _duplicate(event, label):
    ev, _ = _running(event, label=label, game="tarot", seed=16, rounds=1, players_per_table=4, players=8)
    setup_duplicate(ev, 2)
    return ev, ev.tournament.rounds.get(number=1)


def test_the_duplicate_table_cards_are_reachable(event):
    ev, rnd = _duplicate(event, "d-cards")
    url = reverse("duplicate_cards", args=[ev.slug, rnd.number])
    assert url != reverse("table_cards", args=[ev.slug, rnd.number])
    page = ev.get("organizer", url).content.decode()
    assert "dup-seats" in page and "Nord" in page
    for linked_from in (reverse("round_detail", args=[ev.slug, rnd.number]),
                        reverse("duplicate_setup", args=[ev.slug])):
        assert f'href="{url}"' in ev.get("organizer", linked_from).content.decode(), linked_from


def test_the_ordinary_draw_leaves_a_duplicate_round_alone(event):
    ev, rnd = _duplicate(event, "d-draw")
    before = {t.number: list(t.seats.order_by("position").values_list("entry_id", flat=True)) for t in rnd.tables.all()}
    assert 'id="draw"' not in ev.get("organizer", reverse("round_detail", args=[ev.slug, rnd.number])).content.decode()
    said = ev.draw(rnd, "random", seed=3, check=False)
    assert any("dupliquées" in m and "mouvement" in m for m in said), said
    after = {t.number: list(t.seats.order_by("position").values_list("entry_id", flat=True)) for t in rnd.tables.all()}
    assert after == before
    assert DuplicateTable.objects.filter(table__round=rnd).count() == len(before)
    table = rnd.tables.get(number=1)
    assert ev.get("organizer", reverse("table_etuis", args=[table.pk])).status_code == 200


def test_a_one_round_substitute_is_named_at_his_table(event):
    ev, _ = _running(event, label="d-sub", game="tarot", seed=4, rounds=1, players_per_table=4, players=8)
    rnd = ev.round_create()
    ev.draw(rnd, "random")
    table = rnd.tables.get(number=1)
    seat = table.seats.order_by("position").first()
    ev.changes(rnd, {"action": "replace", "seat": seat.pk, "name": "Rémi Remplaçant", "club": "", "scope": "round"},
               "a substitute for one round")
    client, token = ev.link_client(table)
    replaced = seat.entry.player.name
    for who, url in (("organizer", reverse("table_detail", args=[table.pk])),
                     ("organizer", reverse("deal_enter", args=[table.pk])),
                     ("organizer", reverse("my_tables")),
                     ("organizer", reverse("table_cards", args=[ev.slug, rnd.number])),
                     (client, reverse("link_home", args=[token])),
                     (client, reverse("link_enter", args=[token]))):
        page = ev.get(who, url, follow=True).content.decode()
        assert "Rémi Remplaçant (remplace" in page and replaced in page, url


def test_the_draw_of_a_tarot_tournament_at_five_seats_tables_of_five(event):
    ev, _ = _running(event, label="d-five", game="tarot", seed=55, rounds=1, players_per_table=5, tarot_five="mort",
                     players=10)
    rnd = ev.round_create()
    ev.draw(rnd, "rotation")
    assert sorted(t.seats.count() for t in rnd.tables.all()) == [5, 5]


def test_the_rounds_played_are_counted(event):
    ev, _ = _running(event, label="d-rounds", game="tarot", seed=9, rounds=1, players_per_table=4, deals_per_round=1,
                     players=4)
    ev.run_rounds(1, method="rotation", vias=("summary",))
    from tournaments.standings.rankings import latest_snapshot, snapshot_lines

    lines = snapshot_lines(latest_snapshot(ev.tournament.pk))
    assert [dict(line.metrics)["rounds"] for line in lines] == [1, 1, 1, 1]
    # won_as_taker: 1 for the taker when his side made the contract (his row positive), 0 for everyone else
    deal = Deal.objects.get(table__round__tournament=ev.tournament)
    taker = deal.table.seats.get(position=deal.record["bid"]["taker"]).entry_id
    made = deal.score_rows.get(entry_id=taker, ruling__isnull=True).points > 0
    expected = {e: int(made and e == taker) for e in ev.tournament.entries.values_list("id", flat=True)}
    assert {line.entry_id: dict(line.metrics)["won_as_taker"] for line in lines} == expected
    results = downloaded(lambda url: ev.get("anonymous", url),
                         reverse("public-results-file", args=[ev.slug])).json()["ranking"]["lines"]
    assert {ln["player"]: (ln["metrics"]["rounds"], ln["metrics"]["won_as_taker"]) for ln in results} == {
        e: (1, w) for e, w in expected.items()}



def test_the_summary_at_a_table_of_five_follows_the_rules_default(event):
    """« Joueurs par table : selon le jeu » (tables of 4, 3 and 5), « Tarot à 5 » not chosen: 5 players are drawn at
    one table of five, played with the rules' default, the mort (A-T6): the tap summary asks for no called King."""
    ev, _ = _running(event, label="d-called", game="tarot", seed=6, rounds=1, players=5)
    rnd = ev.round_create()
    ev.draw(rnd, "rotation")
    table = rnd.tables.get()
    assert table.seats.count() == 5
    page = ev.get("organizer", reverse("deal_enter", args=[table.pk]) + "?mode=summary", follow=True)
    text = page.content.decode()
    assert page.redirect_chain[-1][0].endswith("?mode=summary") and '"bid.contract"' in text
    assert '"bid.called"' not in text, "the tap summary asks for a called King at a table played with the mort"
    assert selectors.record_head(table)["options"] == {"players": 5}  # the rules' default at 5: the mort (A-T6)
