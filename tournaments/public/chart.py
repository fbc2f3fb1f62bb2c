"""A running-total chart as inline SVG, drawn on the server (no JavaScript library)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def running_total_svg(points: Sequence[int], *, breaks: Sequence[int] = (), width: int = 640, height: int = 220,
                      title: str = "", unit: str = "") -> SafeString:
    """A polyline of the running total after each of ``points`` (0 before the first), a zero line,
    and dashed verticals at the indices in ``breaks`` (round boundaries). Integers only. ``unit``: what the total
    counts (« points », « impériales »), written over its axis; the deals are named under theirs."""
    totals = [0]
    for p in points:
        totals.append(totals[-1] + p)
    pad_l, pad_r, pad_t, pad_b = 48, 12, 22 if unit else 12, 24
    lo, hi = min(totals), max(totals)
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    n = max(len(totals) - 1, 1)
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b

    def x(i: int) -> float:
        return pad_l + plot_w * i / n

    def y(v: int) -> float:
        return pad_t + plot_h * (hi - v) / (hi - lo)

    coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(totals))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" role="img" '
             f'aria-label="{escape(title)}">', f"<title>{escape(title)}</title>",
             f'<rect x="{pad_l}" y="{pad_t}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#ccc"/>']
    if lo < 0 < hi:
        parts.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#888" '
                     'stroke-dasharray="2 3"/>')
    for b in breaks:
        parts.append(f'<line x1="{x(b):.1f}" x2="{x(b):.1f}" y1="{pad_t}" y2="{height - pad_b}" stroke="#bbb" '
                     'stroke-dasharray="4 4"/>')
    parts.append(f'<text x="{pad_l - 6}" y="{pad_t + 10}" text-anchor="end" font-size="11">{hi}</text>')
    parts.append(f'<text x="{pad_l - 6}" y="{height - pad_b}" text-anchor="end" font-size="11">{lo}</text>')
    parts.append(f'<polyline fill="none" stroke="#1f5fa8" stroke-width="2" points="{coords}"/>')
    last = totals[-1]
    parts.append(f'<circle cx="{x(len(totals) - 1):.1f}" cy="{y(last):.1f}" r="3.5" fill="#1f5fa8"/>')
    parts.append(f'<text x="{width - pad_r}" y="{height - 6}" text-anchor="end" font-size="11">{len(points)}</text>')
    if unit:  # the axes named (a walk saw bare numbers): the total's unit over it, the deals under theirs
        parts.append(f'<text x="2" y="12" font-size="11">{escape(unit)}</text>')
        parts.append(f'<text x="{pad_l + plot_w / 2:.1f}" y="{height - 6}" text-anchor="middle" font-size="11">'
                     f'{escape(_("donnes"))}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every interpolated value is a number or escaped


def ranks_svg(points: Sequence[tuple[str, int, int]], *, width: int = 360, height: int = 180,
              title: str = "") -> SafeString:
    """A player's ranks over a season: one point per tournament (its name, his rank, the field), the 1st place at
    the top and the largest field at the bottom, each point labelled with its rank; a list of the same points
    follows in the SVG's title for screen readers."""
    pad_l, pad_r, pad_t, pad_b = 56, 14, 18, 36  # room for the axes' names (« rang » top left, « tournoi » below)
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    worst = max([field for _n, _r, field in points] + [2])
    n = len(points)

    def x(i: int) -> float:
        return pad_l + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(rank: int) -> float:
        return pad_t + plot_h * (rank - 1) / (worst - 1)

    said = "; ".join((_("%(name)s: rank %(rank)s of %(field)s") if rank != 1 else _("%(name)s: 1st of %(field)s"))
                     % {"name": name, "rank": rank, "field": field} for name, rank, field in points)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" class="chart" role="img" '
             f'aria-label="{escape(title)}">', f"<title>{escape(title)} — {escape(said)}</title>",
             f'<rect x="{pad_l}" y="{pad_t}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#ccc"/>',
             f'<text x="{pad_l - 6}" y="{pad_t + 4}" text-anchor="end" font-size="11">1</text>',
             f'<text x="{pad_l - 6}" y="{pad_t + plot_h + 4}" text-anchor="end" font-size="11">{worst}</text>',
             # the axes named (a walk saw « 1 6 6 1 » bare): « rang » over the ranks on the left, the tournament's
             # number (in the order of the list below the chart) along the bottom
             f'<text x="{pad_l - 6}" y="{pad_t - 6}" text-anchor="end" font-size="11">{escape(_("rang"))}</text>',
             f'<text x="{pad_l + plot_w / 2:.1f}" y="{height - 4}" text-anchor="middle" font-size="10">'
             f'{escape(_("tournoi"))}</text>']
    if n > 1:
        coords = " ".join(f"{x(i):.1f},{y(rank):.1f}" for i, (_n, rank, _f) in enumerate(points))
        parts.append(f'<polyline fill="none" stroke="#1f5fa8" stroke-width="2" points="{coords}"/>')
    for i, (_name, rank, _field) in enumerate(points):
        parts.append(f'<circle cx="{x(i):.1f}" cy="{y(rank):.1f}" r="4" fill="#1f5fa8"/>')
        parts.append(f'<text x="{x(i):.1f}" y="{y(rank) - 7:.1f}" text-anchor="middle" font-size="11">{rank}</text>')
        parts.append(f'<text x="{x(i):.1f}" y="{height - 20}" text-anchor="middle" font-size="10">{i + 1}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every interpolated value is a number or escaped
