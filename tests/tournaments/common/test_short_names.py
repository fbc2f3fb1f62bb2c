"""The players' names at the head of a narrow score sheet (``names.short_name``) and the places where a long name may
break on a phone (``names.breakable``). The walk: « Mari / Fran / Herv / Maxi » on the table page, « Marie-B. /
Françoi. / Maximil. » on the deal's page."""

from __future__ import annotations

import pytest

from tournaments.templatetags.names import breakable, name_words, short_name

SHY = "\u00ad"


@pytest.mark.parametrize(("name", "length", "expected"), [
    ("Anne Moreau", 8, "Anne"),                       # a first name that fits: whole
    ("François Lefèvre", 8, "François"),
    ("Hervé Dupont", 8, "Hervé"),
    ("Françoise Martin", 10, "Françoise"),
    ("Maximilien Robespierre", 10, "Maximilien"),
    ("Marie-Bernadette Delacroix-Montfort", 10, "Marie-B."),  # compound: the first part, the second's initial
    ("Marie-Bernadette Delacroix-Montfort", 8, "Marie-B."),
    ("Jean-Édouard Lœwenbruck-Œhlenschläger", 8, "Jean-É."),
    ("Jean-Édouard Lœwenbruck-Œhlenschläger", 12, "Jean-Édouard"),
    ("Maximilien Robespierre", 8, "Maximil."),         # too long: cut after a consonant, before a vowel, with a dot
    ("Françoise Martin", 8, "Franç."),
    ("Bartholomew Smith", 8, "Barthol."),
    ("Anne Moreau", 6, "Anne"),                       # a phone's column at a table of four
    ("Marie-Bernadette Delacroix-Montfort", 6, "M.-B."),
    ("Jean-Édouard Lœwenbruck-Œhlenschläger", 6, "J.-É."),
    ("Maximilien Robespierre", 6, "Maxim."),
    ("François Lefèvre", 6, "Franç."),
    ("", 8, ""),
])
def test_a_short_name_keeps_the_first_name_whole_where_it_fits(name, length, expected):
    assert short_name(name, length) == expected
    assert len(short_name(name, length)) <= length


def test_a_long_word_of_a_name_may_break_only_between_its_syllables():
    """Soft hyphens in the words too long for a phone's column (a break there shows a hyphen); the spaces and the
    name's own hyphens stay the first places to break; short words are left whole."""
    assert breakable("La Rochefoucauld-Liancourt") == f"La Ro{SHY}che{SHY}fou{SHY}cauld-Lian{SHY}court"
    assert breakable("Lœwenbruck-Œhlenschläger").replace(SHY, "|") == "Lœ|wen|bruck-Œh|len|schlä|ger"
    assert breakable("Wolfgangmontfortstrasse").replace(SHY, "|") == "Wolf|gang|mont|fort|stras|se"
    assert breakable("Émilie Fournier").replace(SHY, "|") == "Émilie Four|nier"
    assert breakable("Anne Moreau") == "Anne Moreau"


def test_each_word_of_a_name_is_a_box_of_its_own():
    """The name breaks between its words and at its own hyphens first (each piece an inline box), inside a piece
    only when that piece cannot fit a line of its own."""
    assert name_words("Marie-Bernadette Delacroix-Montfort").replace(SHY, "|") == (
        '<span class="w">Marie-</span><span class="w">Ber|na|det|te</span> '
        '<span class="w">De|la|croix-</span><span class="w">Mont|fort</span>')
    assert name_words("Anne <b>") == '<span class="w">Anne</span> <span class="w">&lt;b&gt;</span>'
    assert name_words("") == ""
