"""Round robins: a division's whole schedule, everyone meeting as evenly as the rounds
allow (exact designs where they exist: the circle method, affine planes)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from ..schedule import even_schedule
from .core import (
    Pairing,
    PairingError,
    check_sizes,
    check_unique,
    seat_cost,
    seat_tables,
    table_sizes,
)


def _circle(n: int) -> list[list[tuple[int, int]]]:
    """The circle method: n-1 rounds (n even) of pairs of 0..n-1, each pair once."""
    rounds = []
    rest = list(range(1, n))
    for _ in range(n - 1):
        line = [0, *rest]
        rounds.append([(line[k], line[n - 1 - k]) for k in range(n // 2)])
        rest = rest[-1:] + rest[:-1]
    return rounds


def _gf_tables(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of the field with q elements (q = 2, 3, 4)."""
    if q == 4:
        # GF(4) = {0, 1, a, a+1} as 0..3; addition is XOR, a*a = a+1.
        add = [[x ^ y for y in range(4)] for x in range(4)]
        log = {1: 0, 2: 1, 3: 2}
        exp = [1, 2, 3]
        mul = [
            [0 if x == 0 or y == 0 else exp[(log[x] + log[y]) % 3] for y in range(4)]
            for x in range(4)
        ]
        return add, mul
    return (
        [[(x + y) % q for y in range(q)] for x in range(q)],
        [[(x * y) % q for y in range(q)] for x in range(q)],
    )


def affine_plane(q: int) -> list[list[list[int]]]:
    """The q+1 parallel classes of the affine plane of order q (q = 2, 3, 4).

    Points are 0..q*q-1 (point x*q + y); each class splits them into q lines of q,
    and every pair of points lies on exactly one line. Raises :class:`PairingError`
    for other orders.
    """
    if q not in (2, 3, 4):
        raise PairingError(f"No affine plane of order {q} here.", "invalid_table_size")
    add, mul = _gf_tables(q)
    classes = [[[x * q + y for y in range(q)] for x in range(q)]]
    for slope in range(q):
        lines: dict[int, list[int]] = {}
        for x in range(q):
            for y in range(q):
                # y = slope * x + b, so b = y - slope * x (in characteristic 2, + = -).
                b = add[y][_neg(mul[slope][x], q)]
                lines.setdefault(b, []).append(x * q + y)
        classes.append([lines[b] for b in sorted(lines)])
    return classes


def _neg(value: int, q: int) -> int:
    return value if q in (2, 4) else (-value) % q


def _default_min(table_size: int) -> int:
    """The smallest table of a round robin when not told: one seat less (at least 2)."""
    return max(min(2, table_size), table_size - 1)


