"""What the event pages, the API and the CSV export show, built once for all three.

Standings come from ``tournaments.results`` (the same computation the pairing uses);
rounds and tables are read with their games' seats in seat order, in a few queries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.utils.translation import gettext as _

from games.models import Game, Seat

from . import results, standings
from .models import Bye, Division, Event, Registration, Round, Table, TimeoutDecision

GAME_STATUS = {
    Game.Status.OPEN: "open",
    Game.Status.ACTIVE: "active",
    Game.Status.FINISHED: "finished",
    Game.Status.ABORTED: "aborted",
}


def tiebreak_label(name: str) -> str:
    return {
        "opponents": _("Opponents' points"),
        "score": _("Game score"),
        "head_to_head": _("Head-to-head"),
    }.get(name, name)


def names_of(user_ids: Iterable[int]) -> dict[int, str]:
    """Display names of these users (the Player profile's, else the username)."""
    users = get_user_model().objects.filter(pk__in=set(user_ids)).select_related("player")
    out = {}
    for user in users:
        player = getattr(user, "player", None)
        out[user.pk] = player.display_name if player else user.get_username()
    return out


def used_tiebreaks(event: Event) -> list[str]:
    """The tie-breaks the standings apply, in order (as ``results.table_standings``)."""
    return [t for t in (event.tiebreaks or standings.TIEBREAKS) if t in standings.TIEBREAKS]


def tiebreaks(event: Event) -> list[str]:
    """The event's tie-breaks in order, then the unused ones (shown, not counted)."""
    used = used_tiebreaks(event)
    return used + [t for t in standings.TIEBREAKS if t not in used]


# --- Standings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    row: standings.Row
    name: str
    withdrawn: bool
    eliminated_in: int | None

    @property
    def user_id(self) -> int:
        return self.row.player

    def tiebreak(self, name: str) -> float:
        return float(getattr(self.row, name))


@dataclass(frozen=True)
class StandingGroup:
    division: Division | None
    rows: list[StandingRow]


def standing_groups(event: Event) -> list[StandingGroup]:
    """The standings, per division for round robins and leagues (one group otherwise)."""
    groups = results.division_standings(event)
    registrations = {
        r.user_id: r
        for r in Registration.objects.filter(event=event).only("user_id", "status", "eliminated_in")
    }
    names = names_of(row.player for _division, rows in groups for row in rows)
    out = []
    for division, rows in groups:
        shown = []
        for row in rows:
            registration = registrations.get(row.player)
            shown.append(
                StandingRow(
                    row=row,
                    name=names.get(row.player, "?"),
                    withdrawn=registration is not None and not registration.is_active,
                    eliminated_in=registration.eliminated_in if registration else None,
                )
            )
        out.append(StandingGroup(division, shown))
    return out


def seat_columns(event: Event) -> list[int]:
    """Seat numbers (1-based) worth a standings column: up to the event's table size."""
    return list(range(1, event.table_size + 1))


# --- Rounds and tables --------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    position: int
    user_id: int | None
    name: str
    score: int
    bot: bool  # played by the bot (from the start or handed over)
    ranks_last: bool


@dataclass(frozen=True)
class DecisionView:
    position: int
    name: str
    outcome: str
    outcome_label: str
    ranks_last: bool
    overridden: bool
    note: str


@dataclass
class TableView:
    table: Table
    game: Game
    seats: list[SeatView]
    decisions: list[DecisionView] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def status(self) -> str:
        return GAME_STATUS[Game.Status(self.game.status)]

    @property
    def finished(self) -> bool:
        return self.game.status == Game.Status.FINISHED

    @property
    def winners(self) -> list[SeatView]:
        """The best-placed players of a finished table (several when tied)."""
        if not self.finished or not self.seats:
            return []
        result = standings.TableResult(
            round=0,
            players=tuple(s.position for s in self.seats),
            scores=tuple(s.score for s in self.seats),
            last=frozenset(s.position for s in self.seats if s.ranks_last),
        )
        places = standings.places(result)
        return [s for s in self.seats if places[s.position] == 1]


@dataclass(frozen=True)
class ByeView:
    user_id: int
    name: str
    points: float


@dataclass
class RoundView:
    round: Round
    tables: list[TableView]
    byes: list[ByeView]

    @property
    def number(self) -> int:
        return self.round.number

    @property
    def started_at(self) -> datetime:
        return self.round.started_at

    @property
    def finished_at(self) -> datetime | None:
        return self.round.finished_at


def rounds(event: Event, number: int | None = None) -> list[RoundView]:
    """The event's rounds (or round ``number``), tables in order, seats in seat order."""
    found = Round.objects.filter(event=event).order_by("number")
    if number is not None:
        found = found.filter(number=number)
    found = found.prefetch_related(
        Prefetch(
            "tables",
            queryset=Table.objects.select_related("game", "division")
            .defer("game__state")
            .prefetch_related(
                Prefetch(
                    "game__seats",
                    queryset=Seat.objects.select_related("user__player").order_by("position"),
                ),
                Prefetch(
                    "timeout_decisions", queryset=TimeoutDecision.objects.order_by("position")
                ),
            )
            .order_by("number"),
        ),
        Prefetch("byes", queryset=Bye.objects.select_related("user__player").order_by("user_id")),
    )
    out = []
    for round_ in found:
        tables = [_table_view(table) for table in round_.tables.all()]
        byes = [ByeView(b.user_id, player_name(b.user), b.points) for b in round_.byes.all()]
        out.append(RoundView(round_, tables, byes))
    return out


def player_name(user: Any) -> str:
    """The name a player shows (their account's user name before they have a profile)."""
    player = getattr(user, "player", None)
    return str(player.display_name if player else user.get_username())


def _table_view(table: Table) -> TableView:
    decisions = list(table.timeout_decisions.all())
    last = {d.position for d in decisions if d.ranks_last}
    seats = [
        SeatView(
            position=seat.position,
            user_id=seat.user_id,
            name=seat.name,
            score=seat.score,
            bot=bool(seat.bot),
            ranks_last=seat.position in last,
        )
        for seat in table.game.seats.all()
    ]
    by_position = {s.position: s for s in seats}
    views = [
        DecisionView(
            position=d.position,
            name=by_position[d.position].name if d.position in by_position else "?",
            outcome=d.outcome,
            outcome_label=str(d.get_outcome_display()),
            ranks_last=d.ranks_last,
            overridden=d.is_overridden,
            note=d.note,
        )
        for d in decisions
    ]
    return TableView(table=table, game=table.game, seats=seats, decisions=views)


# --- Small facts -------------------------------------------------------------------------------


def points_scheme_text(event: Event) -> str:
    scheme = event.scheme()
    if not scheme:
        return _("players at the table minus finishing place (4 players: 3, 2, 1, 0)")
    return ", ".join(f"{p:g}" for p in scheme)


def registered_count(event: Event) -> int:
    return Registration.objects.filter(event=event, status=Registration.Status.ACTIVE).count()
