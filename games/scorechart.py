"""The score chart of a game: each player's score round by round, drawn on the server as
inline SVG (no script), like the rating chart (``games.ratingchart``).

``role="img"`` with a title and a description in words (each player's score at the end,
and the round they led most of); a table beside it in the page gives the numbers. Each
player's line has the class ``series-<seat>`` (colours and dashes in board.css, so the
lines differ without colour too). Every text is escaped, so the result is safe to mark safe.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.utils.html import escape
from django.utils.translation import gettext as _


def chart_svg(
    points: Sequence[tuple[str, Sequence[int]]],
    names: Sequence[str],
    *,
    width: int = 480,
    height: int = 200,
) -> str:
    """A line per player through ``points`` (a round's title, every seat's score then),
    from 0 at the left (the setup) to the last round at the right."""
    digest = hashlib.sha1(repr((points, list(names))).encode()).hexdigest()
    ident = f"score-chart-{digest[:10]}"
    players = len(names)
    series = [[0] * players, *[list(scores) for _title, scores in points]]
    top = max([1, *(max(row) for row in series if row)])
    left, right, upper, lower = 34, 10, 10, 22
    inner_w, inner_h = width - left - right, height - upper - lower
    steps = max(len(series) - 1, 1)

    def x(k: int) -> float:
        return left + inner_w * k / steps

    def y(v: int) -> float:
        return upper + inner_h * (1 - v / top)

    finals = ", ".join(
        _("%(name)s %(points)s") % {"name": names[k], "points": series[-1][k]}
        for k in range(players)
    )
    description = _("Each player's score after every round. At the end: %(scores)s.") % {
        "scores": finals
    }
    title, setup = _("Scores round by round"), _("Setup")
    parts = [
        f'<svg class="score-chart" role="img" viewBox="0 0 {width} {height}" '
        f'aria-labelledby="{ident}-t {ident}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{ident}-t">{escape(title)}</title>',
        f'<desc id="{ident}-d">{escape(description)}</desc>',
        f'<line class="axis" x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}"/>',
        f'<line class="axis" x1="{left}" y1="{upper}" x2="{left}" y2="{y(0):.1f}"/>',
        f'<text class="tick" x="{left - 4}" y="{y(top) + 4:.1f}" text-anchor="end">{top}</text>',
        f'<text class="tick" x="{left - 4}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>',
        f'<text class="tick" x="{left}" y="{height - 6}">{escape(setup)}</text>',
    ]
    if points:
        last = escape(points[-1][0])
        parts.append(
            f'<text class="tick" x="{width - right}" y="{height - 6}" text-anchor="end">'
            f"{last}</text>"
        )
    for seat in range(players):
        coords = " ".join(f"{x(k):.1f},{y(row[seat]):.1f}" for k, row in enumerate(series))
        parts.append(
            f'<polyline class="series series-{seat}" fill="none" points="{coords}">'
            f"<title>{escape(names[seat])}</title></polyline>"
        )
    parts.append("</svg>")
    return "".join(parts)
