"""The search behind one round's pairing: splitting players into tables at the least cost.

:func:`best_partition` puts players into tables of given sizes minimising the sum of a
pair cost over every pair at a table. An iterated local search (swaps between tables,
seeded kicks) finds a good split; a branch and bound proves the optimum when there are
few enough splits. Seeded and bounded by counts (never by the clock, so a seed always
gives the same tables). A whole round-robin schedule is searched in
:mod:`tournaments.schedule`.

No maintained library does this for tables of 3-4 players (Swiss and round-robin
libraries pair two players), so it is written here.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence

EXACT_LIMIT = 20_000
"""Seatings of one round searched exhaustively when there are at most this many."""

Matrix = list[list[int]]
"""Pair costs (or meeting counts) between players 0..n-1, symmetric, zero diagonal."""


def seatings_count(sizes: Sequence[int]) -> int:
    """How many different ways split sum(sizes) players into tables of these sizes."""
    count = math.factorial(sum(sizes))
    for size in sizes:
        count //= math.factorial(size)
    for size in set(sizes):
        count //= math.factorial(sizes.count(size))
    return count


def _table_cost(table: Sequence[int], cost: Matrix) -> int:
    return sum(cost[a][b] for a, b in itertools.combinations(table, 2))


def partition_cost(tables: Iterable[Sequence[int]], cost: Matrix) -> int:
    """Sum of ``cost[a][b]`` over every pair seated at one table."""
    return sum(_table_cost(table, cost) for table in tables)


def _exact(
    order: Sequence[int], sizes: Sequence[int], cost: Matrix, bound: int
) -> list[list[int]] | None:
    """Branch and bound over every seating; the best one cheaper than ``bound``, if any.

    Players are placed in ``order``; a player opens an empty table only at the first
    empty table of each size, so equal tables are not searched twice.
    """
    tables: list[list[int]] = [[] for _ in sizes]
    best: list[list[int]] | None = None
    best_cost = bound

    def place(index: int, so_far: int) -> None:
        nonlocal best, best_cost
        if index == len(order):
            best, best_cost = [list(t) for t in tables], so_far
            return
        player = order[index]
        opened: set[int] = set()
        for t, table in enumerate(tables):
            if len(table) == sizes[t]:
                continue
            if not table:
                if sizes[t] in opened:
                    continue
                opened.add(sizes[t])
            step = so_far + sum(cost[player][other] for other in table)
            if step >= best_cost:
                continue
            table.append(player)
            place(index + 1, step)
            table.pop()

    place(0, 0)
    return best


class _Seating:
    """Tables under local search, with each player's cost to every table kept up to
    date, so a swap is priced in constant time."""

    def __init__(self, tables: Sequence[Sequence[int]], cost: Matrix) -> None:
        self.cost = cost
        self.log: list[tuple[int, int]] = []
        self.tables = [list(t) for t in tables]
        self.where = {p: t for t, table in enumerate(self.tables) for p in table}
        self.to_table = {
            p: [sum(cost[p][u] for u in table) for table in self.tables] for p in self.where
        }

    def total(self) -> int:
        return partition_cost(self.tables, self.cost)

    def delta(self, x: int, y: int) -> int:
        """The change in cost if x and y (at different tables) swap seats."""
        a, b = self.where[x], self.where[y]
        sx, sy = self.to_table[x], self.to_table[y]
        return sy[a] - sx[a] + sx[b] - sy[b] - 2 * self.cost[x][y]

    def swap(self, x: int, y: int) -> None:
        """x and y (at different tables) change seats; the swap is logged for undo."""
        self.log.append((x, y))
        a, b = self.where[x], self.where[y]
        ta, tb = self.tables[a], self.tables[b]
        ta[ta.index(x)], tb[tb.index(y)] = y, x
        self.where[x], self.where[y] = b, a
        cx, cy = self.cost[x], self.cost[y]
        for p, sums in self.to_table.items():
            change = cy[p] - cx[p]
            sums[a] += change
            sums[b] -= change

    def undo(self, to: int) -> None:
        """Take back the logged swaps until ``to`` swaps are left (a swap is its own
        inverse: x and y are simply swapped back)."""
        while len(self.log) > to:
            x, y = self.log.pop()
            self.swap(x, y)
            self.log.pop()

    def descend(self, dirty: Iterable[int] | None = None) -> None:
        """Swap players between tables while a swap lowers the cost.

        Only pairs of tables with at least one ``dirty`` table (all tables when None)
        are tried: two tables that nothing touched since they were checked cannot gain.
        """
        pending = set(range(len(self.tables))) if dirty is None else set(dirty)
        tables, to_table, cost = self.tables, self.to_table, self.cost
        while pending:
            a = min(pending)
            pending.discard(a)
            for b in range(len(tables)):
                if b == a:
                    continue
                swapped = True
                while swapped:
                    swapped = False
                    for x in tables[a]:
                        sx, cx = to_table[x], cost[x]
                        gain_x = sx[b] - sx[a]
                        for y in tables[b]:
                            sy = to_table[y]
                            if gain_x + sy[a] - sy[b] - 2 * cx[y] < 0:
                                self.swap(x, y)
                                pending.update((a, b))
                                swapped = True
                                break
                        if swapped:
                            break


def _local(
    start: list[list[int]], cost: Matrix, rng: random.Random, *, patience: int, floor: int
) -> list[list[int]]:
    """Iterated local search from ``start``: descend, then kick a few players and retry.

    A kick that ends worse than where it started is taken back swap by swap. Stops at
    a seating costing ``floor`` (nothing can be cheaper) or after ``patience`` kicks in
    a row without improvement.
    """
    seating = _Seating(start, cost)
    seating.descend()
    current_cost = seating.total()
    best, best_cost = [list(t) for t in seating.tables], current_cost
    if len(start) < 2:
        return best
    stale = 0
    count = len(start)
    while stale < patience and best_cost > floor:
        seating.log.clear()
        kicked: set[int] = set()
        for _ in range(rng.randint(2, 3)):
            # Tables start as blocks of ``order`` and stay roughly so: a kick between
            # near tables is one a descent does not simply undo.
            a = rng.randrange(count)
            b = (a + rng.choice((-2, -1, 1, 2))) % count if count > 2 else 1 - a
            seating.swap(rng.choice(seating.tables[a]), rng.choice(seating.tables[b]))
            kicked.update((a, b))
        seating.descend(kicked)
        trial_cost = seating.total()
        if trial_cost < best_cost:
            best, best_cost = [list(t) for t in seating.tables], trial_cost
            stale = 0
        else:
            stale += 1
        if trial_cost <= current_cost:
            current_cost = trial_cost
        else:
            seating.undo(0)
    return best


def best_partition(
    order: Sequence[int],
    sizes: Sequence[int],
    cost: Matrix,
    rng: random.Random,
    *,
    exact_limit: int = EXACT_LIMIT,
    floor: int = 0,
) -> list[list[int]]:
    """Split ``order`` into tables of ``sizes`` minimising :func:`partition_cost`.

    Starts from consecutive blocks of ``order``, improves them by local search, and
    proves the optimum by branch and bound when there are at most ``exact_limit``
    possible seatings. ``floor`` is a known lower bound that ends the search early.
    """
    blocks: list[list[int]] = []
    start = 0
    for size in sizes:
        blocks.append(list(order[start : start + size]))
        start += size
    patience = 10 + len(sizes)
    found = _local(blocks, cost, rng, patience=patience, floor=floor)
    found_cost = partition_cost(found, cost)
    if found_cost > floor and seatings_count(sizes) <= exact_limit:
        exact = _exact(order, sizes, cost, found_cost)
        if exact is not None:
            found = exact
    return found
