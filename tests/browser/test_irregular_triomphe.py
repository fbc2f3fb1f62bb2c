"""La Triomphe: a renonce tapped card by card, saved as an irregular deal, and the penalty the rule texts fix chosen
by the chief on his page (issue 19 item 1), on a phone (390×844) in Debian's Chromium; axe-core clean on every page
visited.

La Triomphe forcée at two (RULES.md §2.1–2.4), order R D V As 10 9 8 7, the retourne 9♥: hearts are trump.
Deals 1 and 2, entered at the desk as quick summaries: Bruno deals, Ana 3 tricks of 5: the point, 1; then Ana
deals and Bruno … Ana takes the five tricks: the vole, 2 (§2.4 rules 9–10). Ana 3 – Bruno 0.
Deal 3, tapped: Bruno deals, Ana leads (rule 7). Hands: Ana R♠ D♠ 7♣ 8♣ 9♣; Bruno 7♥ 7♦ R♦ R♣ D♣.
Trick 1: Ana R♠, Bruno 7♦ — he has no spade and holds the 7♥: he must trump (§2.3, forcée): a renonce, failing to
trump. Ana wins (no trump in the trick). Trick 2: Ana D♠, Bruno 7♥ (trumps): Bruno. Trick 3: Bruno R♦, Ana 7♣
(no diamond, no trump): Bruno. Trick 4: Bruno R♣, Ana 8♣ (follows; cannot head the R): Bruno. Trick 5: Bruno D♣,
Ana 9♣: Bruno. As played: Bruno 4 tricks, the point: Ana 0, Bruno 1.
The chief's ruling: the preset « Refus de couper » (§2.6 rule 21, decision A-R9: −1) on Bruno. A fault in play: the
deal counts as played and the penalty is added (docs/deal-record.md, « A penalty on an irregular deal »): Bruno's
point 1 − 1 = 0, Ana 0; the ruling moves nobody, its line says why. Ana 3, Bruno 0.
Deal 4, at the desk: Bruno leads … Ana takes the five tricks: the vole, 2: Ana 5 – Bruno 0, the match to 5 is hers
(rule 14). The ranking: Ana 2 match points (win 2, loss 0), 1 win, écart 5 − 0 = 5; Bruno 0, écart −5.
"""

from __future__ import annotations

import pytest

from tests.browser.irregular_steps import (
    axe_clean,
    chief_rules,
    enter_hands,
    ranking_rows,
    save_irregular,
    sheet_lines,
    tap_all,
)
from tests.browser.test_tap_entry import fits, login, pick_cards, seat, table_for
from tests.tournaments.factories import UserFactory, role
from tournaments.deals.models import Deal, Ruling
from tournaments.deals.record import deal_record
from tournaments.event.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Bruno"]
HANDS = [["KS", "QS", "7C", "8C", "9C"], ["7H", "7D", "KD", "KC", "QC"]]
TRICKS = [["KS", "7D"], ["QS", "7H"], ["KD", "7C"], ["KC", "8C"], ["QC", "9C"]]


@pytest.fixture
def chief(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return UserFactory(username="arbitre")


def test_triomphe_failing_to_trump_ruled_with_its_penalty(live_server, phone, chief, screenshots):
    page = phone
    table = table_for(chief, "triomphe", {"mode": "forcee", "target": 5}, NAMES)
    tournament = table.round.tournament
    role(tournament, chief, "chief_arbiter")
    Round.objects.filter(pk=table.round_id).update(released=True, status=Round.Status.RUNNING)
    deal_record(table=table, user=chief, record={"dealer": 1, "turn_up": "9H", "summary": {"tricks": [3, 2]}})
    deal_record(table=table, user=chief, record={"dealer": 0, "turn_up": "9H", "summary": {"tricks": [5, 0]}})
    login(page, live_server)

    page.goto(f"{live_server.url}/desk/tables/{table.pk}/deal/play/")
    page.locator("#net").wait_for()
    axe_clean(page)
    seat(page, "dealer", 1)
    pick_cards(page, "turn_up", ["9H"])
    enter_hands(page, HANDS)
    page.locator("#net", has_text="Vérifié").wait_for()
    confirmed = tap_all(page, [code for trick in TRICKS for code in trick])
    assert [code for code, _ in confirmed] == ["7D"], confirmed
    assert "Bruno" in confirmed[0][1] or "couper" in confirmed[0][1] or "atout" in confirmed[0][1], confirmed
    page.locator("#play-title", has_text="Tous les plis").wait_for()
    page.locator("#net", has_text="Vérifié").wait_for()
    fits(page)
    axe_clean(page)
    body = save_irregular(page)
    assert "irrégulière" in body and "arbitre" in body, body
    axe_clean(page)
    deal = Deal.objects.get(table=table, status=Deal.Status.IRREGULAR)
    lines = sheet_lines(page, live_server, table.pk)
    assert lines[2][1:] == ["(0)", "(1)"] and lines[-1] == ["Total", "3", "0"], lines

    entry = {s.entry.player.name: s.entry_id for s in table.seats.select_related("entry__player")}
    said = chief_rules(page, live_server, tournament.slug, deal.pk, "penalty", penalty="triomphe_failed_to_trump",
                       offender=entry["Bruno"])
    assert "Table 1, donne 3 : la décision est enregistrée." in said, said
    page.screenshot(path=str(screenshots / "irregular_triomphe_chief_phone.png"), full_page=True)
    fits(page)
    lines = sheet_lines(page, live_server, table.pk)
    assert "Refus de couper" in lines[3][0] and "donne comptée telle que jouée" in lines[3][0], lines
    assert lines[-1] == ["Total", "3", "0"]
    # the match goes on: nobody ranked yet
    assert [r["Points de match"] for r in ranking_rows(page, live_server, tournament.slug)] == ["0", "0"]

    deal_record(table=table, user=chief, record={"dealer": 0, "turn_up": "9H", "summary": {"tricks": [5, 0]}})
    assert sheet_lines(page, live_server, table.pk)[-1] == ["Total", "5", "0"]
    rows = ranking_rows(page, live_server, tournament.slug)
    assert [(r["Rang"], r["Joueur"], r["Points de match"], r["Victoires"], r["Écart"]) for r in rows] == [
        ("1", "Ana", "2", "1", "5"), ("2", "Bruno", "0", "0", "-5")]
    page.screenshot(path=str(screenshots / "irregular_triomphe_ranking_phone.png"), full_page=True)
    ruling = Ruling.objects.get()
    assert (ruling.penalty, ruling.offender_id, ruling.adjustments) == (
        "triomphe_failed_to_trump", entry["Bruno"], {})
