"""A championship's ranking: its inputs read from the counted tournaments' published rankings, ranked by
:mod:`scoring.championship`, published as an immutable snapshot (regenerable, explainable, compared).

* :func:`championship_results` — each player's result at each counted tournament, from that tournament's latest
  published snapshot (its individual lines: the rank, whether shared, the field, the primary total).
* :func:`championship_publish` — ranks them under the championship's rules and writes a new snapshot when the
  inputs or the rules changed (the championship's row locked: two tournaments publishing at once give two
  versions in order, never the same one twice).
* :func:`snapshot_ranking` — a stored snapshot rebuilt from its own inputs (and checked against its digest).
* :func:`categories` — the categories' members (jeunes, seniors by age at the season's start; dames by the sex of
  the player's licence in the federation's file, or its category when the file gave no sex; séries by the
  licence's category).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import championship as pure
from scoring import ranking as pure_ranking
from scoring import snapshots as pure_snapshots
from tournaments.clubs.models import Licence
from tournaments.common import kept
from tournaments.common.collation import french_slug
from tournaments.event.models import Entry, Player, Tournament
from tournaments.seasons.models import Championship, ChampionshipLine, ChampionshipSnapshot
from tournaments.standings import rankings
from tournaments.standings.models import RankingSnapshot
from tournaments.standings.rankings import metric_value

#: the categories an organizer may publish beside the general ranking, with their French names
CATEGORY_CHOICES = (
    ("jeunes", gettext_lazy("Juniors (under 18 at the start of the season)")),
    ("seniors", gettext_lazy("Seniors (60 and over at the start of the season)")),
    ("dames", gettext_lazy("Dames (le sexe du fichier des licences ; à défaut, sa catégorie « Dames »)")),
    ("series", gettext_lazy("Séries (the licence's série)")),
)
JUNIOR_UNDER, SENIOR_FROM = 18, 60
DAMES = frozenset({"d", "dame", "dames", "f", "féminine", "feminine"})


def is_dame(sex: str, category: str) -> bool:
    """The « dames » category: the sex of the federation's file (« sexe » or « civilité ») when it gave one; a
    licence imported without it falls back on its category (« Dames », « D », « F »)."""
    if sex:
        return sex == Licence.Sex.FEMALE
    return category.strip().lower() in DAMES


def rules_of(championship: Championship) -> pure.Rules:
    """The championship's rules; raises :class:`scoring.championship.ChampionshipError` naming the field."""
    return pure.Rules(pure.PointsTable.from_data(championship.table or {}), best=championship.best,
                      minimum=championship.minimum, tie_breaks=tuple(championship.tie_breaks or ()))


def _order(tournament: Tournament) -> int:
    return tournament.date.toordinal() if tournament.date else 0


def championship_results(championship: Championship) -> tuple[list[pure.Result], list[list[int]]]:
    """The results of every player at every counted tournament with a published ranking, and the tournaments
    read with the version of their ranking (``[[id, version], …]``)."""
    counted = list(championship.tournaments.order_by("date", "id"))
    latest = dict(RankingSnapshot.objects.filter(tournament__in=counted).values("tournament_id")
                  .annotate(v=Max("input_version")).values_list("tournament_id", "v"))
    snaps = {s.tournament_id: s for s in RankingSnapshot.objects.filter(
        tournament__in=counted, input_version__in=set(latest.values())).only("id", "tournament_id", "input_version",
                                                                            "criteria", "created_at")
        if latest.get(s.tournament_id) == s.input_version}
    results: list[pure.Result] = []
    read: list[list[int]] = []
    for tournament in counted:
        snap = snaps.get(tournament.pk)
        if snap is None:
            continue
        read.append([tournament.pk, snap.input_version])
        primary = (snap.criteria or ["marks"])[0]
        # the lines of the entries still there (one deleted since is not ranked: its row once cascaded away)
        player_of = dict(Entry.objects.filter(tournament_id=tournament.pk).values_list("id", "player_id"))
        lines = [(line.rank, player_of[line.entry_id], line.metrics) for line in rankings.snapshot_lines(snap)
                 if line.entry_id in player_of]
        if not lines:
            continue
        if len({rank for rank, _p, _m in lines}) == 1 and not any(
                metric_value(dict(m).get(primary)) for _r, _p, m in lines):
            # nothing published yet (every line first, every mark nil): nothing to count (a walk saw a tournament
            # whose rounds were played but not published give its eight players « 1er ex » and points)
            continue
        field = len(lines)
        per_rank: dict[int, int] = {}
        for rank, _player, _m in lines:
            per_rank[rank] = per_rank.get(rank, 0) + 1
        seen: set[int] = set()
        for rank, player, metrics in lines:
            if player in seen:  # one player twice (an entry that replaced his own): his best line counts
                continue
            seen.add(player)
            marks = dict(metrics).get(primary)
            value = metric_value(marks) if marks is not None else 0
            results.append(pure.Result(player, tournament.pk, _order(tournament), rank=rank, field=field,
                                       marks=value if value is not None else 0, shared=per_rank[rank]))
    return results, read


