"""A deal's result for people (scoring/explain.py and each game's ``explain``): results written by hand from the
rule texts, their explanation checked word for word, in French and in English."""

from __future__ import annotations

import pytest

from scoring import ecarte, imperiale, tarot, triomphe, vingt_quatre
from scoring.explain import explain, explain_marks, explain_verdict

PLAYERS = ["Ana", "Bruno", "Chloé", "David"]


def test_every_game_has_its_explain():
    for module in (tarot, triomphe, imperiale, vingt_quatre, ecarte):
        assert callable(module.explain)
    assert triomphe.explain is explain_marks


def test_a_tarot_garde_made_at_five_with_a_called_king():
    """Garde (×2) by Bruno at five, the R♥ called (Chloé), David the mort; 2 bouts and 45,5 points: 41 needed,
    made by 4,5 → diff 5 (the half point to the winning side, A-T7): S = (25 + 5) × 2 = 60 (RULES.md §1.11)."""
    result = {"contract": "garde", "coefficient": 2, "taker": 1, "partner": 2, "called": "KH", "mort": 3,
              "bouts": 2, "points": "45.5", "needed": 41, "made": True, "margin_half": 9, "petit_au_bout": None,
              "handfuls": [], "chelem": None, "chelem_announced": False, "chelem_term": 0, "S": 60,
              "source": "summary"}
    players = [*PLAYERS, "Émile"]
    fr = tarot.explain(result, players, "fr")
    assert fr.headline == "Bruno · Garde"
    assert fr.lines == [("Contrat", "Garde (×2)"), ("Preneur", "Bruno"), ("Roi appelé", "roi de cœur"),
                        ("Partenaire", "Chloé"), ("Mort (ne joue pas)", "David"), ("Bouts", "2"),
                        ("Points", "45,5"), ("Points nécessaires", "41"),
                        ("Résultat", "passé de 5 (4,5 arrondi au point)"),
                        ("Petit au bout", "non"), ("Poignées", "aucune"), ("Chelem", "non"),
                        ("Marque de chaque défenseur", "-60"), ("Saisie", "résumé")]
    en = dict(tarot.explain(result, players, "en").lines)
    assert en["Result"] == "made by 5 (4.5 rounded up)" and en["Called king"] == "king of hearts"
    assert en["Entered"] == "summary"


def test_a_tarot_chelem_announced_and_made_and_a_poignee():
    """Garde sans (×4), 3 bouts, 91 points, every trick: 36 needed, made by 55: (25 + 55) × 4 = 320, petit au
    bout 10 × 4 = 40, a double poignée 30 for the attack, chelem announced and made +400 (RULES.md §1.11):
    S = 320 + 40 + 30 + 400 = 790."""
    result = {"contract": "garde_sans", "coefficient": 4, "taker": 0, "bouts": 3, "points": "91", "needed": 36,
              "made": True, "margin_half": 110, "petit_au_bout": "attack",
              "handfuls": [{"seat": 0, "size": "double", "value": 30}], "chelem": "attack",
              "chelem_announced": True, "chelem_term": 400, "S": 790, "source": "tricks"}
    lines = dict(tarot.explain(result, PLAYERS, "fr").lines)
    assert lines["Contrat"] == "Garde sans (×4)" and lines["Résultat"] == "passé de 55"
    assert lines["Poignées"] == "Ana : double (30)" and lines["Petit au bout"] == "gagné par le camp du preneur"
    assert lines["Chelem"] == "réalisé par le camp du preneur · annoncé (+400)" and lines["Saisie"] == "pli par pli"
    en = dict(tarot.explain(result, PLAYERS, "en").lines)
    assert en["Chelem"] == "made by the taker's side · announced (+400)" and en["Poignées"] == "Ana: double (30)"


def test_an_unscored_tarot_deal_explains_nothing():
    assert not tarot.explain({"reason": "unfinished", "tricks": 3}, PLAYERS, "fr")
    assert tarot.explain({"reason": "unfinished"}, PLAYERS, "fr").headline == ""


def test_triomphe_marks_in_order():
    """A vole (every trick, 2 points) by Bruno's side at two (RULES.md §2)."""
    result = {"tricks": [0, 5], "marks": [{"kind": "vole", "seats": [1], "points": 2}]}
    out = triomphe.explain(result, ["Ana", "Bruno"], "fr")
    assert out.headline == "" and out.lines == []
    assert out.marks_head == ["n°", "Marque", "Qui", "Points"]
    assert out.marks == [(["1", "vole (toutes les levées)", "Bruno", "+2"], "")]
    assert triomphe.explain(result, ["Ana", "Bruno"], "en").marks == [(["1", "vole (every trick)", "Bruno", "+2"], "")]


