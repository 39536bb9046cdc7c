"""Game records: the portable history of a game (edition, seed, players, options, moves).

A record replays to exactly the state the game reached; it is what the site stores as
the source of truth and what users download. Format documented in docs/game-record.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from games.enginekit.records import RECORD_VERSION, RecordFormat, replayed

from .edition import DEFAULT_EDITION
from .engine import apply, new_game
from .moves import Move, move_from_json
from .planet import SUNS
from .state import GameState

RECORD_FORMAT = "evergreen-record"
FORMAT = RecordFormat(RECORD_FORMAT, "This is not an Evergreen game record.", max_players=4)
__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "GameRecord"]


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game."""

    players: tuple[str, ...]
    seed: int
    edition: str = DEFAULT_EDITION
    sun: str = "N"
    moves: tuple[Move, ...] = field(default=())

    def start(self) -> GameState:
        """The state after setup, before any move."""
        return new_game(len(self.players), self.seed, edition=self.edition, sun=self.sun)

    def with_move(self, move: Move) -> GameRecord:
        return replace(self, moves=(*self.moves, move))

    def states(self) -> Iterator[GameState]:
        """The state after setup, then after each move (each move checked by the rules)."""
        return replayed(self.start(), self.moves, apply)

    def replay(self) -> GameState:
        """The final state; raises ``InvalidState`` if a move of the record is illegal."""
        *_, final = self.states()
        return final

    def to_json(self, final: GameState | None = None) -> dict[str, Any]:
        return FORMAT.write(self, {"sun": self.sun}, final)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record; raises ``InvalidState`` (or ``InvalidMove``) when it is malformed."""
        read = FORMAT.read(data, _sun, move_from_json)
        return cls(read.players, read.seed, read.edition, read.options, read.moves)


def _sun(options: dict[str, Any]) -> str:
    sun = options.get("sun", "N")
    if sun not in SUNS:
        raise TypeError("options.sun must be one of N, E, S, W")
    return str(sun)
