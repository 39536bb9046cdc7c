"""What a move did, as plain facts: for recaps in mails and on pages (worded by the site).

``move_facts(before, move, after)`` compares the states around an accepted move and
returns JSON-ready facts: the card and token taken, the cell, the items placed and used,
the plants completed with their pots, the item stored, the green thumbs gained or spent.
"""

from __future__ import annotations

from typing import Any

from .home import position
from .moves import Move, Start, Turn, Wipe
from .state import GameState


def move_facts(before: GameState, move: Move, after: GameState) -> dict[str, Any]:
    """The facts of ``move`` (accepted: ``after`` is the state it led to)."""
    if isinstance(move, Start):
        return {"type": "start", "seat": move.seat}
    if isinstance(move, Wipe):
        return {
            "type": "wipe",
            "seat": move.seat,
            "returned": [before.market_tokens[c] for c in move.columns],
            "drawn": [after.market_tokens[c] for c in move.columns],
        }
    assert isinstance(move, Turn)
    row = before.market_plants if move.take == "plant" else before.market_rooms
    old, new = before.seats[move.seat], after.seats[move.seat]
    completed = [
        {"card": new.home.cards[i], "cell": list(position(i)), "pot": new.home.pots[i]}
        for i, done in enumerate(new.home.completed)
        if done and not old.home.completed[i]
    ]
    return {
        "type": "turn",
        "seat": move.seat,
        "card": row[move.column],
        "token": before.market_tokens[move.token],
        "at": list(move.at),
        "free": move.free,
        "placed": [
            {"item": s.item, "cell": list(s.at[0])} for s in move.steps if s.step == "place"
        ],
        "used": [
            {"item": s.item, "cells": [list(p) for p in s.at]}
            for s in move.steps
            if s.step == "use"
        ],
        "thumb_actions": sum(1 for s in move.steps if s.step == "thumb"),
        "completed": completed,
        "stored": move.store,
        "thumbs": new.thumbs,
        "thumbs_before": old.thumbs,
    }
