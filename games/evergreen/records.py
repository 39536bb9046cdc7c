"""The game record as a viewer may download it, and a move in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from . import rules
from .cards import card_info
from .rules.edition import Edition
from .rules.record import GameRecord

# --- Replay and records ---------------------------------------------------------------------


def unrevealed_moves(record: GameRecord, state: rules.GameState, viewer: int | None) -> set[int]:
    """Indexes (0-based) of the record's moves that are other seats' turns not yet revealed."""
    hidden_seats = {i for i, s in enumerate(state.seats) if s.turn is not None and i != viewer}
    found: set[int] = set()
    for index in range(len(record.moves) - 1, -1, -1):
        move = record.moves[index]
        if isinstance(move, rules.Turn) and move.seat in hidden_seats:
            found.add(index)
            hidden_seats.discard(move.seat)
        if not hidden_seats:
            break
    return found


def record_for_viewer(
    record: GameRecord, state: rules.GameState, viewer: int | None, *, finished: bool
) -> dict[str, Any]:
    """The downloadable record: whole when the game is over; while it runs, without the
    seed (seed and moves give away the deck order) and without other seats' unrevealed turns."""
    data = record.to_json(state if finished else None)
    if finished:
        return data
    del data["seed"]
    hidden = unrevealed_moves(record, state, viewer)
    data["moves"] = [m for k, m in enumerate(data["moves"]) if k not in hidden]
    data["in_progress"] = True
    if hidden:
        data["unrevealed_turns"] = sorted(record.moves[k].seat for k in hidden)
    return data


def describe_move(edition: Edition, move: rules.Move, names: Sequence[str]) -> str:
    """A move in a sentence that gives nothing away: picks are public, turns show on the board."""
    name = names[move.seat] if move.seat < len(names) else "?"
    if isinstance(move, rules.Pick):
        card = card_info(edition, move.card) if move.card in edition.cards else None
        what = card.label if card else move.card
        return _("%(name)s picked %(card)s.") % {"name": name, "card": what}
    return _("%(name)s played a turn.") % {"name": name}
