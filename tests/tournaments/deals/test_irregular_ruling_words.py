"""The words of a ruling decided from the chief's irregular-deal panel (a walk: « ⚖ autre — Carte non prise
(pouvant la prendre) — Renonce au pli 7 » after the panel decided a renonce; the Tarot panel told the chief « le
code d'arbitrage de la Fédération française de tarot n'est pas disponible : aucune pénalité fixe n'est inventée », a
developer's note). The Impériale deal is ``test_irregular_imperiale.py``'s renonce (Bruno plays ♣9 on ♠R holding
spades, AUJ-IMP rule 18)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse

from tests.tournaments.deals.irregular import entries, staffed_table, user
from tests.tournaments.deals.test_irregular_imperiale import RENONCE
from tests.tournaments.factories import TournamentFactory, UserFactory, role
from tournaments.deals.models import Ruling
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import irregular_rule

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    return staffed_table(TournamentFactory(game="imperiale", options={"players": 2}, target=3), ["Ana", "Bruno"],
                         first_name="Claire", last_name="Arbitre")


def test_a_penalty_decided_on_a_renonce_is_filed_as_a_renonce(client, table):
    deal = deal_record(table=table, record=RENONCE, user=user("arbitre"), irregular=True)
    ruling = irregular_rule(deal=deal, decision="penalty", penalty="imperiale_failed_to_take",
                            offender=entries(table)["Bruno"], reason="renonce au premier pli", user=user("chef"))
    assert ruling.kind == Ruling.Kind.RENONCE
    client.force_login(user("chef"))
    page = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "⚖ renonce — Carte non prise" in page and "⚖ autre" not in page


def test_the_misdeal_preset_stays_a_misdeal(table):
    deal = deal_record(table=table, record=RENONCE, user=user("arbitre"), irregular=True)
    ruling = irregular_rule(deal=deal, decision="penalty", penalty="imperiale_misdeal",
                            offender=entries(table)["Bruno"], reason="", user=user("chef"))
    assert ruling.kind == Ruling.Kind.MISDEAL


def test_a_ruling_on_an_irregular_deal_is_never_said_other():
    assert Ruling(kind="other", decision="annul").kind_words == "donne irrégulière"
    assert Ruling(kind="other").kind_words == "autre"  # a ruling typed on the ruling form keeps its kind
    assert Ruling(kind="renonce", decision="as_played").kind_words == "renonce"


def test_the_tarot_panel_tells_the_chief_what_he_can_do(client, tarot_table):
    golden = Path(__file__).resolve().parents[2] / "golden" / "tarot-revoke.json"
    chief = UserFactory(username="chef-tarot")
    role(tarot_table.round.tournament, chief, "chief_arbiter")
    deal_record(table=tarot_table, record=json.loads(golden.read_text()), user=chief, irregular=True)
    client.force_login(chief)
    page = client.get(reverse("chief_page", args=[tarot_table.round.tournament.slug])).content.decode()
    panel = page.split('<section id="irregular">', 1)[1].split("</section>", 1)[0]
    assert "pas disponible" not in panel and "inventée" not in panel and "Fédération" not in panel
    assert "Compter la donne telle que jouée" in panel and "Marques fixées par l" in panel
    assert "vous saisissez les marques" in panel
