"""Any ranking snapshot rebuilt from its own inputs and options: the individual, team and match kinds of
:mod:`scoring.ranking`, duplicate's (:mod:`scoring.duplicate`, which builds on the former) and a
season's championship (:mod:`scoring.championship`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


def percent_metrics(kind: str, options: Mapping[str, Any]) -> frozenset[str]:
    """The metrics of a snapshot of ``kind`` (with its ``options``) that are percentages: shown with « % »."""
    if kind in DUPLICATE_KINDS:
        return duplicate.percent_metrics(kind, options)
    return frozenset()
