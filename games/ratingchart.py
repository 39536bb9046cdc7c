"""The rating history chart: a small accessible line chart as inline SVG, no script.

One step per rated game, left to right; ``role="img"`` with a title and a description
that says in words what the line shows (first and last date, first and last rating,
lowest and highest). Every text is escaped, so the result is safe to mark safe.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils import formats, timezone
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one rated game."""

    when: datetime
    rating: int
    game_id: int


def chart_svg(points: Sequence[RatingPoint], *, width: int = 320, height: int = 80) -> str:
    """A small line chart of the rating, one step per rated game, as inline SVG.

    Accessible without seeing it: ``role="img"`` with a title and a description that
    says what the line shows in words. No script; every text is escaped, so the result
    is safe to mark safe.
    """
    digest = hashlib.sha1(repr([(p.game_id, p.rating) for p in points]).encode()).hexdigest()
    ident = f"rating-chart-{digest[:10]}"
    title = _("Rating history")
    if not points:
        description = _("No rated games yet.")
    elif len(points) == 1:
        description = _("The rating after one rated game, on %(date)s: %(rating)d.") % {
            "date": _date(points[0].when),
            "rating": points[0].rating,
        }
    else:
        ratings = [p.rating for p in points]
        description = ngettext(
            "The rating over %(count)d rated game, from %(first_date)s to %(last_date)s: "
            "from %(first)d to %(last)d (lowest %(low)d, highest %(high)d).",
            "The rating over %(count)d rated games, from %(first_date)s to %(last_date)s: "
            "from %(first)d to %(last)d (lowest %(low)d, highest %(high)d).",
            len(points),
        ) % {
            "count": len(points),
            "first_date": _date(points[0].when),
            "last_date": _date(points[-1].when),
            "first": ratings[0],
            "last": ratings[-1],
            "low": min(ratings),
            "high": max(ratings),
        }
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" role="img" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'aria-labelledby="{ident}-title {ident}-desc">',
        f'<title id="{ident}-title">{escape(title)}</title>',
        f'<desc id="{ident}-desc">{escape(description)}</desc>',
    ]
    if points:
        parts.extend(_line(points, width, height))
    parts.append("</svg>")
    return "".join(parts)


def _line(points: Sequence[RatingPoint], width: int, height: int) -> list[str]:
    ratings: list[float] = [p.rating for p in points]
    low, high = min(ratings), max(ratings)
    if high - low < 20:  # a flat history is drawn flat, not blown up to full height
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    left, right, top, bottom = 36.0, 6.0, 6.0, 6.0
    span_x = width - left - right
    span_y = height - top - bottom
    steps = max(len(points) - 1, 1)

    def xy(index: int, rating: float) -> tuple[float, float]:
        x = left + span_x * (index / steps if len(points) > 1 else 0.5)
        y = top + span_y * (high - rating) / (high - low)
        return round(x, 1), round(y, 1)

    coords = [xy(i, r) for i, r in enumerate(ratings)]
    path = " ".join(f"{x},{y}" for x, y in coords)
    last_x, last_y = coords[-1]
    labels = {max(ratings): xy(0, max(ratings))[1] + 4, min(ratings): xy(0, min(ratings))[1] + 4}
    return [
        '<g aria-hidden="true" font-size="10" fill="currentColor">',
        *(
            f'<text x="{left - 4}" y="{round(y, 1)}" text-anchor="end">{value}</text>'
            for value, y in labels.items()
        ),
        "</g>",
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" '
        'stroke="currentColor" stroke-opacity="0.25" aria-hidden="true"/>',
        f'<polyline points="{path}" fill="none" stroke="currentColor" stroke-width="2" '
        'stroke-linejoin="round" stroke-linecap="round" aria-hidden="true"/>',
        f'<circle cx="{last_x}" cy="{last_y}" r="3" fill="currentColor" aria-hidden="true"/>',
    ]


def _date(when: datetime) -> str:
    return formats.date_format(timezone.localtime(when), "DATE_FORMAT")
