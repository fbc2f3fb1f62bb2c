"""A deal's result for people: what each game's ``explain(result, players, lang)`` gives.

Every scoring module exposes ``explain``: it reads only the ``result`` of one deal of a verdict
(``Verdict.to_json()["deals"][i]["result"]``, see ``docs/deal-record.md``) and says it in French or in
English — a one-line headline (the desk's score sheet), label/value lines (Tarot: the terms of the FFT
formula) and/or a table of marks in the order they were scored (the historical games). Nothing is
recomputed. :func:`explain_marks` is the historical games' explanation; :func:`explain` finds a game's.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .verdict import SCORING_MODULES


@dataclass
class Explanation:
    """A deal's result in words: a headline, label/value lines and/or a table of marks."""

    headline: str = ""
    lines: list[tuple[str, str]] = field(default_factory=list)
    marks_head: list[str] = field(default_factory=list)
    marks: list[tuple[list[str], str]] = field(default_factory=list)  # (cells, a note under the mark)
    #: L'Impériale: the players (full names, once) whose fiches/jetons after each mark end each row of ``marks``
    #: (the last ``len(running_head)`` cells), and what those cells say
    running_head: list[str] = field(default_factory=list)
    running_caption: str = ""

    def __bool__(self) -> bool:
        return bool(self.lines or self.marks)


def english(lang: str) -> bool:
    """Whether the visitor reads English (French otherwise)."""
    return lang.startswith("en")


def words(table: Mapping[str, tuple[str, str]], key: Any, lang: str, default: str | None = None) -> str:
    """The French or English text of ``key`` in ``table`` ((fr, en) pairs); ``default`` (or the key) if absent."""
    pair = table.get(key) if isinstance(key, str) else None
    if pair is None:
        return str(key) if default is None else default
    return pair[1] if english(lang) else pair[0]


def name(players: Sequence[str], seat: Any) -> str:
    """A seat's player, or « — » for a seat the record does not give."""
    return players[seat] if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players) else "—"


# -- the historical games: every mark in the order it was scored ---------------------------------------

#: what each kind of mark is (Triomphe, Écarté; steps of L'Impériale and Le Vingt-quatre)
MARKS: dict[str, tuple[str, str]] = {
    "point": ("le point", "the point"),
    "vole": ("vole (toutes les levées)", "vole (every trick)"),
    "vole_failed": ("vole manquée", "vole failed"),
    "abandon": ("point abandonné", "point conceded (abandon)"),
    "refus": ("point du refus", "refusal point"),
    "king": ("roi annoncé", "king announced"),
    "turned_king": ("roi retourné", "king turned up"),
    "false_king": ("roi annoncé à tort", "false king claim"),
    "retourne": ("retourne", "turn-up"),
    "honours": ("honneurs", "honours"),
    "cartes": ("les cartes (le plus de cartes)", "most cards (les cartes)"),
    "capote": ("capot (toutes les levées)", "capote (every trick)"),
    "sequences": ("séquences", "sequences"),
    "cartes_blanches": ("cartes blanches", "cartes blanches"),
    "imperiale_quatrieme_majeure": ("impériale : quatrième majeure", "impériale: quatrième majeure"),
    "imperiale_carre": ("impériale : carré", "impériale: four of a kind"),
    "imperiale_tombee": ("impériale tombée", "impériale tombée"),
    "penalty": ("pénalité", "penalty"),
}

_MARK_WORDS: dict[str, tuple[str, str]] = {
    "#": ("n°", "#"), "mark": ("Marque", "Mark"), "who": ("Qui", "Who"), "gain": ("Gain", "Gain"),
    "points": ("Points", "Points"), "not_counted": ("(non comptée)", "(not counted)"),
    "wipes": ("efface {who}", "wipes {who}"),
    "after_jetons": ("après : {score} (jetons)", "after: {score} (jetons)"),
    "partie_end": ("fin de la partie : {score} (jetons)", "end of the partie: {score} (jetons)"),
    "running": ("Après chaque marque : fiches/jetons de chacun.", "After each mark: each one's fiches/jetons."),
}


