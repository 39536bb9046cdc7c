"""What every pairing shares: its values (entrants, a round's tables), the checks of
table sizes and entries, the table sizes for a number of players, and the seat order
that balances each player's earlier seats."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

MAX_TABLE = 5
"""The largest table any game seats (Verdant 5, Evergreen 4): an event checks its own
game's limit (``services.check_event``)."""


class PairingError(ValueError):
    """Input the pairing functions cannot seat; ``code`` is stable for programs."""

    def __init__(self, message: str, code: str = "invalid_pairing") -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class Entrant:
    """One player entering a Swiss round, with what the pairing needs to know."""

    id: int
    points: float = 0.0
    score: int = 0
    seats: tuple[int, ...] = ()
    byes: int = 0


Meetings = Mapping[frozenset[int], int]
"""How many times each pair of players already sat at one table."""


@dataclass(frozen=True)
class Pairing:
    """One round: tables of player ids in seat order (index 0 plays first), and byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    def players(self) -> list[int]:
        """Everyone seated, table by table."""
        return [player for table in self.tables for player in table]


def meetings_from(tables: Iterable[Sequence[int]]) -> dict[frozenset[int], int]:
    """Count how often each pair of players shared a table.

    >>> meetings_from([(1, 2, 3), (1, 2)])[frozenset({1, 2})]
    2
    """
    counts: dict[frozenset[int], int] = {}
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            pair = frozenset((a, b))
            counts[pair] = counts.get(pair, 0) + 1
    return counts


def check_sizes(table_size: int, min_size: int) -> None:
    if not 1 <= table_size <= MAX_TABLE:
        raise PairingError(
            f"A table seats 1 to {MAX_TABLE} players, not {table_size}.", "invalid_table_size"
        )
    if not 1 <= min_size <= table_size:
        raise PairingError(
            f"The smallest table ({min_size}) must seat 1 to {table_size} players.",
            "invalid_min_size",
        )


def check_unique(players: Sequence[int]) -> None:
    if len(set(players)) != len(players):
        raise PairingError("A player is entered twice.", "duplicate_player")


def table_sizes(n: int, table_size: int, min_size: int) -> tuple[list[int], int]:
    """Table sizes for ``n`` players (largest first) and the number of unavoidable byes.

    As few byes as possible; then as few tables as possible, their sizes as even as
    possible (so 10 players at tables of 4 sit 4, 3, 3 rather than 4, 4, 2). Raises
    :class:`PairingError` for sizes outside 1-4 or a minimum above the table size.

    >>> table_sizes(9, 4, 3)
    ([3, 3, 3], 0)
    >>> table_sizes(5, 4, 4)
    ([4], 1)
    """
    check_sizes(table_size, min_size)
    if n < 0:
        raise PairingError("The number of players cannot be negative.", "invalid_count")
    for byes in range(n + 1):
        seated = n - byes
        if seated == 0:
            return [], byes
        tables = -(-seated // table_size)
        if tables * min_size <= seated:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra), byes
    raise AssertionError("unreachable: zero seated players always fits")


def seat_cost(table: Sequence[int], history: Mapping[int, Sequence[int]]) -> tuple[int, int, int]:
    """How unbalanced everyone's seats would be with ``table`` in this order.

    First the sum of squared counts of each seat (each seat as often as another),
    then the squared spread of seat positions from their mean (late seats make up
    for early ones), then how often players keep their last seat.
    """
    counts = 0
    spread = 0
    repeats = 0
    middle = (len(table) - 1) / 2
    for seat, player in enumerate(table):
        seats = [*history.get(player, ()), seat]
        counts += sum(seats.count(s) ** 2 for s in set(seats))
        drift = sum(s - middle for s in seats)
        spread += round(4 * drift * drift)
        if len(seats) > 1 and seats[-2] == seat:
            repeats += 1
    return counts, spread, repeats


def seat_order(
    table: Sequence[int], seat_history: Mapping[int, Sequence[int]], *, seed: int = 0
) -> tuple[int, ...]:
    """The players of ``table`` in the seat order that best balances their earlier seats.

    Tries every order (at most 24) and keeps the one whose seat counts are most even
    (see ``seat_cost``); ties go to a seeded shuffle. Raises :class:`PairingError` for
    a table of more than four players or a player listed twice.
    """
    check_unique(table)
    if len(table) > MAX_TABLE:
        raise PairingError(f"A table seats at most {MAX_TABLE} players.", "invalid_table_size")
    orders = list(itertools.permutations(sorted(table)))
    random.Random(seed).shuffle(orders)
    return min(orders, key=lambda order: seat_cost(order, seat_history))


def seat_tables(
    tables: Iterable[Sequence[int]], history: dict[int, list[int]], seed: int
) -> tuple[tuple[int, ...], ...]:
    """Seat-order every table of a round, and add the seats to ``history``."""
    seated = []
    for number, table in enumerate(tables):
        ordered = seat_order(table, history, seed=seed * 1_000 + number)
        for seat, player in enumerate(ordered):
            history.setdefault(player, []).append(seat)
        seated.append(ordered)
    return tuple(seated)
