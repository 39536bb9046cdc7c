"""Game records: the portable history of a game (edition, seed, players, options, moves).

A record replays to exactly the state the game reached; it is what the site stores as
the source of truth and what users download. Format: ``docs/verdant-game-record.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from games.enginekit.records import RecordFormat, replayed

from .edition import DEFAULT_EDITION
from .engine import MAX_PLAYERS, apply, apply_unchecked, new_game
from .moves import Move, Start, move_from_json
from .state import VARIANTS, GameState, Phase

RECORD_FORMAT = "verdant-record"
FORMAT = RecordFormat(RECORD_FORMAT, "This is not a Verdant game record.", MAX_PLAYERS)


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game."""

    players: tuple[str, ...]
    seed: int
    edition: str = DEFAULT_EDITION
    variant: str = "standard"
    goals: bool = False
    moves: tuple[Move, ...] = field(default=())

    def start(self) -> GameState:
        """The state after set-up, before any move."""
        return new_game(
            len(self.players),
            self.seed,
            edition=self.edition,
            variant=self.variant,
            goals=self.goals,
        )

    def with_move(self, move: Move) -> GameRecord:
        return replace(self, moves=(*self.moves, move))

    def states(self, *, checked: bool = True) -> Iterator[GameState]:
        """The state after set-up, then after each move.

        ``checked=False`` takes the moves as already accepted (who moved when is not
        checked again): the fast path for rebuilding a stored game.
        """
        return replayed(self.start(), self.moves, apply if checked else apply_unchecked)

    def replay(self, *, checked: bool = True) -> GameState:
        """The final state; raises ``InvalidState`` if a move of the record is illegal."""
        *_, final = self.states(checked=checked)
        return final

    def to_json(self, final: GameState | None = None) -> dict[str, Any]:
        return FORMAT.write(self, {"variant": self.variant, "goals": self.goals}, final)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record; raises ``InvalidState`` (or ``InvalidMove``) when it is malformed."""
        read = FORMAT.read(data, _variant_and_goals, move_from_json)
        variant, goals = read.options
        return cls(read.players, read.seed, read.edition, variant, goals, read.moves)


def _variant_and_goals(options: dict[str, Any]) -> tuple[str, bool]:
    variant = options.get("variant", "standard")
    if variant not in VARIANTS:
        raise TypeError(f"options.variant must be one of {', '.join(VARIANTS)}")
    goals = options.get("goals", False)
    if not isinstance(goals, bool):
        raise TypeError("options.goals must be true or false")
    return str(variant), goals


def unrevealed_moves(record: GameRecord, state: GameState, viewer: int | None) -> set[int]:
    """Indexes (0-based) of the record's moves ``viewer`` may not see yet: other seats'
    start placements while some are still to come. (A running game's record must also
    leave out the seed, which with the moves gives away the decks and the bag.)"""
    if state.phase is not Phase.START:
        return set()
    return {
        k for k, move in enumerate(record.moves) if isinstance(move, Start) and move.seat != viewer
    }