def compute(championship: Championship) -> tuple[pure_ranking.RankingSnapshot, list[list[int]]]:
    results, read = championship_results(championship)
    return pure.rank_championship(results, rules_of(championship)), read


def latest_snapshot(championship_id: int, *, light: bool = False) -> ChampionshipSnapshot | None:
    """The championship's latest published snapshot; ``light``: its inputs (every player's every result: megabytes
    at 10,000 players) read only when asked for."""
    snapshots = ChampionshipSnapshot.objects.filter(championship_id=championship_id).order_by("-version")
    return (snapshots.defer("inputs") if light else snapshots).first()


def _metric_json(value: Any) -> Any:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


def championship_publish(championship_id: int, *, force: bool = False) -> ChampionshipSnapshot | None:
    """Rank the championship now and publish a new snapshot if its inputs or rules changed; the snapshot
    written, or None (nothing changed, or the championship is gone). ``force``: a new version even when nothing
    ranked changed (a player made anonymous: what the ranking *shows* changed, its names; the new version has the
    same digest, an empty diff, and every document of the older one is rendered again under it)."""
    with transaction.atomic():
        championship = Championship.objects.select_for_update().filter(pk=championship_id).first()
        if championship is None:
            return None
        ranked, read = compute(championship)
        previous = latest_snapshot(championship_id)
        if previous is not None and previous.digest == ranked.digest and not force:
            return None
        inputs_json, options_json = ranked.encoded or (pure_ranking.canonical_json(ranked.inputs),
                                                       pure_ranking.canonical_json(ranked.options))
        snapshot = ChampionshipSnapshot.objects.create(
            championship=championship, version=(previous.version if previous else 0) + 1, kind=ranked.kind,
            criteria=list(ranked.criteria), inputs=json.loads(inputs_json), options=json.loads(options_json),
            digest=ranked.digest, tournaments=read)
        counts: dict[int, int] = {}
        for line in ranked.lines:
            counts[line.rank] = counts.get(line.rank, 0) + 1
        ChampionshipLine.objects.bulk_create([
            ChampionshipLine(snapshot=snapshot, position=i, rank=line.rank, shared=counts[line.rank] > 1,
                             player_id=line.entry, metrics=[[k, _metric_json(v)] for k, v in line.metrics])
            for i, line in enumerate(ranked.lines, start=1)])
        return snapshot


def _decode_value(value: Any) -> Any:
    if isinstance(value, str) and "/" in value:
        n, d = value.split("/")
        return Fraction(int(n), int(d))
    return value


def decode_inputs(inputs: Sequence[Any]) -> tuple[pure.Result, ...]:
    """The stored canonical inputs back to :class:`scoring.championship.Result` (a fraction stored as "n/d")."""
    out = []
    for row in inputs:
        if not row or row[0] != "Result":
            raise ValueError(f"not a championship result: {row!r}")
        out.append(pure.Result(*(_decode_value(v) for v in row[1:])))
    return tuple(out)


def decode_options(options: Sequence[Any]) -> tuple[tuple[str, Any], ...]:
    def tup(value: Any) -> Any:
        return tuple(tup(v) for v in value) if isinstance(value, list) else value

    return tuple((name, tup(value)) for name, value in options)


def snapshot_ranking(snapshot: ChampionshipSnapshot) -> pure_ranking.RankingSnapshot:
    """The pure ranking of a stored snapshot, rebuilt from its own inputs; raises if the digest differs."""
    stub = pure_ranking.RankingSnapshot(snapshot.kind, tuple(snapshot.criteria), (),
                                        decode_inputs(snapshot.inputs), decode_options(snapshot.options),
                                        snapshot.digest)
    rebuilt = pure_snapshots.regenerate(stub)
    if rebuilt.digest != snapshot.digest:
        raise ValueError(f"championship snapshot {snapshot.pk}: inputs do not match the stored digest")
    return rebuilt


#: bump when the words of « pourquoi ce rang » change: every kept set of them is made anew (« 1 championship point »,
#: « 1 pt », « 1 tournoi joué », « le meilleur résultat » in the singular since « 2 »)
WORDS_VERSION = "2"
#: seconds a snapshot's words are kept (a snapshot never changes; a newer one has other keys)
WORDS_TIMEOUT = 24 * 3600


