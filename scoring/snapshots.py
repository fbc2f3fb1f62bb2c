"""Any ranking snapshot rebuilt from its own inputs and options: the individual, team and match kinds of
:mod:`scoring.ranking`, duplicate's (:mod:`scoring.duplicate`, which builds on the former) and a
season's championship (:mod:`scoring.championship`)."""

from __future__ import annotations

from scoring import championship, duplicate, ranking
from scoring.ranking import RankingSnapshot

DUPLICATE_KINDS = frozenset({"duplicate", "duplicate_teams"})


def regenerate(snapshot: RankingSnapshot) -> RankingSnapshot:
    """The snapshot rebuilt from its own inputs and options; it must come out identical."""
    if snapshot.kind == championship.KIND:
        return championship.regenerate(snapshot)
    if snapshot.kind in DUPLICATE_KINDS:
        return duplicate.regenerate(snapshot)
    return ranking.regenerate(snapshot)
