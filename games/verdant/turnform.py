"""The turn builder's choices written in one ``turn`` parameter, and read back.

The page builds a turn one choice at a time without JavaScript: every choice is a link or
a radio button whose value is the whole turn so far, so the address holds the turn and
the page (cached by that parameter) shows the next question. The parts, joined by "/":

* the selection: ``plant-2-2`` (the card of column 2 with the token of column 2) or
  ``room-1-3-b`` (green thumb action B: card of column 1, token of column 3);
* the cell of the card: ``-1_0`` (row -1, column 0 from the starting room);
* then one part per step: ``place.cat.0_1``, ``use.fertilizer.0_1``,
  ``use.trowel.0_1+1_2``, ``thumb.0_1``, ``skip.cat`` (the item is left unused),
  ``done`` after the hand trowel's last plant, and ``end`` once no more green thumbs are
  spent.

``move_from_form`` turns the finished ``turn`` (and ``store``) into the engine's JSON move.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]


@dataclass(frozen=True)
class Draft:
    """A turn being built: what is chosen so far."""

    take: str | None = None
    column: int = 0
    token: int = 0
    free: bool = False
    at: Cell | None = None
    steps: tuple[tuple[str, str | None, tuple[Cell, ...]], ...] = ()
    skipped: tuple[str, ...] = ()
    ended: bool = False  # no more green thumb action C this turn
    parts: tuple[str, ...] = field(default=())

    def then(self, part: str) -> str:
        """The ``turn`` value of this draft followed by ``part``."""
        return "/".join((*self.parts, part))

    @property
    def code(self) -> str:
        return "/".join(self.parts)

    def used(self) -> list[str]:
        return [item for step, item, _ in self.steps if step != "thumb" and item] + list(
            self.skipped
        )

    def thumb_steps(self) -> int:
        return sum(1 for step, _, _ in self.steps if step == "thumb")


def cell_code(cell: Cell) -> str:
    return f"{cell[0]}_{cell[1]}"


def _cell(text: str) -> Cell:
    row, col = text.split("_")
    return (int(row), int(col))


def parse(text: str | None) -> Draft:
    """The draft a ``turn`` value describes; raises ``ValueError`` for a malformed one."""
    if not text:
        return Draft()
    parts = tuple(text.split("/"))
    pick = parts[0].split("-")
    if len(pick) not in (3, 4) or pick[0] not in ("plant", "room"):
        raise ValueError("bad selection")
    if len(pick) == 4 and pick[3] != "b":
        raise ValueError("bad selection")
    draft = Draft(pick[0], int(pick[1]), int(pick[2]), len(pick) == 4, parts=parts[:1])
    if len(parts) == 1:
        return draft
    at = _cell(parts[1])
    steps: list[tuple[str, str | None, tuple[Cell, ...]]] = []
    skipped: list[str] = []
    ended = False
    for part in parts[2:]:
        bits = part.split(".")
        if bits[0] == "thumb" and len(bits) == 2:
            steps.append(("thumb", None, (_cell(bits[1]),)))
        elif bits[0] in ("place", "use") and len(bits) == 3:
            steps.append((bits[0], bits[1], tuple(_cell(c) for c in bits[2].split("+"))))
        elif bits[0] == "skip" and len(bits) == 2:
            skipped.append(bits[1])
        elif bits == ["end"]:
            ended = True
        elif bits == ["done"]:
            pass  # no more plants for the hand trowel
        else:
            raise ValueError("bad step")
    return Draft(
        draft.take,
        draft.column,
        draft.token,
        draft.free,
        at,
        tuple(steps),
        tuple(skipped),
        ended,
        parts,
    )


def to_move(draft: Draft, store: str | None) -> dict[str, Any]:
    """The engine's JSON turn for a finished draft (the seat is added by the platform)."""
    assert draft.take is not None and draft.at is not None
    return {
        "type": "turn",
        "take": draft.take,
        "column": draft.column,
        "token": draft.token,
        "free": draft.free,
        "at": list(draft.at),
        "steps": [
            {"step": step, "item": item, "at": [list(c) for c in cells]}
            for step, item, cells in draft.steps
        ],
        "store": store or None,
    }


def move_from_form(data: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON move of the page's forms: a start side, a wipe, or a finished turn.
    Anything unreadable becomes a move the engine refuses with its own code."""
    kind = data.get("type", "turn")
    if kind == "start":
        return {"type": "start", "side": data.get("side", "")}
    if kind == "wipe":
        getlist = getattr(data, "getlist", None)
        columns = getlist("columns") if getlist else data.get("columns", [])
        try:
            return {"type": "wipe", "columns": [int(c) for c in columns]}
        except (TypeError, ValueError):
            return {"type": "wipe", "columns": None}
    try:
        draft = parse(data.get("turn"))
    except ValueError:
        return {"type": "turn", "take": None}
    if draft.take is None or draft.at is None:
        return {"type": "turn", "take": None}
    return to_move(draft, data.get("store") or None)
