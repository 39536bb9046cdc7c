"""Swiss rounds: tables by standing, repeat meetings avoided."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from ..seating import EXACT_LIMIT, best_partition
from .core import Entrant, Meetings, Pairing, check_sizes, check_unique, seat_tables, table_sizes


def swiss(
    entrants: Sequence[Entrant],
    meetings: Meetings,
    *,
    table_size: int = 4,
    min_size: int = 3,
    seed: int = 0,
    exact_limit: int = EXACT_LIMIT,
) -> Pairing:
    """Seat one Swiss round.

    Players are ranked by points, then game score; equal players are shuffled by
    ``seed``. Byes (only when the numbers leave no choice) go to the lowest-ranked
    players among those with the fewest byes. The others are seated to minimise first
    the repeat meetings (each pair that already met, weighted by how often), then the
    distance in standing at each table (the sum of squared differences in rank over
    every pair at a table, so a repeat is avoided by moving players the fewest places).
    The search is exact for up to ``exact_limit`` possible seatings, a local search
    beyond (see :func:`tournaments.seating.best_partition`). Tables come back strongest
    first, each in seat order (:func:`seat_order`). Raises :class:`PairingError` for a
    player entered twice or bad table sizes.
    """
    check_sizes(table_size, min_size)
    check_unique([e.id for e in entrants])
    rng = random.Random(seed)
    shuffled = list(entrants)
    rng.shuffle(shuffled)
    ranked = sorted(shuffled, key=lambda e: (-_standing(e)[0], -e.score))
    sizes, bye_count = table_sizes(len(ranked), table_size, min_size)

    by_need = sorted(range(len(ranked)), key=lambda i: (ranked[i].byes, -i))
    bye_set = set(by_need[:bye_count])
    byes = tuple(ranked[i].id for i in sorted(bye_set, reverse=True))
    playing = [e for i, e in enumerate(ranked) if i not in bye_set]

    # Standing position: twice the mean index of the players tied with this one, so
    # tied players are interchangeable and the cost stays an integer.
    position: list[int] = []
    i = 0
    while i < len(playing):
        j = i
        key = _standing(playing[i])
        while j + 1 < len(playing) and _standing(playing[j + 1]) == key:
            j += 1
        position.extend([i + j] * (j - i + 1))
        i = j + 1
    pairs_seated = sum(s * (s - 1) // 2 for s in sizes)
    # A repeat meeting outweighs any distance in standing: squared distances, each
    # below (2n)^2.
    weight = pairs_seated * (2 * max(len(playing), 1)) ** 2 + 1
    cost = [
        [
            weight * meetings.get(frozenset((a.id, b.id)), 0) + (position[x] - position[y]) ** 2
            for y, b in enumerate(playing)
        ]
        for x, a in enumerate(playing)
    ]
    tables = best_partition(list(range(len(playing))), sizes, cost, rng, exact_limit=exact_limit)
    tables.sort(key=lambda t: (sorted(t), -len(t)))
    history = {e.id: list(e.seats) for e in entrants}
    seated = seat_tables(([playing[i].id for i in table] for table in tables), history, seed)
    return Pairing(seated, byes)


def _standing(entrant: Entrant) -> tuple[float, int]:
    """Points (rounded, so 0.1 + 0.2 ties with 0.3) and game score."""
    return round(entrant.points, 9), entrant.score


def repeat_count(tables: Iterable[Sequence[int]], meetings: Meetings) -> int:
    """Repeat meetings a seating causes: each pair that already met, times how often."""
    return sum(
        meetings.get(frozenset((a, b)), 0)
        for table in tables
        for a, b in itertools.combinations(table, 2)
    )
