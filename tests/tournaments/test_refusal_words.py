"""A refusal names where the problem is in the table's words, never a bare field name (issue 19 item 5)."""

from __future__ import annotations

from django.utils import translation

from tournaments.desk.refusals import describe_field


def test_where_in_words_and_no_bare_field_name():
    with translation.override("fr"):
        assert describe_field("tournament", ["Ana", "Bruno"]) == ""
        assert describe_field("tricks[3][1]", ["Ana", "Bruno"]).startswith("Pli 4")
        assert "tournament" not in describe_field("tournament.status", ["Ana", "Bruno"])
