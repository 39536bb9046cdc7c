"""The Evergreen rules engine: pure Python, no Django, no clock, no global randomness.

Typical use::

    from games.evergreen import rules
    state = rules.new_game(players=2, seed=42)
    state = rules.apply(state, rules.Pick(seat=state.awaiting[0], card=state.pool[0]))
"""

from games.enginekit.errors import (
    IllegalMove,
    InvalidEdition,
    InvalidMove,
    InvalidState,
    RulesError,
)

from .edition import DEFAULT_EDITION, POWERS, Card, Edition, load_edition
from .engine import advance, apply, fertility_values, needs_advance, new_game, round_complete
from .moves import Effect, LakePlacement, Move, Pick, PowerUse, Turn, move_from_json, move_to_json
from .planet import BIOMES, SUNS, Planet
from .state import GameState, Outcome, Phase, SeasonScore, SeatState, state_from_json, state_to_json

__all__ = [
    "BIOMES",
    "DEFAULT_EDITION",
    "POWERS",
    "SUNS",
    "Card",
    "Edition",
    "Effect",
    "GameState",
    "IllegalMove",
    "InvalidEdition",
    "InvalidMove",
    "InvalidState",
    "LakePlacement",
    "Move",
    "Outcome",
    "Phase",
    "Pick",
    "Planet",
    "PowerUse",
    "RulesError",
    "SeasonScore",
    "SeatState",
    "Turn",
    "advance",
    "apply",
    "fertility_values",
    "load_edition",
    "move_from_json",
    "move_to_json",
    "needs_advance",
    "new_game",
    "round_complete",
    "state_from_json",
    "state_to_json",
]