@dataclass(frozen=True)
class StandingWords:
    """What a player's page says of his standing in one published snapshot, for every player of it at once:
    « pourquoi ce rang » by player, how many are ranked, the points of those still waiting to be ranked."""

    field: int
    why: dict[pure_ranking.Entry, str]
    waiting: dict[pure_ranking.Entry, int | Fraction]


def standing_words(snapshot: ChampionshipSnapshot, lang: str) -> StandingWords:
    """:class:`StandingWords` of ``snapshot`` in ``lang``: made once per snapshot and language and kept (the whole
    championship ranked again and explained: 1.4 s at 10,000 players, which each player's page made at its first
    visit before). The championship's page, CSV and PDF read the same words."""
    key = f"levee:championship-words:{WORDS_VERSION}:{snapshot.pk}:{snapshot.digest[:16]}:{lang}"
    found = kept.get(key)
    if isinstance(found, StandingWords):
        return found
    ranked = snapshot_ranking(snapshot)
    names, titles = names_of(ranked)
    words = StandingWords(len(ranked.lines), pure.explain_all(ranked, lang, names, titles),
                          {s.player: s.points for s in pure.pending(ranked)})
    kept.set(key, words, WORDS_TIMEOUT)
    return words


def snapshot_compare(old: ChampionshipSnapshot, new: ChampionshipSnapshot) -> pure_ranking.RankingDiff:
    return pure_ranking.diff(snapshot_ranking(old), snapshot_ranking(new))


def championships_counting(tournament_id: int) -> list[int]:
    """The championships a tournament counts in."""
    return list(Championship.objects.filter(tournaments__pk=tournament_id).values_list("pk", flat=True))


@dataclass(frozen=True)
class Category:
    code: str
    label: str
    members: frozenset[int]


def _age(born: date, on: date) -> int:
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))


def categories(championship: Championship, players: Iterable[int]) -> list[Category]:
    """The championship's categories with their members among ``players`` (ids)."""
    wanted = list(championship.categories or ())
    if not wanted:
        return []
    season = championship.season
    people = list(Player.objects.filter(pk__in=list(players)).values_list("pk", "birth_date", "licence"))
    rows = list(Licence.objects.filter(number__in=[lic for _p, _b, lic in people if lic])
                .values_list("number", "category", "sex"))
    licences = {number: category for number, category, _sex in rows}
    sexes = {number: sex for number, _category, sex in rows if sex}
    out: list[Category] = []
    for code in wanted:
        if code == "jeunes":
            members = {p for p, born, _lic in people if born and _age(born, season.starts_on) < JUNIOR_UNDER}
            out.append(Category(code, _("Juniors"), frozenset(members)))
        elif code == "seniors":
            members = {p for p, born, _lic in people if born and _age(born, season.starts_on) >= SENIOR_FROM}
            out.append(Category(code, _("Seniors"), frozenset(members)))
        elif code == "dames":
            members = {p for p, _born, lic in people if lic and is_dame(sexes.get(lic, ""), licences.get(lic, ""))}
            out.append(Category(code, _("Women"), frozenset(members)))
        elif code == "series":
            series: dict[str, set[int]] = {}
            for p, _born, lic in people:
                value = licences.get(lic, "").strip() if lic else ""
                if value and value.lower() not in DAMES:
                    series.setdefault(value, set()).add(p)
            by_code: dict[str, tuple[str, set[int]]] = {}
            for value in sorted(series):
                label = value if value.lower().startswith("s") else _("Série %(value)s") % {"value": value}
                # a code fit for an address: « Série 2 », « serie 2 » and « 2 » are one series, « serie-2 »
                slug = french_slug(value)
                code = slug if slug.startswith("serie-") else f"serie-{slug}"
                by_code.setdefault(code, (label, set()))[1].update(series[value])
            out += [Category(code, label, frozenset(members)) for code, (label, members) in by_code.items()]
    return out


def metric(line: ChampionshipLine, name: str) -> int | Fraction | None:
    """One metric of a stored line ("7/2" back to a fraction)."""
    for key, value in line.metrics:
        if key == name:
            return metric_value(value)
    return None


def names_of(ranked: pure_ranking.RankingSnapshot) -> tuple[dict[pure_ranking.Entry, str],
                                                          dict[pure_ranking.Entry, str]]:
    """The players' public names (« Joueur anonyme » for one made anonymous) and the tournaments' names of a
    championship's inputs."""
    names: dict[pure_ranking.Entry, str] = {
        pk: (name if anonymized is None else "Joueur anonyme") for pk, name, anonymized in Player.objects.filter(
            pk__in={r.player for r in ranked.inputs}).values_list("pk", "name", "anonymized_at")}
    titles: dict[pure_ranking.Entry, str] = dict(Tournament.objects.filter(
        pk__in={r.tournament for r in ranked.inputs}).values_list("pk", "name"))
    return names, titles
