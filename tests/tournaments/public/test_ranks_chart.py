"""A player's ranks across tournaments: the chart's axes say what their numbers are, in French (the walk saw
« 1 6 6 1 » bare beside a single point)."""

from __future__ import annotations

import re

from django.utils import translation

from tournaments.public.chart import ranks_svg


def texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_the_ranks_chart_names_its_axes():
    with translation.override("fr"):
        svg = str(ranks_svg([("Coupe de l'Impériale", 6, 6)], title="Rangs"))
    said = texts(svg)
    assert "rang" in said and "tournoi" in said
    # the 1st place and the field's size on the rank axis, the tournament's number under its point
    assert said.count("1") == 2 and said.count("6") == 2
    with translation.override("en"):
        english = texts(str(ranks_svg([("Open", 1, 8), ("Coupe", 4, 6)], title="Ranks")))
    assert "rank" in english and "tournament" in english


def test_the_running_total_chart_names_its_axes():
    """The public player page's chart: the total's unit over its axis (the game's: « impériales »), « donnes »
    under the deals; without a unit, as before."""
    from tournaments.public.chart import running_total_svg

    with translation.override("fr"):
        said = texts(str(running_total_svg([1, 0, 2], unit="impériales")))
    assert "impériales" in said and "donnes" in said
    assert "donnes" not in texts(str(running_total_svg([1, 0, 2])))
