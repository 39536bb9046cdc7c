"""The search behind a round robin: a whole schedule whose pair meetings are as even as
can be found (:func:`even_schedule`).

Rounds are seated one by one against the pairs met most (:func:`best_partition`), then
improved by swaps within a round (a descent with kicks, then simulated annealing).
Seeded and bounded by counts, never by the clock, so a seed always gives the same
schedule.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence

from .seating import Matrix, best_partition

ANNEALING_TRIES = 10_000
"""Swaps tried when evening out a round-robin schedule (a fixed number: seeded, so
the schedule depends on the seed only, never on the machine's speed)."""

SCHEDULE_STARTS = 3
"""Independent tries at a round-robin schedule (the best one is kept)."""


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
