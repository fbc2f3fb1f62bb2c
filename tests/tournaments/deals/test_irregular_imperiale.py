"""An irregular deal of L'Impériale (RULES.md §4, AUJ-IMP rules I–X): saved as played with its violations, counted in
no match and no ranking until ruled, the arbiter called; then each ruling the texts give for the game.

Two players, a match of **one** impériale (the ``target``: the first impériale wins the match, so the ranking shows
at once what a ruling did). Bruno (seat 1) deals, Ana (seat 0) is first hand; retourne 8♥ (hearts trump; the 8 is
not an honour: no retourne jeton, §4.2 rule 7). Order of play R D V As 10 9 8 7; honours: trump As R D V 7.

    Ana   ♠ R D V 10 9   ♣ R D V   ♦ R D   ♥ 10 9
    Bruno ♠ As 8 7       ♣ As 10 9 ♦ As V 10 9   ♥ V 7        (talon ♣8 ♣7 ♦8 ♦7 ♥As ♥R ♥D, retourne ♥8)

No impériale en main is shown (Bruno's four aces are not a carré: ♥As is in the talon). **Le Point** (rule 8):
Ana's longest suit is spades, 5 cards; Bruno's diamonds, 4: Ana, 1 jeton.

RENONCE (``must_follow``, rule 18): trick 1 Ana leads ♠R, Bruno plays ♣9 while holding ♠As 8 7.
    1 ♠R/♣9 Ana   2 ♠D/♠7 Ana   3 ♠V/♠8 Ana   4 ♠10/♠As Bruno (As beats 10: he must force)
    5 ♦V/♦D Ana (Bruno leads; Ana must beat)   6 ♦R/♦9 Ana   7 ♣R/♣10 Ana   8 ♣D/♣As Ana
    9 ♣V/♥V Bruno trumps: the honour ♥V, 1 jeton   10 ♦As/♥9 Ana trumps   11 ♠9/♥7 Bruno trumps: ♥7, 1 jeton
    12 ♦10/♥10 Ana trumps
Ana 9 tricks, Bruno 3. As played (§4.3 rule 15): the Point Ana 1 jeton; honours Bruno 1 + 1; les cartes (rule 10)
Ana 9 − 6 = 3 jetons. **Ana 4 jetons, Bruno 2; no impériale: fiches gained 0 and 0.**

FAILED TO TAKE (``must_follow_higher``; AUJ rule X « could take a card played and does not »): same hands,
trick 1 Ana leads ♠10 and Bruno plays ♠7 while holding ♠As, which beats the 10.
    1 ♠10/♠7 Ana   2 ♠R/♠8 Ana   3 ♠D/♠As Ana   4 ♠V/♥7 Bruno trumps (honour, 1 jeton)   5 ♦V/♦D Ana
    6 ♦R/♦9 Ana   7 ♣R/♣10 Ana   8 ♣D/♣As Ana   9 ♣V/♣9 Ana   10 ♠9/♥V Bruno trumps (honour, 1 jeton)
    11 ♦As/♥9 Ana trumps   12 ♥10/♦10 Ana (Bruno has no trump left: any card)
Ana 10 tricks: the Point 1 + les cartes 4 = 5 jetons; Bruno 2 jetons; fiches 0 and 0.

The next deal (legal): Ana deals (the previous first hand, A-X1; the irregular deal passed the deal on), retourne
♣7, an honour: Ana 1 jeton at once (rule 7); no hands, so no Point; summary: Ana 7 tricks, Bruno 5, no honour
taken: les cartes Ana 7 − 6 = 1 jeton. Ana 2 jetons in that deal.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.deals.irregular import entries, match, ranked, staffed_table, user
from tests.tournaments.factories import TournamentFactory
from tournaments.common import games
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import irregular_rule, irregular_waiting, ruling_withdraw
from tournaments.desk.irregular import waiting_deals
from tournaments.links.models import ArbiterCall, RoundClosing
from tournaments.standings import appeal

pytestmark = pytest.mark.django_db

ANA_HAND = ["KS", "QS", "JS", "10S", "9S", "KC", "QC", "JC", "KD", "QD", "10H", "9H"]
BRUNO_HAND = ["AS", "8S", "7S", "AC", "10C", "9C", "AD", "JD", "10D", "9D", "JH", "7H"]
RENONCE_TRICKS = [["KS", "9C"], ["QS", "7S"], ["JS", "8S"], ["10S", "AS"], ["JD", "QD"], ["KD", "9D"],
                  ["KC", "10C"], ["QC", "AC"], ["JC", "JH"], ["AD", "9H"], ["9S", "7H"], ["10D", "10H"]]
FAILED_TO_TAKE_TRICKS = [["10S", "7S"], ["KS", "8S"], ["QS", "AS"], ["JS", "7H"], ["JD", "QD"], ["KD", "9D"],
                         ["KC", "10C"], ["QC", "AC"], ["JC", "9C"], ["9S", "JH"], ["AD", "9H"], ["10H", "10D"]]
RENONCE = {"dealer": 1, "turn_up": "8H", "hands": [ANA_HAND, BRUNO_HAND], "tricks": RENONCE_TRICKS}
FAILED_TO_TAKE = {"dealer": 1, "turn_up": "8H", "hands": [ANA_HAND, BRUNO_HAND], "tricks": FAILED_TO_TAKE_TRICKS}
NEXT_DEAL = {"dealer": 0, "turn_up": "7C", "summary": {"tricks": [7, 5], "honours": []}}


@pytest.fixture
def table():
    return staffed_table(TournamentFactory(game="imperiale", options={"players": 2}, target=1), ["Ana", "Bruno"],
                         first_name="Claire", last_name="Arbitre")


def saved(table, record=RENONCE) -> Deal:
    return deal_record(table=table, record=record, user=user("arbitre"), irregular=True)


# -- saved as irregular ----------------------------------------------------------------------------

def test_a_renonce_is_saved_irregular_out_of_the_match_and_calls_the_arbiter(table):
    deal = saved(table)
    assert deal.status == Deal.Status.IRREGULAR
    (found,) = deal.verdict["violations"]
    assert (found["rule"], found["trick"], found["seat"], found["card"]) == ("must_follow", 0, 1, "9C")
    # scored as played: Ana 4 jetons, Bruno 2, no impériale gained (the module's docstring)
    result = deal.verdict["deals"][0]
    assert result["scores"] == [0, 0] and result["result"]["jetons"] == [4, 2]
    assert not ScoreRow.objects.filter(counts=True).exists()
    assert match(table) == (None, False, None)
    assert irregular_waiting(deal) and waiting_deals(table.round.tournament) == [deal]
    call = ArbiterCall.objects.get(deal=deal)
    assert call.state == ArbiterCall.State.OPEN and call.reason == ArbiterCall.Reason.RENONCE
    assert "décision de l'arbitre attendue" in call.note
    # a later deal is judged without it (Ana's 2 jetons of that deal alone: no impériale, the match goes on)
    deal_record(table=table, record=NEXT_DEAL, user=user("arbitre"))
    assert match(table) == ([0, 0], False, None) and ranked(table) == []


def test_failing_to_take_is_saved_irregular_with_its_violation(table):
    deal = saved(table, FAILED_TO_TAKE)
    (found,) = deal.verdict["violations"]
    assert (found["rule"], found["trick"], found["seat"], found["card"]) == ("must_follow_higher", 0, 1, "7S")
    assert deal.verdict["deals"][0]["result"]["jetons"] == [5, 2]
    assert deal.status == Deal.Status.IRREGULAR and ArbiterCall.objects.filter(deal=deal).exists()


def test_the_decisions_the_texts_give_for_impériale(table):
    # AUJ rules IV and X fix amounts (scoring/penalties.py), so « penalty » is offered; no law 43 (L'Écarté's)
    tournament = table.round.tournament
    assert games.irregular_decisions(tournament.game, tournament.record_options()) == (
        "penalty", "as_played", "annul", "adjustment")
    assert [p.code for p in games.penalty_presets(tournament.game, tournament.record_options())] == [
        "imperiale_misdeal", "imperiale_failed_to_take"]
    deal = saved(table)
    for decision in ("let_stand", "replay"):
        with pytest.raises(InvalidInput) as caught:
            irregular_rule(deal=deal, decision=decision, reason="x", user=user("chef"))
        assert caught.value.field == "decision"
    assert not Ruling.objects.exists()


# -- each ruling ------------------------------------------------------------------------------------

def test_as_played_the_deal_joins_the_match_with_its_jetons(table):
    """Counted as played, the deal is in the match as dealt and played: Ana keeps her 4 jetons and Bruno his 2
    (no impériale, the match goes on). The next deal's 2 jetons bring Ana to 6: an impériale (rule 6) — the match
    of one impériale is hers, and her impériale erases Bruno's 2 jetons (rule 13)."""
    deal = saved(table)
    ruling = irregular_rule(deal=deal, decision="as_played", reason="renonce vue après coup", user=user("chef"))
    assert ruling.created_by == user("chef") and ruling.deal_id == deal.pk
    assert ruling.reason == "Donne comptée telle que jouée — renonce vue après coup"
    assert not irregular_waiting(deal) and waiting_deals(table.round.tournament) == []
    assert match(table) == ([0, 0], False, None)
    deal_record(table=table, record=NEXT_DEAL, user=user("arbitre"))
    assert match(table) == ([1, 0], True, 0)
    assert ranked(table)[0][:2] == ("Ana", 1) and [r[0] for r in ranked(table)] == ["Ana"]
    last = Deal.objects.get(table=table, number=2)
    assert last.verdict["deals"][0]["result"]["jetons"] == [0, 0]  # Ana's 6th jeton made the fiche; Bruno's wiped


