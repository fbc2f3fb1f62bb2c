"""An irregular deal of Le Vingt-quatre (RULES.md §5): saved as played with its renonce, counted in no match and no
ranking until ruled, the arbiter called; then each ruling the game offers. The text of the Vingt-quatre
(S003, RULES.md §5) gives no irregularity rule and no penalty: no preset is offered (``scoring/penalties.py``
``GAMES_WITHOUT_PRESETS``); the arbiter counts the deal as played, annuls it, or sets the marks with a reason.

Four players, a partie of 24 points (6 jetons), honours « aux figures » (trump 9 10 V D R). Ana (seat 0) deals,
Bruno (seat 1) is first hand and leads; virade 2♣ (clubs trump; the 2 is not an honour: no retourne jeton).

    Ana   ♠ 3 2 As  ♥ 3 2 As  ♦ 3 2 As  ♣ 7 6 5
    Bruno ♠ R D V   ♥ R D V   ♦ R D V   ♣ R D V
    Chloé ♠ 10 9 8  ♥ 10 9 8  ♦ 10 9 8  ♣ 10 9 8
    David ♠ 7 6 5 4 ♥ 7 6 5 4 ♦ 7 6 5 4 (no club)          talon ♣4 ♣3 ♣As and the virade ♣2

No sequence of five (rule 4b). **Le Point** (rule 4c): David alone has four cards of a suit: 1 jeton.
RENONCE (``must_follow``, rule 6): trick 1 Bruno leads ♠R, Chloé ♠10, **David ♥7 while holding four spades**,
Ana ♠3. Bruno leads R, D, V of each suit in turn and wins every trick (nobody can beat them; David, void in
clubs and without trumps, discards on the clubs). Honours (rule 4d): trick 10 ♣R ♣10 (2 jetons), trick 11 ♣D
♣9 (2), trick 12 ♣V (1): Bruno 5 jetons; la carte (rule 4e), twelve tricks: 1 jeton, his sixth — 24 points, the
partie won at that mark (rule 5). **As played: Ana 0, Bruno 6, Chloé 0, David 1 jetons.**
"""

from __future__ import annotations

import pytest

from tests.tournaments.deals.irregular import entries, match, ranked, staffed_table, user
from tests.tournaments.factories import TournamentFactory
from tournaments.common import games
from tournaments.common.errors import InvalidInput, StateConflict
from tournaments.deals.models import Deal, Ruling, ScoreRow
from tournaments.deals.record import deal_record
from tournaments.deals.rulings import irregular_rule, irregular_waiting, ruling_withdraw
from tournaments.desk.irregular import waiting_deals
from tournaments.links.models import ArbiterCall

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Bruno", "Chloé", "David"]
HANDS = [["3S", "2S", "AS", "3H", "2H", "AH", "3D", "2D", "AD", "7C", "6C", "5C"],
         ["KS", "QS", "JS", "KH", "QH", "JH", "KD", "QD", "JD", "KC", "QC", "JC"],
         ["10S", "9S", "8S", "10H", "9H", "8H", "10D", "9D", "8D", "10C", "9C", "8C"],
         ["7S", "6S", "5S", "4S", "7H", "6H", "5H", "4H", "7D", "6D", "5D", "4D"]]
TRICKS = [["KS", "10S", "7H", "3S"], ["QS", "9S", "7S", "2S"], ["JS", "8S", "6S", "AS"],
          ["KH", "10H", "6H", "3H"], ["QH", "9H", "5H", "2H"], ["JH", "8H", "4H", "AH"],
          ["KD", "10D", "7D", "3D"], ["QD", "9D", "6D", "2D"], ["JD", "8D", "5D", "AD"],
          ["KC", "10C", "5S", "7C"], ["QC", "9C", "4S", "6C"], ["JC", "8C", "4D", "5C"]]
RENONCE = {"dealer": 0, "turn_up": "2C", "hands": HANDS, "tricks": TRICKS}


@pytest.fixture
def table():
    return staffed_table(TournamentFactory(game="vingt-quatre", options={"players": 4, "honours": "figures",
                                                                         "target": 24}), NAMES)


def saved(table) -> Deal:
    return deal_record(table=table, record=RENONCE, user=user("arbitre"), irregular=True)


