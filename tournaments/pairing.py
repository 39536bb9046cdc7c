"""Seating players at tables: Swiss rounds, round-robin divisions, knockouts, seasons.

Pure functions of plain values (no Django, no clock, no global random): the event
services pass standings and history in and store the tables that come out. Every
function is deterministic for a given ``seed``.

Evergreen is played by 1-4 players, so a "pairing" seats players at tables of 2-4.
Turn order is worth points (0/1/2/3 at setup), so every table comes back in seat order
chosen to balance each player's earlier seats (:func:`seat_order`).

The searches for good tables live in :mod:`tournaments.seating`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.seating import EXACT_LIMIT, best_partition, even_schedule

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


# --------------------------------------------------------------------------- helpers


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


def _check_sizes(table_size: int, min_size: int) -> None:
    if not 1 <= table_size <= MAX_TABLE:
        raise PairingError(
            f"A table seats 1 to {MAX_TABLE} players, not {table_size}.", "invalid_table_size"
        )
    if not 1 <= min_size <= table_size:
        raise PairingError(
            f"The smallest table ({min_size}) must seat 1 to {table_size} players.",
            "invalid_min_size",
        )


def _check_unique(players: Sequence[int]) -> None:
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
    _check_sizes(table_size, min_size)
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


# ------------------------------------------------------------------------ seat order


def _seat_cost(table: Sequence[int], history: Mapping[int, Sequence[int]]) -> tuple[int, int, int]:
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
    (see ``_seat_cost``); ties go to a seeded shuffle. Raises :class:`PairingError` for
    a table of more than four players or a player listed twice.
    """
    _check_unique(table)
    if len(table) > MAX_TABLE:
        raise PairingError(f"A table seats at most {MAX_TABLE} players.", "invalid_table_size")
    orders = list(itertools.permutations(sorted(table)))
    random.Random(seed).shuffle(orders)
    return min(orders, key=lambda order: _seat_cost(order, seat_history))


def _seat_tables(
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


# ----------------------------------------------------------------------------- Swiss


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
    _check_sizes(table_size, min_size)
    _check_unique([e.id for e in entrants])
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
    seated = _seat_tables(([playing[i].id for i in table] for table in tables), history, seed)
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


# ----------------------------------------------------------------------- round robin


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
    (:func:`tournaments.seating.even_schedule`). Byes rotate so that everyone sits out
    as often as anyone else. Seats are balanced over the whole schedule. ``rounds``
    defaults to :func:`natural_rounds`; ``min_size`` (the smallest table) defaults to
    one less than ``table_size`` (2 for tables of 2 or 3). Raises
    :class:`PairingError` for bad sizes, a negative number of rounds or a player
    entered twice.
    """
    minimum = _default_min(table_size) if min_size is None else min_size
    _check_sizes(table_size, minimum)
    _check_unique(players)
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
            Pairing(_seat_tables(ids, history, seed + r), tuple(order[i] for i in byes[r]))
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
        counts, spread, _ = _seat_cost(order, history)
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


# -------------------------------------------------------------------------- knockout


def knockout(
    ranked: Sequence[int],
    *,
    table_size: int = 4,
    min_size: int = 2,
    seed: int = 0,
    seat_history: Mapping[int, Sequence[int]] | None = None,
) -> Pairing:
    """Seat one knockout round: tables of up to ``table_size``, strongest spread out.

    ``ranked`` is best first. Snake seeding: the best player of each table in turn,
    then back the other way, so the top seeds meet as late as possible. When the
    numbers force byes (``min_size`` above two, or a single player left) the best
    players get them. ``seat_history`` (earlier seats of each player) balances the seat
    order as in :func:`seat_order`. Raises :class:`PairingError` for bad sizes or a
    player entered twice.
    """
    _check_sizes(table_size, min_size)
    _check_unique(ranked)
    sizes, bye_count = table_sizes(len(ranked), table_size, min_size)
    byes = tuple(ranked[:bye_count])
    playing = list(ranked[bye_count:])
    tables: list[list[int]] = [[] for _ in sizes]
    step, t = 1, 0
    for player in playing:
        while len(tables[t]) == sizes[t]:
            t, step = _snake_next(t, step, len(tables))
        tables[t].append(player)
        t, step = _snake_next(t, step, len(tables))
    history = {p: list(s) for p, s in (seat_history or {}).items()}
    return Pairing(_seat_tables(tables, history, seed), byes)


def _snake_next(t: int, step: int, count: int) -> tuple[int, int]:
    if 0 <= t + step < count:
        return t + step, step
    return t, -step


# ------------------------------------------------------------------- league seasons


def next_season_divisions(
    divisions: Sequence[Sequence[int]], *, promote: int, relegate: int
) -> list[list[int]]:
    """The divisions of the next season, after promotion and relegation.

    ``divisions[0]`` is the top division; each is ranked best first. The best
    ``promote`` players of every division but the top move up one; the last
    ``relegate`` of every division but the bottom move down one. A new division lists
    the players coming down first, then those who stay (in their order), then those
    coming up. Raises :class:`PairingError` when a division is too small to give up
    that many players or a player appears twice.
    """
    if promote < 0 or relegate < 0:
        raise PairingError("Promotion and relegation counts cannot be negative.", "invalid_moves")
    _check_unique([p for division in divisions for p in division])
    count = len(divisions)
    ups: list[list[int]] = []
    downs: list[list[int]] = []
    stays: list[list[int]] = []
    for index, division in enumerate(divisions):
        up = promote if index > 0 else 0
        down = relegate if index < count - 1 else 0
        if up + down > len(division):
            raise PairingError(
                f"Division {index + 1} has {len(division)} players: too few to promote "
                f"{up} and relegate {down}.",
                "division_too_small",
            )
        ups.append(list(division[:up]))
        downs.append(list(division[len(division) - down :]))
        stays.append(list(division[up : len(division) - down]))
    return [
        (downs[i - 1] if i > 0 else []) + stays[i] + (ups[i + 1] if i < count - 1 else [])
        for i in range(count)
    ]
