"""The envelope every game record shares, and the replay of its moves.

A record is a JSON object ``{"format", "version", "edition", "seed", "players",
"options", "moves"[, "result"]}`` (``docs/game-record.md``,
``docs/verdant-game-record.md``). Each engine's ``GameRecord`` has a ``RecordFormat``,
reads and writes its own ``options`` and moves, and leaves the rest to this module, so
both read, check and write the envelope alike, key for key.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from .errors import InvalidState, RulesError
from .jsonread import is_int

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
OptionsT = TypeVar("OptionsT")  # a game's options, as its engine reads them

RECORD_VERSION = 1


def replayed(
    start: StateT, moves: Iterable[MoveT], step: Callable[[StateT, MoveT], StateT]
) -> Iterator[StateT]:
    """``start``, then the state after each move (``step(state, move)``).

    A move the rules refuse raises ``InvalidState`` (``record_illegal_move``) naming its
    number in the record, with the refusal as its cause.
    """
    state = start
    yield state
    for number, move in enumerate(moves, start=1):
        try:
            state = step(state, move)
        except RulesError as exc:
            raise InvalidState(
                f"Move {number} of the record is illegal: {exc.message}", "record_illegal_move"
            ) from exc
        yield state


class Written(Protocol):
    """What a record's JSON is written from: a move, an outcome."""

    def to_json(self) -> Any: ...


class Finished(Protocol):
    @property
    def outcome(self) -> Written | None: ...


class Record(Protocol):
    """The fields every engine's ``GameRecord`` has."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int: ...
    @property
    def edition(self) -> str: ...
    @property
    def moves(self) -> Sequence[Written]: ...


@dataclass(frozen=True)
class Envelope(Generic[OptionsT, MoveT]):
    """A record as read: every field checked, options and moves as the engine read them."""

    players: tuple[str, ...]
    seed: int
    edition: str
    options: OptionsT
    moves: tuple[MoveT, ...]


@dataclass(frozen=True)
class RecordFormat:
    """One game's record format: its ``format`` name, what refusing another document
    says, and how many players a game has at most."""

    name: str
    not_a_record: str
    max_players: int

    def write(
        self, record: Record, options: Mapping[str, object], final: Finished | None = None
    ) -> dict[str, Any]:
        """``record`` as JSON, its keys in the documented order; with the ``result`` when
        ``final`` (the state the record reaches) is over."""
        data: dict[str, Any] = {
            "format": self.name,
            "version": RECORD_VERSION,
            "edition": record.edition,
            "seed": record.seed,
            "players": list(record.players),
            "options": dict(options),
            "moves": [m.to_json() for m in record.moves],
        }
        if final is not None and final.outcome is not None:
            data["result"] = final.outcome.to_json()
        return data

    def read(
        self,
        data: Any,
        read_options: Callable[[dict[str, Any]], OptionsT],
        read_move: Callable[[Any], MoveT],
    ) -> Envelope[OptionsT, MoveT]:
        """Read and check a record's envelope; ``read_options`` and ``read_move`` do the rest.

        Raises ``InvalidState``: ``not_a_record`` when ``data`` is not of this format,
        ``bad_record`` when the version is not supported or a field is missing or of the
        wrong type (``read_options`` says so by raising ``TypeError``). ``read_move``'s
        own errors (``InvalidMove``) pass through.
        """
        if not isinstance(data, dict) or data.get("format") != self.name:
            raise InvalidState(self.not_a_record, "not_a_record")
        if data.get("version") != RECORD_VERSION:
            raise InvalidState(f"Unsupported record version {data.get('version')!r}.", "bad_record")
        try:
            players = data["players"]
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise TypeError("players must be a list of names")
            if not 1 <= len(players) <= self.max_players:
                raise TypeError(f"a game has 1 to {self.max_players} players")
            seed = data["seed"]
            if not is_int(seed):
                raise TypeError("seed must be an integer")
            options = data.get("options") or {}
            if not isinstance(options, dict):
                raise TypeError("options must be an object")
            read = read_options(options)
            edition = data["edition"]
            if not isinstance(edition, str):
                raise TypeError("edition must be a name")
            if not isinstance(data["moves"], list):
                raise TypeError("moves must be a list")
            moves = tuple(read_move(m) for m in data["moves"])
            return Envelope(tuple(players), seed, edition, read, moves)
        except (KeyError, TypeError) as exc:
            raise InvalidState(
                f"The game record is incomplete or malformed: {exc}", "bad_record"
            ) from exc