def natural_rounds(n: int, table_size: int, min_size: int | None = None) -> int:
    """Rounds a division plays when not told: enough for everyone to meet everyone.

    Two-player tables: n-1 rounds (n even) or n (n odd, a bye each round). Larger
    tables: enough rounds for each player to meet the n-1 others at full tables, and
    for the tables of a round (see :func:`table_sizes`) to hold every pair once.

    >>> natural_rounds(9, 3), natural_rounds(16, 4), natural_rounds(10, 4)
    (4, 5, 4)
    """
    if n < 2:
        return 0
    if table_size == 2:
        return n - 1 if n % 2 == 0 else n
    minimum = _default_min(table_size) if min_size is None else min_size
    sizes, _ = table_sizes(n, table_size, minimum)
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    if per_round == 0:
        return 0
    every_other = -(-(n - 1) // (table_size - 1))
    every_pair = -(-(n * (n - 1) // 2) // per_round)
    return max(every_other, every_pair)


def round_robin(
    players: Sequence[int],
    *,
    table_size: int,
    rounds: int | None = None,
    seed: int = 0,
    min_size: int | None = None,
) -> list[Pairing]:
    """The whole schedule of a round-robin division: every pair meets as evenly as
    the rounds allow.

    Two-player tables follow the circle method (a full round robin, repeated with the
    seats reversed if more rounds are asked). Nine players at three tables of 3 and
    sixteen at four tables of 4 follow an affine plane, so every pair meets exactly
    once in 4 (or 5) rounds. Otherwise a search evens out the meetings
    (:func:`tournaments.schedule.even_schedule`). Byes rotate so that everyone sits out
    as often as anyone else. Seats are balanced over the whole schedule. ``rounds``
    defaults to :func:`natural_rounds`; ``min_size`` (the smallest table) defaults to
    one less than ``table_size`` (2 for tables of 2 or 3). Raises
    :class:`PairingError` for bad sizes, a negative number of rounds or a player
    entered twice.
    """
    minimum = _default_min(table_size) if min_size is None else min_size
    check_sizes(table_size, minimum)
    check_unique(players)
    n = len(players)
    if rounds is None:
        rounds = natural_rounds(n, table_size, minimum)
    if rounds < 0:
        raise PairingError("The number of rounds cannot be negative.", "invalid_rounds")
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    schedule: list[list[list[int]]]
    byes: list[list[int]]
    sizes, bye_count = table_sizes(n, table_size, minimum)

    circle = table_size == 2 and n >= 2 and minimum == 2
    if circle:
        even = n + n % 2
        cycle = _circle(even)
        schedule, byes = [], []
        for r in range(rounds):
            pairs = cycle[r % len(cycle)]
            schedule.append([[a, b] for a, b in pairs if a < n and b < n])
            byes.append([a if b >= n else b for a, b in pairs if a >= n or b >= n])
    elif bye_count == 0 and sizes in ([3] * 3, [4] * 4):
        # 9 at tables of 3 (or of 4: 3, 3, 3), 16 at tables of 4.
        classes = affine_plane(len(sizes))
        schedule = [classes[r % len(classes)] for r in range(rounds)]
        byes = [[] for _ in range(rounds)]
    else:
        schedule, byes = even_schedule(n, sizes, bye_count, rounds, rng)

    history: dict[int, list[int]] = {}
    result: list[Pairing] = []
    cycle_length = n - 1 + n % 2
    for r, tables in enumerate(schedule):
        if circle and r >= cycle_length:
            # A return leg: the same pairs with the seats the other way round, so
            # every player is first at exactly half of the games of two legs.
            leg = result[r - cycle_length]
            result.append(Pairing(tuple(t[::-1] for t in leg.tables), leg.byes))
            continue
        ids = [[order[i] for i in table] for table in tables]
        ids.sort(key=lambda t: (-len(t), sorted(t)))
        result.append(
            Pairing(seat_tables(ids, history, seed + r), tuple(order[i] for i in byes[r]))
        )
    if not circle:
        result = _balance_seats(result)
    return result


def _balance_seats(schedule: list[Pairing], passes: int = 20) -> list[Pairing]:
    """Re-seat the tables of a known schedule until no single table can even out its
    players' seats over the whole schedule any further.

    Round by round seating (:func:`seat_order`) cannot see the later rounds; with the
    whole schedule known, each table in turn takes the order that best balances its
    players' seats in every other round. A table changes only for a strictly better
    balance, so this ends.
    """
    seats: dict[int, dict[int, int]] = {}
    for r, pairing in enumerate(schedule):
        for table in pairing.tables:
            for seat, player in enumerate(table):
                seats.setdefault(player, {})[r] = seat
    rounds = [[list(t) for t in pairing.tables] for pairing in schedule]

    def cost(order: Sequence[int], r: int) -> tuple[int, int]:
        history = {p: [s for q, s in seats[p].items() if q != r] for p in order}
        counts, spread, _ = seat_cost(order, history)
        return counts, spread

    for _ in range(passes):
        changed = False
        for r, tables in enumerate(rounds):
            for t, current in enumerate(tables):
                best = current
                best_cost = cost(current, r)
                for order in itertools.permutations(sorted(current)):
                    order_cost = cost(order, r)
                    if order_cost < best_cost:
                        best, best_cost = list(order), order_cost
                if best is not current:
                    tables[t] = best
                    for seat, player in enumerate(best):
                        seats[player][r] = seat
                    changed = True
        if not changed:
            break
    return [
        Pairing(tuple(tuple(t) for t in tables), pairing.byes)
        for tables, pairing in zip(rounds, schedule, strict=True)
    ]
