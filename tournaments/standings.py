"""Places, tournament points and standings with tie-breaks.

Pure functions of plain values (no Django): the event services turn finished games into
:class:`TableResult` values and show the :class:`Row` values that come out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

TIEBREAKS = ("opponents", "score", "head_to_head")
"""The tie-breaks an event may use, in their default order."""

SEATS = 4


class StandingsError(ValueError):
    """Results or options the standings cannot use; ``code`` is stable for programs."""

    def __init__(self, message: str, code: str = "invalid_standings") -> None:
        super().__init__(message)
        self.message = message
        self.code = code

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class TableResult:
    """The end of one table's game: players in seat order and their final scores.

    ``last`` holds the players a timeout decision ranked last at the table, whatever
    their score.
    """

    round: int
    players: tuple[int, ...]
    scores: tuple[int, ...]
    last: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if len(self.players) != len(self.scores):
            raise StandingsError("A table result needs one score per player.", "scores_mismatch")
        if len(set(self.players)) != len(self.players):
            raise StandingsError("A player sits twice at one table.", "duplicate_player")
        if not self.last <= set(self.players):
            raise StandingsError(
                "Only a player at the table can be ranked last there.", "unknown_player"
            )


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    player: int
    rank: int
    points: float
    opponents: float
    score: int
    head_to_head: float
    played: int
    byes: int
    seats: tuple[int, int, int, int]


def places(result: TableResult) -> dict[int, int]:
    """Finishing place of every player at the table: 1 is best, ties share the best place.

    Higher score is better; players ranked last by a timeout decision come after all
    the others (sharing the last place if there are several).

    >>> places(TableResult(1, (7, 8, 9), (40, 52, 40)))
    {7: 2, 8: 1, 9: 2}
    """
    ranked = [p for p in result.players if p not in result.last]
    score = dict(zip(result.players, result.scores, strict=True))
    found: dict[int, int] = {}
    for player in ranked:
        found[player] = 1 + sum(1 for other in ranked if score[other] > score[player])
    for player in result.last:
        found[player] = len(ranked) + 1
    return {p: found[p] for p in result.players}


def table_points(result: TableResult, scheme: Sequence[float] | None = None) -> dict[int, float]:
    """Tournament points each player earned at the table.

    ``scheme[i]`` is worth place i+1 (places past its end earn 0); by default a place
    is worth the number of players at the table minus the place (3, 2, 1, 0 at four).
    Players tied on a place share the points of the places they cover equally.

    >>> table_points(TableResult(1, (1, 2, 3, 4), (50, 50, 40, 30)))
    {1: 2.5, 2: 2.5, 3: 1.0, 4: 0.0}
    """
    size = len(result.players)
    worth = (
        [float(size - place) for place in range(1, size + 1)]
        if scheme is None
        else [float(scheme[i]) if i < len(scheme) else 0.0 for i in range(size)]
    )
    at = places(result)
    sharing: dict[int, int] = {}
    for place in at.values():
        sharing[place] = sharing.get(place, 0) + 1
    return {
        player: sum(worth[place - 1 : place - 1 + sharing[place]]) / sharing[place]
        for player, place in at.items()
    }


def _check_tiebreaks(tiebreaks: Sequence[str]) -> None:
    for name in tiebreaks:
        if name not in TIEBREAKS:
            raise StandingsError(
                f"Unknown tie-break {name!r}; choose from {', '.join(TIEBREAKS)}.",
                "unknown_tiebreak",
            )
    if len(set(tiebreaks)) != len(tiebreaks):
        raise StandingsError("A tie-break is listed twice.", "duplicate_tiebreak")


def head_to_head(player: int, rivals: Sequence[int], results: Sequence[TableResult]) -> float:
    """What ``player`` scored against ``rivals`` at shared tables: 1 for each rival
    finishing behind, 0.5 for each one on the same place."""
    total = 0.0
    others = set(rivals) - {player}
    for result in results:
        if player not in result.players:
            continue
        at = places(result)
        for rival in others & set(result.players):
            if at[player] < at[rival]:
                total += 1.0
            elif at[player] == at[rival]:
                total += 0.5
    return total


def standings(
    players: Sequence[int],
    results: Sequence[TableResult],
    *,
    byes: Mapping[int, int] | None = None,
    bye_points: float = 0.0,
    scheme: Sequence[float] | None = None,
    tiebreaks: Sequence[str] = TIEBREAKS,
) -> list[Row]:
    """The standings of ``players``, best first.

    Ranked by tournament points (byes worth ``bye_points`` each), then by each of
    ``tiebreaks`` in turn (any order or subset of :data:`TIEBREAKS`):

    * ``opponents``: the sum of the final tournament points of every opponent met, once
      per meeting;
    * ``score``: total game score;
    * ``head_to_head``: results against the other players still tied at that point
      (see :func:`head_to_head`).

    Players equal on everything share a rank (listed by id). Results of players not in
    ``players`` (who withdrew) still count for their opponents. Points are rounded to
    9 decimals (a scheme of tenths adds up to clean numbers). Raises
    :class:`StandingsError` for an unknown or repeated tie-break or a player listed
    twice.
    """
    _check_tiebreaks(tiebreaks)
    if len(set(players)) != len(players):
        raise StandingsError("A player is listed twice.", "duplicate_player")
    byes = byes or {}
    everyone = set(players) | {p for r in results for p in r.players} | set(byes)
    points = {p: bye_points * byes.get(p, 0) for p in everyone}
    score = dict.fromkeys(everyone, 0)
    played = dict.fromkeys(everyone, 0)
    seats = {p: [0] * SEATS for p in everyone}
    for result in results:
        for player, earned in table_points(result, scheme).items():
            points[player] += earned
        for seat, (player, game_score) in enumerate(
            zip(result.players, result.scores, strict=True)
        ):
            score[player] += game_score
            played[player] += 1
            if seat < SEATS:
                seats[player][seat] += 1
    opponents = dict.fromkeys(everyone, 0.0)
    for result in results:
        for player in result.players:
            opponents[player] += sum(points[o] for o in result.players if o != player)

    h2h: dict[int, float] = {}
    groups = _split([sorted(players)], lambda group: {p: points[p] for p in group})
    for name in tiebreaks:
        if name == "opponents":
            groups = _split(groups, lambda group: {p: opponents[p] for p in group})
        elif name == "score":
            groups = _split(groups, lambda group: {p: float(score[p]) for p in group})
        else:

            def versus(group: list[int]) -> dict[int, float]:
                values = {p: head_to_head(p, group, results) for p in group}
                h2h.update(values)
                return values

            groups = _split(groups, versus)
    if "head_to_head" not in tiebreaks:
        for group in _split([sorted(players)], lambda g: {p: points[p] for p in g}):
            h2h.update({p: head_to_head(p, group, results) for p in group})

    rows = []
    rank = 1
    for group in groups:
        for player in group:
            rows.append(
                Row(
                    player=player,
                    rank=rank,
                    points=round(points[player], 9),
                    opponents=round(opponents[player], 9),
                    score=score[player],
                    head_to_head=h2h.get(player, 0.0),
                    played=played[player],
                    byes=byes.get(player, 0),
                    seats=(seats[player][0], seats[player][1], seats[player][2], seats[player][3]),
                )
            )
        rank += len(group)
    return rows


def _split(
    groups: list[list[int]], key: Callable[[list[int]], dict[int, float]]
) -> list[list[int]]:
    """Split every group of tied players by ``key`` (higher first), keeping the order.

    Values are compared rounded to 9 decimals, so points schemes with fractions (0.1
    + 0.2) still tie when they should.
    """
    out: list[list[int]] = []
    for group in groups:
        if len(group) < 2:
            out.append(group)
            continue
        values = {p: round(v, 9) for p, v in key(group).items()}
        for value in sorted(set(values.values()), reverse=True):
            out.append([p for p in group if values[p] == value])
    return out
