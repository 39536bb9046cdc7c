"""The Verdant rules engine: pure Python, no Django, no clock, no global randomness.

Typical use::

    from games.verdant import rules
    state = rules.new_game(players=2, seed=42)
    for seat in state.awaiting:
        state = rules.apply(state, rules.Start(seat, "right"))
    seat = state.to_play
    state = rules.apply(state, rules.Turn(seat, "plant", 0, 0, at=(0, 2)))
"""

from games.enginekit.errors import (
    IllegalMove,
    InvalidEdition,
    InvalidMove,
    InvalidState,
    RulesError,
)

from .bots import make_bot
from .edition import DEFAULT_EDITION, Edition, load_edition
from .engine import apply, apply_unchecked, new_game, score_seat
from .events import move_facts
from .moves import Move, Start, Step, Turn, Wipe, move_from_json, move_to_json
from .record import GameRecord
from .scoring import Score, score_home
from .state import GameState, Outcome, Phase, SeatState, state_from_json, state_to_json
from .targets import Selection, green_thumb_actions, legal_cells, legal_selections
from .view import player_view

__all__ = [
    "DEFAULT_EDITION",
    "Edition",
    "GameRecord",
    "GameState",
    "IllegalMove",
    "InvalidEdition",
    "InvalidMove",
    "InvalidState",
    "Move",
    "Outcome",
    "Phase",
    "RulesError",
    "Score",
    "SeatState",
    "Selection",
    "Start",
    "Step",
    "Turn",
    "Wipe",
    "apply",
    "apply_unchecked",
    "green_thumb_actions",
    "legal_cells",
    "legal_selections",
    "load_edition",
    "make_bot",
    "move_facts",
    "move_from_json",
    "move_to_json",
    "new_game",
    "player_view",
    "score_home",
    "score_seat",
    "state_from_json",
    "state_to_json",
]
