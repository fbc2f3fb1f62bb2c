"""``explain()`` groups the level lines once per snapshot; it must say exactly what the quadratic version said
(a group of more than ``NAMED_LEVEL_MAX`` others is counted, not named: the oracle counts it pair by pair).

``reference_explain`` below is the implementation before that change (every line compared with every other),
kept here as the oracle: Hypothesis draws Tarot rankings (totals with many ties, declared tie-breaks, no best
deal for absentees) and Swiss rankings (match results with draws, byes, forfeits, fractional Sonneborn-Berger),
and every line's sentence, in French and in English, with and without names, must be the same string.
"""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.ranking import (
    EXPLAIN_TEXTS,
    NAMED_LEVEL_MAX,
    SINGULAR_EN,
    SINGULAR_FR,
    MatchResult,
    RankingSnapshot,
    RankLine,
    TarotTotals,
    _fmt,
    _key,
    explain,
    explain_all,
    label,
    rank_matches,
    rank_tarot,
)


def reference_explain(snapshot: RankingSnapshot, line: RankLine, lang: str = "en",
                      names: Mapping[object, str] | None = None) -> str:
    """The quadratic ``explain`` as it was (scoring/ranking.py before the grouping)."""
    lang = "fr" if lang == "fr" else "en"
    say = {key: texts[lang] for key, texts in EXPLAIN_TEXTS.items()}

    def who(entry):
        return names[entry] if names and entry in names else repr(entry)

    def lab(metric):
        return label(metric, lang)

    criteria = snapshot.criteria
    primary = criteria[0]
    n = len(snapshot.lines)
    value = line.metric(primary)
    counted = SINGULAR_FR.get(primary, lab(primary)) if lang == "fr" and value is not None and -2 < value < 2 \
        else lab(primary)  # « 1 point de match » (French grammar), a later change than the grouping
    if lang == "en" and value is not None and abs(value) == 1:  # « 1 match point » (English grammar), later still
        counted = SINGULAR_EN.get(primary, counted)
    parts = [say["rank"].format(rank=line.rank, n=n, value=_fmt(value, lang), label=counted)]
    level = [o for o in snapshot.lines if o.entry != line.entry and o.metric(primary) == line.metric(primary)]
    if not level:
        parts.append(say["alone"].format(label=lab(primary)))
        return " ".join(parts)
    if len(level) > NAMED_LEVEL_MAX:  # a large group is counted, not named (each pair compared here, as before)
        above = below = level_shared = 0
        for other in level:
            for name in criteria[1:]:
                if line.metric(name) != other.metric(name):
                    if _key(line, (name,)) > _key(other, (name,)):
                        below += 1
                    else:
                        above += 1
                    break
            else:
                level_shared += 1
        parts.append(say["level_many"].format(label=lab(primary), n=len(level)))
        if above or below:
            parts.append(say["tie_breaks_many"].format(above=above, below=below))
        if level_shared:
            used = criteria[1:]
            detail = say["every_tie_break"].format(labels=", ".join(lab(c) for c in used)) if used else ""
            key = "shared_many_tarot" if snapshot.kind.startswith("tarot") else "shared_many"
            parts.append(say[key].format(n=level_shared, label=lab(primary), detail=detail))
        return " ".join(parts)
    parts.append(say["level"].format(label=lab(primary), who=", ".join(who(o.entry) for o in level)))
    shared = []
    for other in level:
        for name in criteria[1:]:
            mine, theirs = line.metric(name), other.metric(name)
            if mine != theirs:
                key = "ahead" if _key(line, (name,)) > _key(other, (name,)) else "behind"
                parts.append(say[key].format(who=who(other.entry), rank=other.rank, label=lab(name),
                                             mine=_fmt(mine, lang), theirs=_fmt(theirs, lang)))
                break
        else:
            shared.append(other)
    if shared:
        used = criteria[1:]
        detail = say["every_tie_break"].format(labels=", ".join(lab(c) for c in used)) if used else ""
        key = "shared_tarot" if snapshot.kind.startswith("tarot") else "shared"
        parts.append(say[key].format(who=", ".join(who(o.entry) for o in shared), label=lab(primary),
                                     detail=detail))
    return " ".join(parts)


def _same_sentences(snap: RankingSnapshot) -> None:
    names = {line.entry: f"Joueur « {line.entry} »" for line in snap.lines[::2]}  # some named, some not
    for lang in ("fr", "en"):
        for given_names in (None, names):
            expected = tuple(reference_explain(snap, line, lang, given_names) for line in snap.lines)
            assert explain_all(snap, lang, given_names) == expected
            for line in snap.lines[:5]:
                assert explain(snap, line.entry, lang, given_names) == reference_explain(snap, line, lang,
                                                                                          given_names)


