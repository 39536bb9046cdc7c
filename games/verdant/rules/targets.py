"""What a player may do now, computed on demand: cells, selections and step targets.

The turn builder of a web page, the bots and the tests ask here; the engine itself
checks a move with the same rules (``home.placement_error``), so the two cannot drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .edition import Edition
from .home import Home, Pos, is_plant, is_room, position
from .home import legal_cells as home_legal_cells
from .state import GameState, Phase


class Selection(NamedTuple):
    """A card (``take`` from ``column``) and the token of column ``token``."""

    take: str
    column: int
    token: int


def legal_cells(state: GameState, seat: int, kind: str, ed: Edition) -> list[Pos]:
    """The cells of ``seat``'s home where a ``kind`` card ("plant"/"room") may go now."""
    return home_legal_cells(state.seats[seat].home.cards, kind, ed)


def legal_selections(
    state: GameState, seat: int, ed: Edition, *, free: bool = False
) -> list[Selection]:
    """Card + token pairs ``seat`` may take now: same column, or any pair with action B.

    A card that has no legal cell in the home is left out (ruling 1). ``free`` pairs are
    offered only when the seat can pay for action B.
    """
    if state.phase is not Phase.PLAY or state.to_play != seat:
        return []
    if free and (state.family or state.seats[seat].thumbs < ed.action_cost):
        return []
    placeable = {kind: bool(legal_cells(state, seat, kind, ed)) for kind in ("plant", "room")}
    found = []
    for kind, row in (("plant", state.market_plants), ("room", state.market_rooms)):
        if not placeable[kind]:
            continue
        for column, card in enumerate(row):
            if card is None:
                continue
            tokens = range(len(state.market_tokens)) if free else (column,)
            for token in tokens:
                if state.market_tokens[token] is not None:
                    found.append(Selection(kind, column, token))
    return found


def plant_targets(cards: Sequence[str | None], completed: Sequence[bool]) -> list[Pos]:
    """Plants that may still take verdancy (ruling 14)."""
    return [position(i) for i, c in enumerate(cards) if is_plant(c) and not completed[i]]


def room_targets(cards: Sequence[str | None], items: Sequence[str | None]) -> list[Pos]:
    """Rooms that may still take a furniture or pet token."""
    return [position(i) for i, c in enumerate(cards) if is_room(c) and items[i] is None]


def rooms(cards: Sequence[str | None]) -> list[Pos]:
    """Every room (a watering can may be used from any of them)."""
    return [position(i) for i, c in enumerate(cards) if is_room(c)]


def home_plant_targets(home: Home) -> list[Pos]:
    return plant_targets(home.cards, home.completed)


def green_thumb_actions(state: GameState, seat: int, ed: Edition) -> tuple[str, ...]:
    """The green thumb actions ``seat`` can pay for now: A and B before its selection, C after.

    (The green thumbs on the card it takes may add C later in the turn: ruling 15.)
    """
    if state.phase is not Phase.PLAY or state.to_play != seat or state.family:
        return ()
    if state.seats[seat].thumbs < ed.action_cost:
        return ()
    return ("A", "B", "C")