def test_as_played_withdrawn_the_deal_waits_again_and_leaves_the_match(table):
    deal = saved(table)
    ruling = irregular_rule(deal=deal, decision="as_played", reason="", user=user("chef"))
    deal_record(table=table, record=NEXT_DEAL, user=user("arbitre"))
    assert match(table) == ([1, 0], True, 0)
    withdrawn = ruling_withdraw(ruling=ruling, reason="la renonce change tout", user=user("chef"))
    assert withdrawn.withdrawn_by == user("chef") and withdrawn.withdraw_reason == "la renonce change tout"
    assert withdrawn.history.count() == 2  # recorded, then withdrawn: two versions with who and why
    deal.refresh_from_db()
    assert deal.status == Deal.Status.IRREGULAR and irregular_waiting(deal)
    assert match(table) == ([0, 0], False, None) and ranked(table) == []
    assert not ScoreRow.objects.filter(deal=deal, counts=True).exists()


def test_annulled_the_deal_counts_nowhere(table):
    deal = saved(table)
    irregular_rule(deal=deal, decision="annul", reason="donne à rejouer", user=user("chef"))
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED
    # the next deal alone: Ana 2 jetons, no impériale
    deal_record(table=table, record=NEXT_DEAL, user=user("arbitre"))
    assert match(table) == ([0, 0], False, None) and ranked(table) == []


