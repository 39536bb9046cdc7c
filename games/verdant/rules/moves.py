"""Moves as immutable values, with one canonical JSON form.

Three kinds of move exist (see ``docs/verdant-game-record.md``):

* ``Start(seat, side)``: the simultaneous start placement: on which side of the starting
  room the starting plant goes;
* ``Wipe(seat, columns)``: green thumb action A, before the selection: the market tokens
  of ``columns`` go back to the bag and are replaced (a move of its own, because the
  player sees the new tokens before choosing);
* ``Turn(...)``: the rest of a turn: the selection (with action B if ``free``), the
  card's cell, the steps of step 4 (items, nurture, action C) in order, and the item
  kept in storage.

JSON forms::

    {"type": "start", "seat": 0, "side": "left"}
    {"type": "wipe", "seat": 0, "columns": [0, 3]}
    {"type": "turn", "seat": 1, "take": "plant", "column": 2, "token": 2, "at": [0, 1],
     "free": false,
     "steps": [{"step": "place", "item": "cat", "at": [[0, 0]]},
               {"step": "use", "item": "trowel", "at": [[0, 1], [1, 0]]},
               {"step": "thumb", "item": null, "at": [[0, 1]]}],
     "store": null}

``move_from_json`` raises ``InvalidMove`` on anything it cannot read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.enginekit.errors import InvalidMove
from games.enginekit.jsonread import is_int, read_pair

from .edition import SIDES
from .home import Pos

TAKES = ("plant", "room")
STEP_KINDS = ("place", "use", "thumb")


@dataclass(frozen=True, slots=True)
class Start:
    """Put the starting plant on ``side`` of the starting room (hidden until all chose)."""

    seat: int
    side: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "start", "seat": self.seat, "side": self.side}


@dataclass(frozen=True, slots=True)
class Wipe:
    """Green thumb action A: replace the market tokens of ``columns`` (0 nearest the bag)."""

    seat: int
    columns: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": "wipe", "seat": self.seat, "columns": list(self.columns)}


@dataclass(frozen=True, slots=True)
class Step:
    """One step after placing the card.

    ``place`` a furniture/pet ``item`` on a room; ``use`` a nurture ``item`` (fertilizer
    and watering can name one cell, the trowel up to three plants); ``thumb`` is green
    thumb action C (+1 verdancy to one plant).
    """

    step: str
    item: str | None
    at: tuple[Pos, ...]

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "item": self.item, "at": [list(p) for p in self.at]}


@dataclass(frozen=True, slots=True)
class Turn:
    """A player's selection, placement, items and storage: the end of their turn."""

    seat: int
    take: str  # "plant" or "room"
    column: int  # the card's market column
    token: int  # the token's market column (the same unless ``free``)
    at: Pos
    free: bool = False  # green thumb action B
    steps: tuple[Step, ...] = ()
    store: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "turn",
            "seat": self.seat,
            "take": self.take,
            "column": self.column,
            "token": self.token,
            "at": list(self.at),
            "free": self.free,
            "steps": [s.to_json() for s in self.steps],
            "store": self.store,
        }


Move = Start | Wipe | Turn


def _int(value: Any, what: str, code: str) -> int:
    if is_int(value):
        return value
    raise InvalidMove(f"{what} must be an integer, not {value!r}.", code)


def _pos(value: Any, what: str) -> Pos:
    return read_pair(value, what, "bad_cell")


def _name(value: Any, what: str, code: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise InvalidMove(f"{what} must be a name or null, not {value!r}.", code)


def _step(data: Any) -> Step:
    if not isinstance(data, dict) or data.get("step") not in STEP_KINDS:
        raise InvalidMove(
            'Each step must look like {"step": "place"|"use"|"thumb", "item": ..., "at": [[r, c]]}.',
            "bad_step",
        )
    at = data.get("at", [])
    if not isinstance(at, list):
        raise InvalidMove("A step's 'at' must be a list of [row, column] cells.", "bad_step")
    item = _name(data.get("item"), "A step's 'item'", "bad_step")
    return Step(str(data["step"]), item, tuple(_pos(p, "A step's cell") for p in at))


def move_from_json(data: Any) -> Move:
    """Read a move from its JSON form; raises ``InvalidMove`` if it is malformed."""
    if not isinstance(data, dict):
        raise InvalidMove("A move must be a JSON object.", "bad_move")
    kind = data.get("type")
    seat = _int(data.get("seat"), "A move's 'seat'", "bad_seat")
    if kind == "start":
        side = data.get("side")
        if side not in SIDES:
            raise InvalidMove(f"The 'side' must be one of {', '.join(SIDES)}.", "bad_side")
        return Start(seat, str(side))
    if kind == "wipe":
        columns = data.get("columns")
        if not isinstance(columns, list):
            raise InvalidMove("A wipe needs 'columns': a list of market columns.", "bad_columns")
        return Wipe(seat, tuple(_int(c, "A wiped column", "bad_columns") for c in columns))
    if kind == "turn":
        take = data.get("take")
        if take not in TAKES:
            raise InvalidMove('A turn must \'take\' a "plant" or a "room".', "bad_take")
        steps = data.get("steps", [])
        if not isinstance(steps, list):
            raise InvalidMove("The 'steps' of a turn must be a list.", "bad_step")
        free = data.get("free", False)
        if not isinstance(free, bool):
            raise InvalidMove("A turn's 'free' must be true or false.", "bad_move")
        return Turn(
            seat=seat,
            take=str(take),
            column=_int(data.get("column"), "A turn's 'column'", "bad_columns"),
            token=_int(data.get("token"), "A turn's 'token'", "bad_columns"),
            at=_pos(data.get("at"), "A turn's 'at'"),
            free=free,
            steps=tuple(_step(s) for s in steps),
            store=_name(data.get("store"), "A turn's 'store'", "bad_store"),
        )
    raise InvalidMove("A move's 'type' must be 'start', 'wipe' or 'turn'.", "bad_move")


def check_shape(move: Move) -> None:
    """Refuse a move built in code with names ``move_from_json`` would not have read."""
    if isinstance(move, Start) and move.side not in SIDES:
        raise InvalidMove(f"The 'side' must be one of {', '.join(SIDES)}.", "bad_side")
    if isinstance(move, Turn):
        if move.take not in TAKES:
            raise InvalidMove('A turn must \'take\' a "plant" or a "room".', "bad_take")
        if any(step.step not in STEP_KINDS for step in move.steps):
            raise InvalidMove("A step is 'place', 'use' or 'thumb'.", "bad_step")


def move_to_json(move: Move) -> dict[str, Any]:
    return move.to_json()
