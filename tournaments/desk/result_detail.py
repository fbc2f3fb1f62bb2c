"""A deal's result for people: the Tarot score explained line by line, and for the historical games every
mark in the order it was scored, as small tables (labels from the catalogues).

Reads only the verdict JSON saved with the deal (``Deal.verdict["deals"][-1]["result"]``, see
``docs/deal-record.md``): nothing is recomputed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from tournaments.desk.forms import CONTRACTS

CONTRACT_LABELS = dict(CONTRACTS)

#: what each kind of mark is, for people (Triomphe, Écarté; steps of L'Impériale and Le Vingt-quatre)
MARK_LABELS = {
    "point": gettext_lazy("the point"),
    "vole": gettext_lazy("vole (every trick)"),
    "vole_failed": gettext_lazy("vole failed"),
    "abandon": gettext_lazy("point conceded (abandon)"),
    "refus": gettext_lazy("refusal point"),
    "king": gettext_lazy("king announced"),
    "turned_king": gettext_lazy("king turned up"),
    "false_king": gettext_lazy("false king claim"),
    "retourne": gettext_lazy("turn-up"),
    "honours": gettext_lazy("honours"),
    "cartes": gettext_lazy("most cards (les cartes)"),
    "capote": gettext_lazy("capote (every trick)"),
    "sequences": gettext_lazy("sequences"),
    "cartes_blanches": gettext_lazy("cartes blanches"),
    "imperiale_quatrieme_majeure": gettext_lazy("impériale: quatrième majeure"),
    "imperiale_carre": gettext_lazy("impériale: four of a kind"),
    "imperiale_tombee": gettext_lazy("impériale tombée"),
    "penalty": gettext_lazy("penalty"),
}


@dataclass
class Detail:
    """Label/value lines (Tarot) and/or a table of marks (the other games)."""

    lines: list[tuple[str, str]] = field(default_factory=list)
    marks_head: list[str] = field(default_factory=list)
    marks: list[tuple[list[str], str]] = field(default_factory=list)  # (cells, a note under the mark)

    def __bool__(self) -> bool:
        return bool(self.lines or self.marks)


def _name(players: list[str], seat: Any) -> str:
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "—"


def _half(points_half: int) -> str:
    whole, half = divmod(abs(points_half), 2)
    return f"{whole},5" if half else str(whole)


def tarot_detail(result: dict[str, Any], players: list[str]) -> Detail:
    """Contract, bouts, points and the points needed, made or fallen by how much, petit au bout, poignées,
    chelem: the terms of the FFT formula (RULES.md §1.11)."""
    out = Detail()
    add = out.lines.append
    coef = result.get("coefficient")
    contract = str(CONTRACT_LABELS.get(result.get("contract"), result.get("contract") or "—"))
    add((_("Contract"), f"{contract} (×{coef})" if coef else contract))
    add((_("Taker"), _name(players, result.get("taker"))))
    if result.get("called"):
        add((_("Called king"), str(result["called"])))
    if result.get("partner") is not None:
        add((_("Partner"), _name(players, result.get("partner"))))
    if result.get("mort") is not None:
        add((_("Sits out (mort)"), _name(players, result.get("mort"))))
    add((_("Bouts"), str(result.get("bouts", "—"))))
    points = result.get("points")
    add((_("Points"), str(points).replace(".", ",") if points is not None else "—"))
    add((_("Points needed"), str(result.get("needed", "—"))))
    margin = result.get("margin_half")
    if isinstance(margin, int):
        by = _half(margin)
        add((_("Result"), (_("made by %(n)s") if result.get("made") else _("fallen by %(n)s")) % {"n": by}))
    pab = result.get("petit_au_bout")
    add((_("Petit au bout"), {"attack": _("won by the taker's side"), "defence": _("won by the defence")}.get(
        pab, _("no"))))
    handfuls = result.get("handfuls") or []
    sizes = {"simple": _("simple"), "double": _("double"), "triple": _("triple")}
    add((_("Poignées"), ", ".join(_("%(who)s: %(size)s (%(value)s)") % {
        "who": _name(players, h.get("seat")), "size": sizes.get(h.get("size"), h.get("size")), "value": h.get("value")}
        for h in handfuls) or pgettext("poignées", "none")))
    chelem = {"attack": _("made by the taker's side"), "defence": _("made by the defence")}.get(
        result.get("chelem"), _("no"))
    if result.get("chelem_announced"):
        chelem += " · " + _("announced")
    if result.get("chelem_term"):
        chelem += f" ({result['chelem_term']:+d})"
    add((_("Chelem"), chelem))
    if result.get("S") is not None:
        add((_("Deal value per defender"), str(result["S"])))
    source = {"summary": _("summary"), "tricks": _("trick by trick")}.get(result.get("source"))
    if source:
        add((_("Entered"), source))
    return out


def marks_detail(result: dict[str, Any], players: list[str]) -> Detail:
    """Every mark of the deal in chronological order: what, who, how much, and the running score after it."""
    out = Detail()
    marks = result.get("marks") or []
    if not marks:
        return out
    jetons = any("jetons" in m or "fiches" in m for m in marks)
    out.marks_head = [_("#"), _("Mark"), _("Who"), _("Gain") if jetons else _("Points")]
    for i, mark in enumerate(marks, start=1):
        kind = mark.get("kind") or mark.get("step") or "?"
        label = str(MARK_LABELS.get(kind, str(kind).replace("_", " ")))
        if mark.get("counted") is False:
            label += " " + _("(not counted)")
        if mark.get("wiped"):
            label += " — " + _("wipes %(who)s") % {"who": ", ".join(
                f"{_name(players, int(s))} ({n})" for s, n in mark["wiped"].items())}
        seats = mark.get("seats") if "seats" in mark else [mark.get("seat")]
        who = " & ".join(_name(players, s) for s in seats or [])
        if jetons:
            gain = [ngettext("%(n)+d jeton", "%(n)+d jetons", abs(j)) % {"n": j}
                    for j in [mark.get("jetons", 0)] if j]
            gain += [ngettext("%(n)+d fiche", "%(n)+d fiches", abs(f)) % {"n": f}
                     for f in [mark.get("fiches", 0)] if f]
            after = mark.get("after") or {}
            running = " · ".join(f"{_name(players, s)} {f}/{j}" for s, (f, j) in
                                 enumerate(zip(after.get("fiches") or [], after.get("jetons") or [], strict=False)))
            out.marks.append(([str(i), label, who, ", ".join(gain) or "0"],
                              _("after: %(score)s (fiches/jetons)") % {"score": running} if running else ""))
        else:
            out.marks.append(([str(i), label, who, f"{mark.get('points', 0):+d}"], ""))
    return out


def deal_detail_of(verdict: Any, game: str, players: list[str]) -> Detail:
    """The readable detail of a deal's saved verdict (the last deal of a match verdict)."""
    if not isinstance(verdict, dict):
        return Detail()
    deals = verdict.get("deals") or []
    result = deals[-1].get("result") if deals and isinstance(deals[-1], dict) else None
    if not isinstance(result, dict):
        return Detail()
    if game == "tarot":
        return tarot_detail(result, players) if "contract" in result else Detail()
    return marks_detail(result, players)