def _count(n: int, one: str, lang: str) -> str:
    """« +1 jeton », « -3 fiches » (the same in both languages)."""
    return f"{n:+d} {one}" + ("" if abs(n) == 1 else "s")


def explain_marks(result: Mapping[str, Any], players: Sequence[str], lang: str = "fr", *,
                  parties: bool = False) -> Explanation:
    """Every mark of the deal in order: what, who, how much, and (games of jetons) the score after it.

    ``parties``: Le Vingt-quatre's own words — jetons, and a partie won at six (no fiche, no impériale)."""
    out = Explanation()
    marks = result.get("marks") or []
    if not marks:
        return out
    jetons = any("jetons" in m or "fiches" in m for m in marks)
    out.marks_head = [words(_MARK_WORDS, k, lang) for k in ("#", "mark", "who", "gain" if jetons else "points")]
    if jetons and not parties:  # each one's fiches/jetons after each mark: the names once, in the head
        out.running_head = list(players)
        out.marks_head += out.running_head
        out.running_caption = words(_MARK_WORDS, "running", lang)
    for i, mark in enumerate(marks, start=1):
        kind = mark.get("kind") or mark.get("step") or "?"
        label = words(MARKS, kind, lang, str(kind).replace("_", " "))
        if mark.get("counted") is False:
            label += " " + words(_MARK_WORDS, "not_counted", lang)
        if mark.get("wiped"):
            wiped = ", ".join(f"{name(players, int(s))} ({n})" for s, n in mark["wiped"].items())
            label += " — " + words(_MARK_WORDS, "wipes", lang).format(who=wiped)
        seats = mark.get("seats") if "seats" in mark else [mark.get("seat")]
        who = " & ".join(name(players, s) for s in seats or [])
        if jetons:
            gain = [_count(j, "jeton", lang) for j in [mark.get("jetons", 0)] if j]
            gain += [_count(f, "partie gagnée" if lang == "fr" else "partie won", lang)
                     if parties else _count(f, "fiche", lang) for f in [mark.get("fiches", 0)] if f]
            after = mark.get("after") or {}
            if parties:
                running = " · ".join(f"{name(players, s)} {j}" for s, j in enumerate(after.get("jetons") or []))
                said = "partie_end" if after.get("partie_end") else "after_jetons"
                note = words(_MARK_WORDS, said, lang).format(score=running) if running else ""
                out.marks.append(([str(i), label, who, ", ".join(gain) or "0"], note))
            else:
                pairs = list(zip(after.get("fiches") or [], after.get("jetons") or [], strict=False))
                running_cells = [f"{pairs[s][0]}/{pairs[s][1]}" if s < len(pairs) else "—"
                                 for s in range(len(players))]
                out.marks.append(([str(i), label, who, ", ".join(gain) or "0", *running_cells], ""))
        else:
            out.marks.append(([str(i), label, who, f"{mark.get('points', 0):+d}"], ""))
    return out


def explain(game: str, result: Any, players: Sequence[str], lang: str = "fr") -> Explanation:
    """The explanation of one deal's result by the game's own scoring module (empty for no result)."""
    if not isinstance(result, Mapping) or game not in SCORING_MODULES:
        return Explanation()
    module = importlib.import_module(SCORING_MODULES[game])
    explained: Explanation = module.explain(result, players, lang)
    return explained


def explain_verdict(game: str, verdict: Any, players: Sequence[str], lang: str = "fr") -> Explanation:
    """The explanation of the last deal of a saved verdict (``Verdict.to_json()``; a match verdict's last deal)."""
    if not isinstance(verdict, Mapping):
        return Explanation()
    deals = verdict.get("deals") or []
    result = deals[-1].get("result") if deals and isinstance(deals[-1], Mapping) else None
    return explain(game, result, players, lang)
