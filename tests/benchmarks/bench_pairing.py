"""Pairing benchmark: Swiss rounds and round-robin schedules, time and quality.

Pure Python, no database. Prints, for Swiss events of 16-128 players at tables of 4
(results drawn from a seeded random generator), the time to seat each round, the
repeat meetings it could not avoid and the seat balance; then, for round-robin
divisions of 5-20 players at tables of 3 and 4, the time to build the schedule and
how far its meetings are from perfectly even. Target (issue 5): 64 players seated in
well under a second per round. Times are CPU seconds of this process (steady on a
busy machine).

Usage: ``.venv/bin/python -m tests.benchmarks.bench_pairing`` (from the repository root).
"""

from __future__ import annotations

import itertools
import random
import statistics
import time

from tournaments.pairing import (
    Entrant,
    meetings_from,
    repeat_count,
    round_robin,
    swiss,
    table_sizes,
)
from tournaments.schedule import pair_floor, unevenness
from tournaments.standings import TableResult, table_points


def swiss_event(players: int, rounds: int, seed: int) -> tuple[list[float], int, int]:
    """Seconds per round, repeats over the event, and the worst seat imbalance (most
    minus fewest times in one seat, over players and seats 1-4)."""
    rng = random.Random(seed)
    entrants = {p: Entrant(p) for p in range(players)}
    history: list[tuple[int, ...]] = []
    times = []
    repeats = 0
    for number in range(rounds):
        meetings = meetings_from(history)
        start = time.process_time()
        pairing = swiss(list(entrants.values()), meetings, seed=seed * 100 + number)
        times.append(time.process_time() - start)
        repeats += repeat_count(pairing.tables, meetings)
        for table in pairing.tables:
            scores = tuple(rng.randrange(40, 110) for _ in table)
            points = table_points(TableResult(number, table, scores))
            for seat, (player, score) in enumerate(zip(table, scores, strict=True)):
                old = entrants[player]
                entrants[player] = Entrant(
                    player, old.points + points[player], old.score + score, (*old.seats, seat)
                )
        history.extend(pairing.tables)
    worst = max(
        max(e.seats.count(s) for s in range(4)) - min(e.seats.count(s) for s in range(4))
        for e in entrants.values()
    )
    return times, repeats, worst


def schedule_gap(n: int, size: int, seed: int) -> tuple[float, int, str]:
    """Seconds, the gap to the even floor (in pair moves) and the meeting counts."""
    start = time.process_time()
    schedule = round_robin(list(range(n)), table_size=size, seed=seed)
    took = time.process_time() - start
    met = meetings_from(t for p in schedule for t in p.tables)
    counts = [met.get(frozenset(p), 0) for p in itertools.combinations(range(n), 2)]
    sizes, _ = table_sizes(n, size, max(2, size - 1))
    price = unevenness(len(schedule))
    slots = len(schedule) * sum(s * (s - 1) // 2 for s in sizes)
    # One meeting moved from a pair met once to another pair met once: the unit of gap.
    unit = price[2] + price[0] - 2 * price[1]
    gap = (sum(price[c] for c in counts) - pair_floor(n, slots, price)) // unit
    spread = " ".join(f"{k}x:{counts.count(k)}" for k in sorted(set(counts)))
    return took, gap, spread


def main() -> None:
    print("Swiss, tables of 4, 6 rounds (3 events each)")
    print(f"{'players':>8} {'median s':>9} {'max s':>7} {'repeats':>8} {'seat spread':>12}")
    for players in (16, 32, 64, 128):
        times: list[float] = []
        repeats = worst = 0
        for seed in range(3):
            t, r, w = swiss_event(players, 6, seed)
            times += t
            repeats += r
            worst = max(worst, w)
        print(
            f"{players:>8} {statistics.median(times):>9.3f} {max(times):>7.3f} "
            f"{repeats:>8} {worst:>12}"
        )
    print()
    print("Round robin (natural rounds): seconds, gap to perfectly even, meeting counts")
    for size in (3, 4):
        for n in range(5, 21):
            took, gap, spread = schedule_gap(n, size, seed=1)
            print(f"  {n:>2} at tables of {size}: {took:6.3f} s  gap {gap:>3}  {spread}")


if __name__ == "__main__":
    main()
