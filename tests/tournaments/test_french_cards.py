"""The trick-by-trick desk form reads cards typed the French way (« RC », « DK », « CT », « 21 », « Exc »)
and saves the record's codes; a card it cannot read is refused with the accepted forms."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.cards import format_card, parse_card
from tests.tournaments.factories import tarot_full_deal
from tournaments.deals.models import Deal

pytestmark = pytest.mark.django_db

FRENCH_RANK = {1: "A", 11: "V", 12: "C", 13: "D", 14: "R"}


def french(code: str) -> str:
    """A record code the French way, cœur written « C » as a French arbiter does."""
    if code == "EX":
        return "Exc"
    if code.startswith("T"):
        return code[1:]
    c = parse_card(code)
    return FRENCH_RANK.get(c & 15, str(c & 15)) + "PCKT"[c >> 4]


def typed(fields: dict, write) -> dict[str, str]:
    data = {"mode": "tricks", "dealer": str(fields["dealer"]), "taker": str(fields["bid"]["taker"]),
            "contract": fields["bid"]["contract"],
            "tricks": "\n".join(" ".join(write(c) for c in t) for t in fields["tricks"]),
            "dog": " ".join(write(c) for c in fields.get("dog") or []),
            "discard": " ".join(write(c) for c in fields.get("discard") or [])}
    for i, hand in enumerate(fields["hands"]):
        data[f"hand_{i}"] = " ".join(write(c) for c in hand)
    return data


def test_a_deal_typed_the_french_way_is_saved_with_the_record_codes(client, tarot_table, staff):
    fields = tarot_full_deal(3)
    client.force_login(staff["arbiter"])
    response = client.post(reverse("deal_enter", args=[tarot_table.pk]), typed(fields, french))
    assert response.status_code == 302, response.content.decode()[:2000]
    record = Deal.objects.get(table=tarot_table).record
    assert record["tricks"] == fields["tricks"] and record["hands"] == fields["hands"]
    assert all(format_card(parse_card(c)) == c for trick in record["tricks"] for c in trick)


def test_a_card_not_understood_shows_the_accepted_forms(client, tarot_table, staff):
    client.force_login(staff["arbiter"])
    data = {"mode": "tricks", "dealer": "0", "taker": "1", "contract": "garde", "tricks": "RP 2P 3P 4P\nRP ZZ 1P 2P"}
    page = client.post(reverse("deal_enter", args=[tarot_table.pk]), data).content.decode()
    assert "Pli 2" in page and "ZZ" in page
    assert "Formes acceptées" in page and "RC ou R♥ (roi de cœur)" in page
    assert not Deal.objects.exists()
