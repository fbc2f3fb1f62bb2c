"""A tournament's conventions shown in words, in the reader's language."""

from __future__ import annotations

from django.utils import translation

from tournaments.templatetags.conventions import conventions


def test_triomphe_conventions_in_french_and_english():
    with translation.override("fr"):
        assert conventions({"mode": "forcee", "order": "1725"}) == ["forcée", "R D V As 10 9 8 7 (1725)"]
    with translation.override("en"):
        assert conventions({"mode": "forcat", "as_qui_pille": True}) == ["au forçat", "As qui pille"]


def test_other_conventions():
    with translation.override("fr"):
        assert conventions({"players": 5, "five": "called_king"}) == ["Joueurs par table 5",
                                                                      "roi appelé (15 cartes chacun)"]
        assert conventions({"penalty_imperiale": True}) == ["penalty_imperiale=True"]
        assert conventions(None) == []
