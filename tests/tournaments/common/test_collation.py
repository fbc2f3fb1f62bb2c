from tournaments.common.collation import french_key, french_sorted


def test_accented_capitals_sort_with_their_letter():
    assert french_sorted(["Karim", "Élodie", "zoé", "Emma", "Œdipe", "Odile"]) == [
        "Élodie", "Emma", "Karim", "Odile", "Œdipe", "zoé"]


def test_case_and_hyphens_do_not_split_a_family():
    assert french_sorted(["Martin-Roux", "martin", "Martin Roux", "Marty"]) == [
        "martin", "Martin Roux", "Martin-Roux", "Marty"]


def test_equal_letters_fall_back_on_the_text():
    assert french_key("côte")[0] == french_key("cote")[0] == "cote"
    assert french_sorted(["côte", "cote"]) == ["cote", "côte"]


def test_a_slug_keeps_the_ligatures_as_two_letters():
    from tournaments.common.collation import french_slug

    # Django's slugify alone makes « Coupe Œcuménique » « coupe-cumenique »
    assert french_slug("Coupe Œcuménique de Triomphe") == "coupe-oecumenique-de-triomphe"
    assert french_slug("Trophée Lætitia Groß") == "trophee-laetitia-gross"
