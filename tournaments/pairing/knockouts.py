"""Knockout rounds (snake seeding) and a league's next season (promotion and
relegation)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .core import Pairing, PairingError, check_sizes, check_unique, seat_tables, table_sizes


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
    check_sizes(table_size, min_size)
    check_unique(ranked)
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
    return Pairing(seat_tables(tables, history, seed), byes)


def _snake_next(t: int, step: int, count: int) -> tuple[int, int]:
    if 0 <= t + step < count:
        return t + step, step
    return t, -step


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
    check_unique([p for division in divisions for p in division])
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
