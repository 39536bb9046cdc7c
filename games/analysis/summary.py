"""What an analysis shows, for the pages and the API alike: each review with its sentence,
the points lost by round and the three biggest mistakes, in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import kinds

from .models import Analysis

MISTAKES = 3


def reviews(analysis: Analysis, names: Sequence[str]) -> list[dict[str, Any]]:
    """The stored reviews with their ``comment``, in the game's order."""
    analyst = kinds.of(analysis.game).analyst
    assert analyst is not None
    return [{**review, "comment": analyst.comment(review, names)} for review in analysis.reviews]


def summary(analysis: Analysis, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Points lost in all and by round (in the game's order), and the biggest mistakes
    (most points first; among equals, the earliest)."""
    analyst = kinds.of(analysis.game).analyst
    assert analyst is not None
    by_round: dict[str, int] = {}
    for row in rows:
        by_round[row["round"]] = by_round.get(row["round"], 0) + int(row["loss"])
    mistakes = sorted(
        (row for row in rows if row["loss"] > 0), key=lambda row: (-row["loss"], row["move"])
    )[:MISTAKES]
    return {
        "points_lost": sum(by_round.values()),
        "by_round": [
            {"round": key, "name": analyst.round_name(key), "points_lost": lost}
            for key, lost in by_round.items()
        ],
        "mistakes": mistakes,
    }


def present(analysis: Analysis, names: Sequence[str]) -> dict[str, Any]:
    """The whole analysis as plain data (the API's body; the page's context)."""
    rows = reviews(analysis, names)
    return {
        "status": analysis.status,
        "seat": analysis.seat,
        "done": analysis.done,
        "total": analysis.total,
        "reviews": rows,
        "summary": summary(analysis, rows) if analysis.is_done else None,
    }