def test_marks_set_by_the_arbiter_need_a_reason_and_count_in_impériales(table):
    deal = saved(table)
    ids = entries(table)
    with pytest.raises(InvalidInput) as caught:
        irregular_rule(deal=deal, decision="adjustment", reason="", user=user("chef"), adjustments={ids["Ana"]: 1})
    assert caught.value.field == "reason"
    # the arbiter gives Ana the impériale (score rows of L'Impériale count impériales): the match of one is hers
    ruling = irregular_rule(deal=deal, decision="adjustment", reason="renonce de Bruno au premier pli",
                            user=user("chef"), adjustments={ids["Ana"]: 1})
    assert ruling.reason == "Marques fixées par l'arbitre — renonce de Bruno au premier pli"
    assert dict(ScoreRow.objects.filter(ruling=ruling).values_list("entry__player__name", "points")) == {"Ana": 1}
    assert match(table) == ([1, 0], True, 0)
    assert [(name, rank) for name, rank, _ in ranked(table)] == [("Ana", 1)]


def test_the_penalty_of_rule_x_on_bruno_who_has_no_impériale(table):
    """AUJ rule X with A-I10: Bruno « loses one impériale »; he has none, so Ana scores one: 1 impériale, the
    match of one is hers."""
    deal = saved(table, FAILED_TO_TAKE)
    ids = entries(table)
    with pytest.raises(InvalidInput) as caught:
        irregular_rule(deal=deal, decision="penalty", penalty="triomphe_failed_to_take", offender=ids["Bruno"],
                       reason="", user=user("chef"))
    assert caught.value.field == "penalty"
    ruling = irregular_rule(deal=deal, decision="penalty", penalty="imperiale_failed_to_take", offender=ids["Bruno"],
                            reason="n'a pas pris le 10 de pique", user=user("chef"))
    assert ruling.penalty_rule == "AUJ-IMP règle X (RULES.md §4.5, A-I10)" and ruling.offender_id == ids["Bruno"]
    assert ruling.reason == "Carte non prise (pouvant la prendre) — n'a pas pris le 10 de pique"
    # the ruling answers the table's call: the table reads the decision
    call = ArbiterCall.objects.get(deal=deal)
    assert (call.state, call.outcome) == (ArbiterCall.State.RESOLVED, ArbiterCall.Outcome.RULING)
    assert call.answer == "Décision de l'arbitre : Carte non prise (pouvant la prendre) — n'a pas pris le 10 de pique"
    assert call.resolved_by == user("chef")
    assert dict(ScoreRow.objects.filter(ruling=ruling).values_list("entry__player__name", "points")) == {"Ana": 1}
    assert match(table) == ([1, 0], True, 0)
    assert [(name, rank) for name, rank, _ in ranked(table)] == [("Ana", 1)]
    with pytest.raises(StateConflict):
        irregular_rule(deal=deal, decision="annul", reason="", user=user("chef"))
    # withdrawn: the impériale leaves the match, the deal waits again
    ruling_withdraw(ruling=ruling, reason="pénalité retirée après appel", user=user("chef"))
    assert match(table) == (None, False, None) and ranked(table) == []  # no deal nor ruling left in the match
    assert irregular_waiting(deal)


