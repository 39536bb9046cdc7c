"""Evergreen's keys for the "My games" list: who must move and who won, read from a few
keys of the snapshot in the database (``GameKind.projection``) instead of the whole state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules.engine import MAX_PLAYERS
from .rules.state import Phase

if TYPE_CHECKING:
    from games.models import Game

PREFIX = "p_evergreen_"


def projection() -> dict[str, str]:
    keys = {
        PREFIX + "first": "state__first",
        PREFIX + "picks_done": "state__picks_done",
        PREFIX + "winner": "state__outcome__winner",
        PREFIX + "title": "state__outcome__title",
    }
    for position in range(MAX_PLAYERS):
        keys[f"{PREFIX}card_{position}"] = f"state__seats__{position}__card"
        keys[f"{PREFIX}turn_{position}"] = f"state__seats__{position}__turn"
    return keys


def _json(value: Any) -> Any:
    """A projected key as Python: JSON null is NULL on PostgreSQL but ``'null'`` on SQLite."""
    return None if value is None or value == "null" else value


def _key(game: Game, name: str) -> Any:
    return _json(getattr(game, PREFIX + name))


def awaiting_in(game: Game) -> tuple[int, ...]:
    """Who must move now, from the projected keys of a game being played.

    Mirrors ``GameState.awaiting``; a test checks the two agree at every move of a game.
    """
    if game.phase == Phase.DRAFT.value:
        drafters = game.players + 1 if game.solo else game.players
        picker = (int(_key(game, "first")) + int(_key(game, "picks_done"))) % drafters
        return () if game.solo and picker == game.players else (picker,)
    if game.phase == Phase.ACTION.value:
        return tuple(
            position
            for position in range(game.players)
            if _key(game, f"card_{position}") is not None and _key(game, f"turn_{position}") is None
        )
    return ()


def winner_in(game: Game) -> tuple[int | None, str | None]:
    winner = _key(game, "winner")
    return (int(winner) if winner is not None else None), _key(game, "title")
