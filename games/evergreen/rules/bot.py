"""The computer player's interface: ``choose(state, seat)`` returns that seat's next move.

Each bot owns a ``random.Random`` seeded by its creator, so a game between bots is
reproducible and the global generator is never touched.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from .moves import Move, Pick, Turn
from .state import GameState, Phase


class Bot(ABC):
    """Base class: ``choose(state, seat)`` returns that seat's next move."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Move:
        if state.phase is Phase.DRAFT:
            return Pick(seat, self.pick(state, seat))
        if state.phase is Phase.ACTION:
            return self.turn(state, seat)
        raise ValueError("the game is over")

    @abstractmethod
    def pick(self, state: GameState, seat: int) -> str:
        """The card ``seat`` takes from the pool."""

    @abstractmethod
    def turn(self, state: GameState, seat: int) -> Turn:
        """The whole turn ``seat`` plays this round."""
