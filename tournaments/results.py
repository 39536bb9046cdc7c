"""Reading an event's results: tables as ``standings.TableResult`` values, seat history,
meetings, and the standings themselves (pages, the API, the CSV export and the pairing
of the next round all read them from here, so they are computed one way).

A table counts once its game is finished (played out or adjudicated); its players and
scores are the game's Seat rows, so nothing is copied.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Prefetch

from games.models import Game, Seat

from . import standings
from .models import Bye, Division, Event, Registration, Table, TimeoutDecision


@dataclass(frozen=True)
class PlayedTable:
    """One table of the event, its players in seat order and (when over) its result."""

    table: Table
    round: int
    players: tuple[int, ...]
    scores: tuple[int, ...]
    finished: bool
    last: frozenset[int]

    def result(self) -> standings.TableResult:
        return standings.TableResult(
            round=self.round, players=self.players, scores=self.scores, last=self.last
        )


def played_tables(event: Event, division: Division | None = None) -> list[PlayedTable]:
    """Every table of the event (of one division), rounds in order, tables in order."""
    tables = (
        Table.objects.filter(round__event=event)
        .select_related("round", "game")
        .prefetch_related(
            Prefetch("game__seats", queryset=Seat.objects.order_by("position")),
            Prefetch("timeout_decisions", queryset=TimeoutDecision.objects.filter(ranks_last=True)),
        )
        .order_by("round__number", "number")
    )
    if division is not None:
        tables = tables.filter(division=division)
    out = []
    for table in tables:
        seats = list(table.game.seats.all())
        last = frozenset(d.user_id for d in table.timeout_decisions.all() if d.user_id)
        out.append(
            PlayedTable(
                table=table,
                round=table.round.number,
                players=_players(seats),
                scores=tuple(s.score for s in seats),
                finished=table.game.status == Game.Status.FINISHED,
                last=last,
            )
        )
    return out


def _players(seats: list[Seat]) -> tuple[int, ...]:
    """The players in seat order: every seat of an event game has its player (a computer
    player may play for them, never instead of them)."""
    players = []
    for seat in seats:
        if seat.user_id is None:
            raise ValueError(f"Seat {seat.position} of game {seat.game_id} has no player.")
        players.append(seat.user_id)
    return tuple(players)


def finished_results(tables: Iterable[PlayedTable]) -> list[standings.TableResult]:
    return [t.result() for t in tables if t.finished]


def bye_counts(event: Event, players: Iterable[int] | None = None) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    query = Bye.objects.filter(round__event=event)
    if players is not None:
        query = query.filter(user_id__in=list(players))
    for user_id in query.values_list("user_id", flat=True):
        counts[user_id] += 1
    return dict(counts)


def seat_history(tables: Iterable[PlayedTable]) -> dict[int, list[int]]:
    """Seat positions each player held, round by round (unfinished tables included:
    their seats are taken)."""
    history: dict[int, list[int]] = defaultdict(list)
    for table in tables:
        for position, player in enumerate(table.players):
            history[player].append(position)
    return dict(history)


def registered_players(event: Event, division: Division | None = None) -> list[int]:
    query = Registration.objects.filter(event=event)
    if division is not None:
        query = query.filter(division=division)
    return list(query.order_by("user_id").values_list("user_id", flat=True))


def table_standings(
    event: Event, players: list[int], tables: list[PlayedTable]
) -> list[standings.Row]:
    byes = bye_counts(event, players)
    return standings.standings(
        players,
        finished_results(tables),
        byes=byes,
        bye_points=event.bye_points,
        scheme=event.scheme(),
        tiebreaks=tuple(event.tiebreaks or standings.TIEBREAKS),
    )


def event_standings(event: Event) -> list[standings.Row]:
    """The standings of every registered player (withdrawn ones keep their results)."""
    return table_standings(event, registered_players(event), played_tables(event))


def division_standings(event: Event) -> list[tuple[Division | None, list[standings.Row]]]:
    """Standings per division for round robins and leagues; one group otherwise."""
    if not event.has_divisions or not event.divisions.exists():
        return [(None, event_standings(event))]
    groups: list[tuple[Division | None, list[standings.Row]]] = []
    for division in event.divisions.order_by("number"):
        players = registered_players(event, division)
        groups.append((division, table_standings(event, players, played_tables(event, division))))
    return groups