def test_a_renonce_is_saved_irregular_out_of_the_match_and_calls_the_arbiter(table):
    deal = saved(table)
    assert deal.status == Deal.Status.IRREGULAR
    (found,) = deal.verdict["violations"]
    assert (found["rule"], found["trick"], found["seat"], found["card"]) == ("must_follow", 0, 3, "7H")
    assert found["message"] == "Pli 1 : David doit fournir à pique : sa main contient le 7 de pique."
    assert deal.verdict["deals"][0]["scores"] == [0, 6, 0, 1]
    assert dict(ScoreRow.objects.filter(deal=deal).values_list("entry__player__name", "points")) == {
        "Ana": 0, "Bruno": 6, "Chloé": 0, "David": 1}
    assert not ScoreRow.objects.filter(counts=True).exists()
    assert match(table) == (None, False, None) and ranked(table) == []
    assert irregular_waiting(deal) and waiting_deals(table.round.tournament) == [deal]
    call = ArbiterCall.objects.get(deal=deal)
    assert call.state == ArbiterCall.State.OPEN and call.reason == ArbiterCall.Reason.RENONCE


def test_no_penalty_is_offered_the_text_gives_none(table):
    tournament = table.round.tournament
    assert games.irregular_decisions(tournament.game, tournament.record_options()) == (
        "as_played", "annul", "adjustment")
    assert games.penalty_presets(tournament.game, tournament.record_options()) == ()
    deal = saved(table)
    for decision in ("penalty", "let_stand", "replay"):
        with pytest.raises(InvalidInput) as caught:
            irregular_rule(deal=deal, decision=decision, reason="x", user=user("chef"),
                           penalty="imperiale_failed_to_take", offender=entries(table)["David"])
        assert caught.value.field == "decision"
    assert not Ruling.objects.exists()


def test_as_played_bruno_wins_the_partie(table):
    deal = saved(table)
    ruling = irregular_rule(deal=deal, decision="as_played", reason="", user=user("chef"))
    assert ruling.created_by == user("chef") and ruling.reason == "Donne comptée telle que jouée"
    call = ArbiterCall.objects.get(deal=deal)  # answered by the ruling
    assert call.state == ArbiterCall.State.RESOLVED
    assert call.answer == "Décision de l'arbitre : Donne comptée telle que jouée"
    # 0, 6, 0, 1 jetons (the module's docstring): Bruno's sixth jeton, 24 points, wins the match of one partie
    assert match(table) == ([0, 6, 0, 1], True, 1)
    assert [(name, rank) for name, rank, _ in ranked(table)] == [("Bruno", 1)]
    assert not irregular_waiting(deal)
    with pytest.raises(StateConflict):
        irregular_rule(deal=deal, decision="annul", reason="", user=user("chef"))
    # withdrawn: the partie is open again, the deal waits
    ruling_withdraw(ruling=ruling, reason="décision prise trop vite", user=user("chef"))
    assert match(table) == (None, False, None) and ranked(table) == [] and irregular_waiting(deal)
    assert Ruling.objects.get().history.count() == 2


def test_annulled_nobody_scores(table):
    deal = saved(table)
    irregular_rule(deal=deal, decision="annul", reason="donne à refaire", user=user("chef"))
    deal.refresh_from_db()
    assert deal.status == Deal.Status.ANNULLED
    assert match(table) == (None, False, None) and ranked(table) == []


def test_marks_set_by_the_arbiter_with_a_reason(table):
    """The arbiter keeps the deal's marks but takes away David's Point, the jeton of the offender's hand: Bruno 6
    jetons (the partie, 24 points), nobody else anything."""
    deal = saved(table)
    ids = entries(table)
    with pytest.raises(InvalidInput) as caught:
        irregular_rule(deal=deal, decision="adjustment", reason=" ", user=user("chef"), adjustments={ids["Bruno"]: 6})
    assert caught.value.field == "reason"
    ruling = irregular_rule(deal=deal, decision="adjustment", reason="renonce de David : son Point ne compte pas",
                            user=user("chef"), adjustments={ids["Bruno"]: 6})
    assert ruling.reason == "Marques fixées par l'arbitre — renonce de David : son Point ne compte pas"
    assert dict(ScoreRow.objects.filter(ruling=ruling).values_list("entry__player__name", "points")) == {"Bruno": 6}
    assert match(table) == ([0, 6, 0, 0], True, 1)
    assert [(name, rank) for name, rank, _ in ranked(table)] == [("Bruno", 1)]
