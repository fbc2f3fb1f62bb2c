"""The Swiss pairing of a game of two knows every pair that sat together, not only the matches that ended: a walk's
Impériale of six players ended round 1 with two games unfinished, and round 2 paired two of their players again
(« 1 paire s'est rencontrée plus d'une fois ») while a draw without any rematch existed."""

from __future__ import annotations

from itertools import permutations

import pytest

from tests.integration.builders import end_match, make_round, make_tournament
from tournaments.event.models import Round
from tournaments.standings import draw as seating_service

pytestmark = pytest.mark.django_db

NAMES = ["Aurélien", "Marie-Bernadette", "Héloïse", "Jean-Loup", "Œdipe", "Clémence"]


def _pairs(rnd: Round) -> set[frozenset[str]]:
    return {frozenset(s.entry.player.name for s in t.seats.select_related("entry__player"))
            for t in rnd.tables.all() if t.seats.count() == 2}


@pytest.mark.parametrize("finished", [0, 1, 2, 3])
def test_no_rematch_while_one_can_be_avoided_whatever_ended(finished):
    for first in permutations(range(3)):  # which tables of round 1 ended, in every order
        t, e = make_tournament(NAMES, game="imperiale", slug=f"imp-{finished}-{''.join(map(str, first))}")
        tables = make_round(t, 1, [[e[NAMES[0]], e[NAMES[1]]], [e[NAMES[2]], e[NAMES[3]]],
                                   [e[NAMES[4]], e[NAMES[5]]]], released=False)
        for k in first[:finished]:
            end_match(tables[k], [5, 2], 0)
        Round.objects.filter(tournament=t, number=1).update(status=Round.Status.FINISHED)
        r2 = Round.objects.create(tournament=t, number=2)
        seating_service.round_draw(round=r2, method="swiss")
        assert len(_pairs(r2)) == 3
        met = {frozenset((NAMES[i], NAMES[i + 1])) for i in (0, 2, 4)}
        assert not met & _pairs(r2), f"a rematch with {finished} of 3 matches ended: {met & _pairs(r2)}"