def test_imperiale_jetons_fiches_and_a_wipe():
    """Ana turns up a king (1 jeton), then Bruno scores an impériale d'emblée (1 fiche) that wipes Ana's jeton
    (rule 13: a new impériale erases the opponents' jetons)."""
    result = {"marks": [
        {"step": "retourne", "seat": 0, "jetons": 1, "fiches": 0, "after": {"fiches": [0, 0], "jetons": [1, 0]}},
        {"step": "imperiale_carre", "seat": 1, "jetons": 0, "fiches": 1, "wiped": {"0": 1},
         "after": {"fiches": [0, 1], "jetons": [0, 0]}},
    ]}
    fr = imperiale.explain(result, ["Ana", "Bruno"], "fr")
    # the walk: « après : Œdipe Lefèvre-Cœurderoy 0/1 · Marie-Bernadette … (fiches/jetons) » under every mark ran
    # the deal page to 2,500 px on a phone: each one's fiches/jetons in a column of his, his name once in the head
    assert fr.marks_head == ["n°", "Marque", "Qui", "Gain", "Ana", "Bruno"]
    assert fr.running_head == ["Ana", "Bruno"]
    assert fr.running_caption == "Après chaque marque : fiches/jetons de chacun."
    assert fr.marks == [
        (["1", "retourne", "Ana", "+1 jeton", "0/1", "0/0"], ""),
        (["2", "impériale : carré — efface Ana (1)", "Bruno", "+1 fiche", "0/0", "1/0"], ""),
    ]
    en = imperiale.explain(result, ["Ana", "Bruno"], "en")
    assert en.marks[1][0][1] == "impériale: four of a kind — wipes Ana (1)"
    assert en.marks[0] == (["1", "turn-up", "Ana", "+1 jeton", "0/1", "0/0"], "")
    assert en.running_caption == "After each mark: each one's fiches/jetons."


def test_a_mark_not_counted_and_several_jetons():
    result = {"marks": [{"step": "honours", "seat": 2, "jetons": 3, "fiches": 0, "counted": False}]}
    out = vingt_quatre.explain(result, PLAYERS, "fr")
    assert out.marks == [(["1", "honneurs (non comptée)", "Chloé", "+3 jetons"], "")]


def test_the_verdict_s_last_deal_is_explained_by_its_game():
    verdict = {"deals": [{"result": {"marks": [{"kind": "point", "seats": [0], "points": 1}]}},
                         {"result": {"marks": [{"kind": "king", "seats": [1], "points": 1}]}}]}
    assert explain_verdict("ecarte", verdict, ["Ana", "Bruno"], "fr").marks == [(["1", "roi annoncé", "Bruno",
                                                                                  "+1"], "")]
    assert not explain_verdict("ecarte", {}, ["Ana", "Bruno"])
    assert not explain("belote", {"marks": [{"kind": "point"}]}, ["Ana", "Bruno"])


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_unknown_mark_is_shown_by_its_name(lang):
    out = explain_marks({"marks": [{"kind": "new_rule", "seats": [0], "points": -1}]}, ["Ana"], lang)
    assert out.marks[0][0][1:] == ["new rule", "Ana", "-1"]


def test_vingt_quatre_says_jetons_and_partie_never_fiches_nor_imperiale():
    """Le Vingt-quatre's own words (RULES.md §5: jetons, the partie won at 24 points), not L'Impériale's."""
    from rules.game import get_game
    from scoring.explain import explain as explain_game

    result = {"marks": [{"step": "honours", "seat": 1, "jetons": 6, "fiches": 1,
                         "after": {"fiches": [0, 1], "jetons": [0, 0]}}]}
    e = explain_game("vingt-quatre", result, ["Ana", "Bruno"], "fr")
    text = repr(e.marks)
    assert "+6 jetons" in text and "+1 partie gagnée" in text and "après : Ana 0 · Bruno 0 (jetons)" in text
    assert "fiche" not in text
    form = get_game("vingt-quatre").entry_form(None).to_json()
    assert "impériale" not in str(form) and "fiche" not in str(form)


def test_tarot_at_three_half_point_shown_as_the_mark_counts_it():
    """A-T7: a stray half point is rounded up; 40,5 points for 41 needed is « chuté de 1 », as the mark."""
    from scoring.tarot import explain as explain_tarot

    e = explain_tarot({"margin_half": -1, "made": False, "points": 40.5, "needed": 41, "bouts": 2, "taker": 0,
                       "contract": "garde"}, ["Ana", "Bruno", "Chloé"], "fr")
    assert dict(e.lines)["Résultat"] == "chuté de 1 (0,5 arrondi au point)"