tarot_totals = st.lists(
    st.builds(lambda marks, best, won, deals: (marks, None if deals == 0 else best, won, deals),
              st.integers(-6, 6).map(lambda x: 25 * x), st.integers(-2, 3).map(lambda x: 30 * x),
              st.integers(0, 2), st.integers(0, 3)),
    min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(tarot_totals, st.sampled_from([(), ("best_deal",), ("won_as_taker",), ("best_deal", "won_as_taker"),
                                      ("won_as_taker", "best_deal")]))
def test_tarot_sentences_are_the_same_as_before(rows, tie_breaks):
    totals = [TarotTotals(i + 1, marks, best, won, deals) for i, (marks, best, won, deals) in enumerate(rows)]
    _same_sentences(rank_tarot(totals, tie_breaks=tie_breaks))


@st.composite
def swiss_rounds(draw):
    players = draw(st.integers(2, 12))
    results = []
    for rnd in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(range(1, players + 1)))
        for k in range(0, players - 1, 2):
            a, b = order[k], order[k + 1]
            winner = draw(st.sampled_from([0, 1, None]))
            forfeit = winner is not None and draw(st.booleans())
            points = () if forfeit else (draw(st.integers(0, 3)), draw(st.integers(0, 3)))
            results.append(MatchResult(rnd, k // 2 + 1, (a, b), points, winner, forfeit=forfeit))
        if players % 2:
            results.append(MatchResult(rnd, None, (order[-1],), bye=True))
    return results, players


@settings(max_examples=100, deadline=None)
@given(swiss_rounds(), st.sampled_from([("buchholz", "sonneborn_berger", "margin", "wins"), ("margin",), (),
                                        ("wins", "buchholz")]))
def test_swiss_sentences_are_the_same_as_before(drawn, tie_breaks):
    results, players = drawn
    _same_sentences(rank_matches(results, tie_breaks=tie_breaks, entries=range(1, players + 1)))


def test_explaining_every_line_is_not_quadratic(monkeypatch):
    """1,000 players, every total distinct but in 40 levels of 25 on the primary metric: the old version read
    two metrics per pair of lines (2 × 10⁶ ``metric`` calls); now the whole ranking reads a few per line and per
    line level with it (counted, not timed: speed is measured in bench/, never in tests)."""
    totals = [TarotTotals(i, 25 * (i % 40), 30 * (i % 3), i % 2, 5) for i in range(1000)]
    snap = rank_tarot(totals, tie_breaks=("best_deal",))
    calls = [0]
    original = RankLine.metric

    def counting(self, name):
        calls[0] += 1
        return original(self, name)

    monkeypatch.setattr(RankLine, "metric", counting)
    sentences = explain_all(snap, "fr")
    fast_calls = calls[0]
    calls[0] = 0
    assert sentences == tuple(reference_explain(snap, line, "fr") for line in snap.lines)
    assert calls[0] > 2_000_000  # the reference: every line against every other
    # per line: its primary value, and 2 reads per line level with it (24 others) at most: ~51,000 in all
    assert fast_calls < 1000 * (2 + 2 * 25)


def test_a_large_level_group_is_counted_not_named():
    """12 players at 0 marks, the best deal declared as tie-break: 60 for three of them, 30 for four, 0 for five.
    By hand: ranks 1 (three shared), 4 (four shared), 8 (five shared). The fourth player (best deal 30) is level
    with 11 others: 3 ahead of him on the tie-break, 5 behind, 3 sharing his rank — said in counts, no name."""
    bests = [60] * 3 + [30] * 4 + [0] * 5
    snap = rank_tarot([TarotTotals(i + 1, 0, best, 0, 4) for i, best in enumerate(bests)], tie_breaks=("best_deal",))
    assert [line.rank for line in snap.lines] == [1, 1, 1, 4, 4, 4, 4, 8, 8, 8, 8, 8]
    names = {i + 1: f"Marie-Bernadette Delacroix-Montfort {i + 1}" for i in range(12)}
    fourth = explain(snap, 4, "fr", names)
    assert fourth.startswith("Rang 4 sur 12")
    assert "avec 11 autres." in fourth and "Aux départages : 3 d'entre eux devant, 5 derrière." in fourth
    assert "Rang partagé avec 3 d'entre eux" in fourth and "Delacroix" not in fourth
    first = explain(snap, 1, "en", names)
    assert "with 11 others." in first and "On the tie-breaks: 0 of them ahead, 9 behind." in first
    assert "Rank shared with 2 of them" in first
    assert len(explain(snap, 12, "fr", names)) < 400  # a line's words do not grow with its group
