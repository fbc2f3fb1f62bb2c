"""The score sheets' signatures elide before a vowel: « Signature d'Anaïs Bœuf », « d'Œdipe », « de Bruno » (a walk
read « Signature de Anaïs Bœuf » on the PDF)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from tests.integration.builders import make_round, make_tournament
from tournaments.public import queries

pytestmark = pytest.mark.django_db


def test_the_signatures_elide_before_a_vowel():
    names = ["Anaïs Bœuf", "Bruno Petit", "Œdipe Lœwy", "Élodie Martin"]
    t, e = make_tournament(names, slug="sign")
    (table,) = make_round(t, 1, [[e[n] for n in names]])
    with translation.override("fr"):
        sheets = queries.sheet_tables(t, [table])
        page = render_to_string("print/score_sheets.html", {"tournament": t, "round": table.round, "tables": sheets,
                                                            "lines": queries.sheet_lines(t)})
    for words in ("Signature d’Anaïs Bœuf", "Signature de Bruno Petit", "Signature d’Œdipe Lœwy",
                  "Signature d’Élodie Martin"):
        assert words.replace("’", "'") in page.replace("&#x27;", "'"), words
    assert "Signature de Anaïs" not in page