def test_the_misdeal_preset_is_charged_to_the_dealer(table):
    """AUJ rule IV with A-I10: the dealer (Bruno) loses one impériale; he has none: Ana scores one."""
    deal = saved(table)
    ids = entries(table)
    ruling = irregular_rule(deal=deal, decision="penalty", penalty="imperiale_misdeal", offender=ids["Bruno"],
                            reason="", user=user("chef"))
    assert ruling.reason == "Maldonne : le donneur perd la donne et une impériale" and ruling.kind == "misdeal"
    assert dict(ScoreRow.objects.filter(ruling=ruling).values_list("entry__player__name", "points")) == {"Ana": 1}


def test_a_ruling_after_the_results_are_official_is_in_the_public_ledger(table):
    deal = saved(table)
    appeal.round_set_status(round=table.round, status="finished", confirm_unfinished=True)
    RoundClosing.objects.filter(round=table.round).update(official_at=timezone.now() - timedelta(seconds=1))
    ids = entries(table)
    ruling = irregular_rule(deal=deal, decision="penalty", penalty="imperiale_failed_to_take", offender=ids["Bruno"],
                            reason="appel de Bruno rejeté", user=user("chef"))
    entries_ = [e for e in appeal.ledger(table.round.tournament) if e.kind == "ruling"]
    assert len(entries_) == 1
    (entry,) = entries_
    assert (entry.table, entry.deal, entry.who) == (table.number, deal.number, "Claire Arbitre")
    assert "Carte non prise (pouvant la prendre) — appel de Bruno rejeté" in entry.why
    ruling_withdraw(ruling=ruling, reason="erreur de saisie", user=user("chef"))
    withdrawn = [e for e in appeal.ledger(table.round.tournament) if e.kind == "ruling_withdrawn"]
    assert [(e.who, e.why) for e in withdrawn] == [("Claire Arbitre", "erreur de saisie")]


def test_as_played_after_the_results_are_official_is_one_entry_of_the_ledger(table):
    """The deal that joins its match by the ruling is a new version of the deal made by that ruling: the ledger lists
    the ruling once (not the ruling and a « correction » of the same deal), and its withdrawal once."""
    deal = saved(table)
    appeal.round_set_status(round=table.round, status="finished", confirm_unfinished=True)
    RoundClosing.objects.filter(round=table.round).update(official_at=timezone.now() - timedelta(seconds=1))
    ruling = irregular_rule(deal=deal, decision="as_played", reason="renonce vue après coup", user=user("chef"))
    assert [e.kind for e in appeal.ledger(table.round.tournament)] == ["ruling"]
    ruling_withdraw(ruling=ruling, reason="erreur de saisie", user=user("chef"))
    assert sorted(e.kind for e in appeal.ledger(table.round.tournament)) == ["ruling", "ruling_withdrawn"]


def test_a_ruling_withdrawn_calls_the_arbiter_back_to_the_table(table, django_capture_on_commit_callbacks):
    """The table's call was answered by the ruling; withdrawn, the deal waits for a ruling again and the table sees
    the arbiter called again (a new call, the answered one kept as it was)."""
    deal = saved(table)
    ruling = irregular_rule(deal=deal, decision="as_played", reason="renonce vue après coup", user=user("chef"))
    answered = ArbiterCall.objects.get(deal=deal)
    assert answered.state == ArbiterCall.State.RESOLVED
    with django_capture_on_commit_callbacks(execute=True):
        ruling_withdraw(ruling=ruling, reason="la renonce change tout", user=user("chef"))
    calls = list(ArbiterCall.objects.filter(deal=deal).order_by("pk"))
    assert [c.state for c in calls] == [ArbiterCall.State.RESOLVED, ArbiterCall.State.OPEN]
    assert calls[1].note == "Donne 1 : donne irrégulière — décision de l'arbitre attendue"
    assert [d.pk for d in waiting_deals(table.round.tournament)] == [deal.pk]
    # ruled again: the new call is answered with the new decision
    irregular_rule(deal=deal, decision="annul", reason="donne à rejouer", user=user("chef"))
    calls = list(ArbiterCall.objects.filter(deal=deal).order_by("pk"))
    assert [c.state for c in calls] == [ArbiterCall.State.RESOLVED, ArbiterCall.State.RESOLVED]
    assert calls[1].answer.startswith("Décision de l'arbitre : ")
