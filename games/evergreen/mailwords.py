"""What Evergreen's e-mails say about a game: the season breakdown (Light, Forest, Bud),
the final result with every season and the Fertility points, the solo title."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import rules
from .words import season_name, solo_title


def season_rows(state: rules.GameState, season: int) -> list[dict[str, Any]]:
    return [
        {
            "seat": i,
            "light": s.seasons[season - 1].light,
            "forest": s.seasons[season - 1].forest,
            "bud": s.seasons[season - 1].bud,
            "total": s.seasons[season - 1].total,
            "score": s.score,
        }
        for i, s in enumerate(state.seats)
        if len(s.seasons) >= season
    ]


def final_context(state: rules.GameState) -> dict[str, Any]:
    outcome = state.outcome
    assert outcome is not None
    return {
        "ranking": [{"seat": i, "score": outcome.scores[i]} for i in outcome.ranking],
        "title": outcome.title,
        "seasons": [
            {"season": n, "rows": season_rows(state, n)} for n in range(1, state.season + 1)
        ],
        "fertility": [s.fertility for s in state.seats],
    }


def _rows_with_names(rows: Iterable[dict[str, Any]], names: Sequence[str], me: int) -> list[Any]:
    return [
        {
            **row,
            "name": names[row["seat"]] if row["seat"] < len(names) else "?",
            "me": row["seat"] == me,
        }
        for row in rows
    ]


def mail_words(context: Mapping[str, Any], names: Sequence[str], me: int) -> dict[str, Any]:
    words: dict[str, Any] = {}
    if context.get("title"):
        words["title"] = solo_title(context["title"])
    if "scored_season" in context:
        words["scored_season_name"] = season_name(context["scored_season"])
    if "ranking" in context:
        words["fertility_rows"] = [
            {"name": names[i], "points": points, "me": i == me}
            for i, points in enumerate(context.get("fertility", []))
            if i < len(names)
        ]
        words["seasons"] = [
            {
                **s,
                "name": season_name(s["season"]),
                "rows": _rows_with_names(s["rows"], names, me),
            }
            for s in context.get("seasons", [])
        ]
    return words
