"""« de » elided before a name beginning with a vowel, in French only (the walk: « Inscription de Éloïse »)."""

from __future__ import annotations

from django.utils import translation

from tournaments.common.elision import with_name


def test_de_is_elided_before_a_vowel_in_french():
    with translation.override("fr"):
        assert with_name("Inscription de %(name)s retirée.", "Éloïse Œillet") == "Inscription d'Éloïse Œillet retirée."
        assert with_name("Abandon de %(name)s.", "Ana") == "Abandon d'Ana."
        assert with_name("Abandon de %(name)s.", "Bruno") == "Abandon de Bruno."
        assert with_name("Abandon de %(name)s.", "Hélène") == "Abandon de Hélène."  # h: left as written
        assert with_name("La licence %(licence)s est celle de %(name)s.", "Yves", licence="77") == \
            "La licence 77 est celle d'Yves."


def test_the_english_text_is_left_as_it_is():
    with translation.override("en"):
        assert with_name("Entry of %(name)s removed.", "Éloïse") == "Entry of Éloïse removed."
