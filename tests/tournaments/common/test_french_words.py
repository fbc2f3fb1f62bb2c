from tournaments.templatetags.french_words import field_words


def test_record_paths_become_words_of_the_table():
    assert field_words("summary.points") == "points du preneur"
    assert field_words("summary.oudlers") == "bouts"
    assert field_words("bid.contract") == "enchère, contrat"
    assert field_words("handfuls[0].size") == "poignée 1, taille"
    assert field_words("tricks[3][1]") == "pli 4, carte 2"
    assert field_words("options.five") == "conventions, jeu à cinq"
