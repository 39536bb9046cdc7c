"""The search behind the pairings: splitting players into tables at the least cost.

Two searches, both seeded and bounded by counts (never by the clock, so a seed always
gives the same tables):

* one round (:func:`best_partition`): players into tables of given sizes minimising
  the sum of a pair cost over every pair at a table. An iterated local search (swaps
  between tables, seeded kicks) finds a good split; a branch and bound proves the
  optimum when there are few enough splits.
* a whole round-robin schedule (:func:`even_schedule`): rounds seated one by one
  against the pairs met most, then improved by swaps within a round (a descent with
  kicks, then simulated annealing) until the meetings are as even as it can find.

No maintained library does either for tables of 3-4 players (Swiss and round-robin
libraries pair two players), so they are written here.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence

EXACT_LIMIT = 20_000
"""Seatings of one round searched exhaustively when there are at most this many."""

ANNEALING_TRIES = 10_000
"""Swaps tried when evening out a round-robin schedule (a fixed number: seeded, so
the schedule depends on the seed only, never on the machine's speed)."""

SCHEDULE_STARTS = 3
"""Independent tries at a round-robin schedule (the best one is kept)."""

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


def unevenness(rounds: int) -> list[int]:
    """The price of a pair meeting m times, for m = 0..rounds+1: mainly m squared (so
    the sum over pairs is least when the meetings are spread evenly), then m cubed (of
    two spreads with that sum, the one without the extremes)."""
    return [1_000 * m * m + m**3 for m in range(rounds + 2)]


def pair_floor(n: int, slots: int, price: Sequence[int]) -> int:
    """Least total price when ``slots`` meetings share the C(n, 2) pairs."""
    pairs = n * (n - 1) // 2
    if pairs == 0:
        return 0
    q, r = divmod(slots, pairs)
    return r * price[q + 1] + (pairs - r) * price[q]


def even_schedule(
    n: int, sizes: list[int], bye_count: int, rounds: int, rng: random.Random
) -> tuple[list[list[list[int]]], list[list[int]]]:
    """Tables (as indices 0..n-1) and byes for every round, pair meetings as even as
    possible (the least total :func:`unevenness` price found).

    Each of ``SCHEDULE_STARTS`` tries seats the rounds one by one against the pairs
    met most, then improves the whole schedule by swaps within a round (a descent with
    kicks, then annealing); the best try is kept, and a try that reaches the floor
    ends the search.
    """
    slots = rounds * sum(s * (s - 1) // 2 for s in sizes)
    price = unevenness(rounds)
    floor = pair_floor(n, slots, price)
    best: tuple[list[list[list[int]]], list[list[int]]] = ([], [])
    best_cost = -1
    for _ in range(SCHEDULE_STARTS):
        order = list(range(n))
        rng.shuffle(order)
        bye_rounds = [
            [order[(r * bye_count + k) % n] for k in range(bye_count)] for r in range(rounds)
        ]
        met = [[0] * n for _ in range(n)]
        schedule: list[list[list[int]]] = []
        for r in range(rounds):
            out = set(bye_rounds[r])
            playing = [p for p in order if p not in out]
            rng.shuffle(playing)
            tables = best_partition(playing, sizes, met, rng, exact_limit=2_000)
            for table in tables:
                for a, b in itertools.combinations(table, 2):
                    met[a][b] += 1
                    met[b][a] += 1
            schedule.append(tables)
        _polish_schedule(schedule, met, price, floor, rng)
        _anneal_schedule(schedule, met, price, floor, rng)
        cost = _schedule_cost(met, price)
        if best_cost < 0 or cost < best_cost:
            best, best_cost = (schedule, bye_rounds), cost
        if best_cost <= floor:
            break
    return best


def _count_meetings(schedule: Sequence[Sequence[Sequence[int]]], met: Matrix) -> None:
    """Reset ``met`` to the meetings of ``schedule``."""
    for row in met:
        row[:] = [0] * len(row)
    for tables in schedule:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1


def _schedule_cost(met: Matrix, price: Sequence[int]) -> int:
    n = len(met)
    return sum(price[met[a][b]] for a in range(n) for b in range(a + 1, n))


def _polish_schedule(
    schedule: list[list[list[int]]],
    met: Matrix,
    price: Sequence[int],
    floor: int,
    rng: random.Random,
) -> None:
    """Swap players between tables of one round while that evens out the meetings
    (a descent, then a bounded number of random kicks and descents again).

    A swap of x (table A) and y (table B) moves x's meetings with A to y and y's with
    B to x: each lost meeting of a pair met m times changes its price from price[m] to
    price[m-1], each gained one to price[m+1].
    Random kicks (a few seeded swaps) escape local optima for a bounded number of tries.
    """
    cost = _schedule_cost(met, price)
    if cost <= floor:
        return

    def swap(tables: list[list[int]], a: int, i: int, b: int, j: int) -> int:
        ta, tb = tables[a], tables[b]
        x, y = ta[i], tb[j]
        delta = 0
        for u in ta:
            if u != x:
                delta += price[met[x][u] - 1] - price[met[x][u]]
                delta += price[met[y][u] + 1] - price[met[y][u]]
        for v in tb:
            if v != y:
                delta += price[met[y][v] - 1] - price[met[y][v]]
                delta += price[met[x][v] + 1] - price[met[x][v]]
        return delta

    def apply(tables: list[list[int]], a: int, i: int, b: int, j: int) -> None:
        ta, tb = tables[a], tables[b]
        x, y = ta[i], tb[j]
        for u in ta:
            if u != x:
                met[x][u] -= 1
                met[u][x] -= 1
                met[y][u] += 1
                met[u][y] += 1
        for v in tb:
            if v != y:
                met[y][v] -= 1
                met[v][y] -= 1
                met[x][v] += 1
                met[v][x] += 1
        ta[i], tb[j] = y, x

    moves = [
        (r, a, i, b, j)
        for r, tables in enumerate(schedule)
        for a, b in itertools.combinations(range(len(tables)), 2)
        for i in range(len(tables[a]))
        for j in range(len(tables[b]))
    ]
    if not moves:
        return
    best = [[list(t) for t in tables] for tables in schedule]
    best_cost = cost
    budget = 60 * len(moves)
    while budget > 0 and best_cost > floor:
        improved = True
        while improved:
            improved = False
            for r, a, i, b, j in moves:
                budget -= 1
                delta = swap(schedule[r], a, i, b, j)
                if delta < 0:
                    apply(schedule[r], a, i, b, j)
                    cost += delta
                    improved = True
        if cost < best_cost:
            best_cost = cost
            best = [[list(t) for t in tables] for tables in schedule]
        if best_cost <= floor:
            break
        for _ in range(rng.randint(1, 3)):
            r, a, i, b, j = rng.choice(moves)
            cost += swap(schedule[r], a, i, b, j)
            apply(schedule[r], a, i, b, j)
    schedule[:] = best
    _count_meetings(schedule, met)


def _anneal_schedule(
    schedule: list[list[list[int]]],
    met: Matrix,
    price: Sequence[int],
    floor: int,
    rng: random.Random,
) -> None:
    """Even out the meetings by simulated annealing over swaps within a round.

    A swap of x (table A) and y (table B) moves x's meetings with A to y and y's with
    B to x: each lost meeting of a pair met m times changes its price from price[m] to
    price[m-1], each gained one to price[m+1]. x is preferably a player who meets a
    tablemate more often than the average, where the gains are. The number of tries
    is fixed (so the result depends on the seed only) and the search stops at
    ``floor``.
    """
    n = len(met)
    cost = _schedule_cost(met, price)
    tables_per_round = len(schedule[0]) if schedule else 0
    if cost <= floor or tables_per_round < 2 or n < 2:
        return
    slots = sum(sum(row) for row in met) // 2
    often = -(-slots // (n * (n - 1) // 2))
    tries = min(ANNEALING_TRIES, 300 * len(schedule) * n)
    hot, cold = 600.0, 100.0
    best = [[list(t) for t in tables] for tables in schedule]
    best_cost = cost
    for k in range(tries):
        tables = schedule[rng.randrange(len(schedule))]
        a, b = rng.sample(range(tables_per_round), 2)
        ta, tb = tables[a], tables[b]
        crowded = [i for i, x in enumerate(ta) if any(met[x][u] > often for u in ta if u != x)]
        i = rng.choice(crowded) if crowded else rng.randrange(len(ta))
        j = rng.randrange(len(tb))
        x, y = ta[i], tb[j]
        mx, my = met[x], met[y]
        delta = 0
        for u in ta:
            if u != x:
                delta += price[mx[u] - 1] - price[mx[u]] + price[my[u] + 1] - price[my[u]]
        for v in tb:
            if v != y:
                delta += price[my[v] - 1] - price[my[v]] + price[mx[v] + 1] - price[mx[v]]
        temperature = hot * (cold / hot) ** (k / tries)
        if delta > 0 and rng.random() >= math.exp(-delta / temperature):
            continue
        for u in ta:
            if u != x:
                mx[u] -= 1
                met[u][x] -= 1
                my[u] += 1
                met[u][y] += 1
        for v in tb:
            if v != y:
                my[v] -= 1
                met[v][y] -= 1
                mx[v] += 1
                met[v][x] += 1
        ta[i], tb[j] = y, x
        cost += delta
        if cost < best_cost:
            best_cost = cost
            best = [[list(t) for t in round_tables] for round_tables in schedule]
            if cost <= floor:
                break
    schedule[:] = best
    _count_meetings(schedule, met)
