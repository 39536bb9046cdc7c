"""Game records: the portable history of a game (edition, seed, players, options, moves).

A record replays to exactly the state the game reached; it is what the site stores as
the source of truth and what users download. Format: ``docs/verdant-game-record.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from .edition import DEFAULT_EDITION
from .engine import MAX_PLAYERS, apply, apply_unchecked, new_game
from .errors import InvalidState, RulesError
from .moves import Move, Start, move_from_json
from .state import VARIANTS, GameState, Phase

RECORD_FORMAT = "verdant-record"
RECORD_VERSION = 1


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
        state = self.start()
        yield state
        step = apply if checked else apply_unchecked
        for number, move in enumerate(self.moves, start=1):
            try:
                state = step(state, move)
            except RulesError as exc:
                raise InvalidState(
                    f"Move {number} of the record is illegal: {exc.message}", "record_illegal_move"
                ) from exc
            yield state

    def replay(self, *, checked: bool = True) -> GameState:
        """The final state; raises ``InvalidState`` if a move of the record is illegal."""
        *_, final = self.states(checked=checked)
        return final

    def to_json(self, final: GameState | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "edition": self.edition,
            "seed": self.seed,
            "players": list(self.players),
            "options": {"variant": self.variant, "goals": self.goals},
            "moves": [m.to_json() for m in self.moves],
        }
        if final is not None and final.outcome is not None:
            data["result"] = final.outcome.to_json()
        return data

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record; raises ``InvalidState`` (or ``InvalidMove``) when it is malformed."""
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise InvalidState("This is not a Verdant game record.", "not_a_record")
        if data.get("version") != RECORD_VERSION:
            raise InvalidState(f"Unsupported record version {data.get('version')!r}.", "bad_record")
        try:
            players = data["players"]
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise TypeError("players must be a list of names")
            if not 1 <= len(players) <= MAX_PLAYERS:
                raise TypeError(f"a game has 1 to {MAX_PLAYERS} players")
            seed = data["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise TypeError("seed must be an integer")
            options = data.get("options") or {}
            if not isinstance(options, dict):
                raise TypeError("options must be an object")
            variant = options.get("variant", "standard")
            if variant not in VARIANTS:
                raise TypeError(f"options.variant must be one of {', '.join(VARIANTS)}")
            goals = options.get("goals", False)
            if not isinstance(goals, bool):
                raise TypeError("options.goals must be true or false")
            edition = data["edition"]
            if not isinstance(edition, str):
                raise TypeError("edition must be a name")
            if not isinstance(data["moves"], list):
                raise TypeError("moves must be a list")
            moves = tuple(move_from_json(m) for m in data["moves"])
            return cls(tuple(players), seed, edition, variant, goals, moves)
        except (KeyError, TypeError) as exc:
            raise InvalidState(
                f"The game record is incomplete or malformed: {exc}", "bad_record"
            ) from exc


def unrevealed_moves(record: GameRecord, state: GameState, viewer: int | None) -> set[int]:
    """Indexes (0-based) of the record's moves ``viewer`` may not see yet: other seats'
    start placements while some are still to come. (A running game's record must also
    leave out the seed, which with the moves gives away the decks and the bag.)"""
    if state.phase is not Phase.START:
        return set()
    return {
        k for k, move in enumerate(record.moves) if isinstance(move, Start) and move.seat != viewer
    }
