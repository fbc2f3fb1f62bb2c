"""A player made anonymous on request (GDPR, ``tournaments.event.register.player_anonymize``): what the public pages
keep that shows his name is dropped, and rendered again under his anonymous name.

What is kept, and so what may show his old name: the files of the tournaments he played (their PDFs, results CSV,
public and staff results files, the API's exports of their deals, :mod:`tournaments.common.files`), the files of the
championships those tournaments count in (their PDF and CSVs, :mod:`seasons`) and their seasons' exports, and in the
pages' cache (:mod:`kept`) those tournaments' pages and snapshot rows, those championships' pages, and the pages
across events of every player who met him there (a « pourquoi ce rang » may name the player he was separated from).
:func:`player_anonymized` (the ``player_anonymized`` port's subscriber, ``apps.py``) drops them all once the
anonymisation commits; the new states render them again (the tournaments are published again by the anonymisation
itself, the championships by ``tournaments.seasons.tasks``). Meanwhile a reader gets « document en préparation »,
never an older file: the older files of a download (:mod:`tournaments.common.downloads`, served while a newer state
renders) are gone too. A render that had already started when he was made anonymous may still write its file
afterwards, under the older state's key: it is removed when the new state's file of the same document is written
(within the quiet delay of a publication and the render's time), and no cached page is affected (their keys hold the
snapshots).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable

from django.db import transaction

from tournaments.common import files, kept
from tournaments.event.models import Entry
from tournaments.operations import exports
from tournaments.public import clubs, published, queries
from tournaments.seasons.models import Championship, ChampionshipLine, ChampionshipSnapshot
from tournaments.standings.models import RankingSnapshot

log = logging.getLogger(__name__)


def _remove_files(folders: Iterable) -> int:
    """Remove the kept files (not the claims of renders running) of ``folders``; how many."""
    removed = 0
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.iterdir():
            if path.is_file() and path.suffix != ".claim":
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                    removed += 1
    return removed


def forget(tournament_ids: set[int], championship_ids: set[int], player_ids: set[int]) -> int:
    """Drop what is kept of these tournaments, championships and players' pages; how many files and entries."""
    from tournaments.public import seasons  # the season pages import this package's views

    season_ids = set(Championship.objects.filter(pk__in=championship_ids).values_list("season_id", flat=True))
    removed = _remove_files([files.root() / str(t) for t in sorted(tournament_ids)]
                            + [seasons.folder(c) for c in sorted(championship_ids)]
                            + [files.root() / exports.season_folder(s) for s in sorted(season_ids)])
    snapshots = RankingSnapshot.objects.filter(tournament_id__in=tournament_ids).values_list("pk", flat=True)
    prefixes = ([f"levee:public:{t}:" for t in sorted(tournament_ids)]
                + [f"levee:ranking:{s}:" for s in snapshots]
                + [f"levee:championship:{c}:" for c in sorted(championship_ids)]
                + [f"levee:player:{p}:" for p in sorted(player_ids)]
                + [clubs.PREFIX])  # every club's page: the one that listed him among its members
    removed += kept.drop(prefixes)
    removed += published.forget_kept(prefixes)
    removed += queries.forget_rows(prefixes)
    return removed


def player_anonymized(player_id: int, old_name: str, new_name: str) -> None:
    """The ``player_anonymized`` port's subscriber (inside the anonymisation's transaction): once it commits, what
    is kept of his tournaments, their championships and the pages of the players he met there is dropped."""
    tournaments = set(Entry.objects.filter(player_id=player_id).values_list("tournament_id", flat=True))
    champs = set(Championship.objects.filter(tournaments__in=tournaments).values_list("pk", flat=True))
    # and those that ranked him once (a tournament counted then, no longer)
    champs |= set(ChampionshipLine.objects.filter(player_id=player_id).values_list("snapshot__championship_id",
                                                                                   flat=True))
    # the players who met him there, or are ranked with him
    players = set(Entry.objects.filter(tournament_id__in=tournaments).values_list("player_id", flat=True))
    players |= {int(row[1]) for inputs in ChampionshipSnapshot.objects.filter(championship_id__in=champs)
                .values_list("inputs", flat=True) for row in inputs}
    players.add(player_id)

    def drop() -> None:
        try:
            removed = forget(tournaments, champs, players)
        except Exception:  # the anonymisation is committed: the new states' renders replace what is left
            log.exception("what is kept of player %s could not all be dropped", player_id)
        else:
            log.info("player %s made anonymous: %s kept files and cached pages dropped", player_id, removed)

    transaction.on_commit(drop)
