from scoring.sheets import deal_columns


def test_the_tarot_sheet_has_the_columns_an_arbiter_fills():
    titles = [c.title for c in deal_columns("tarot", 4)]
    assert titles == ["Preneur", "Contrat", "Bouts", "Points", "Poignées", "Petit au bout", "Chelem"]


def test_a_table_of_five_adds_the_king_only_when_it_is_called():
    assert "Roi appelé" not in [c.title for c in deal_columns("tarot", 5)]  # « mort » by default
    assert "Roi appelé" in [c.title for c in deal_columns("tarot", 5, {"five": "called_king"})]
    assert "Roi appelé" not in [c.title for c in deal_columns("tarot", 4, {"five": "called_king"})]


def test_match_games_write_the_dealer_and_the_declarations():
    assert [c.title for c in deal_columns("ecarte", 2)] == ["Donneur", "Déclarations"]
