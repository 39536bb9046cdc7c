"""Deadlines, vacations and time controls as the game pages show them (any game kind)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import formats, timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# --- Clocks, time control and standing orders ------------------------------------------------


@dataclass(frozen=True)
class Due:
    """A deadline as the page shows it: time left, local date and time, ISO for ``<time>``."""

    iso: str
    left: str  # "1 day, 3 hours" (Django's timeuntil, in the active language)
    when: str  # "Tue 14:00" in the active time zone (with the date when a week or more away)
    overdue: bool


@dataclass(frozen=True)
class SeatClock:
    """What the status area says about one seat: its deadline, vacation, or computer player."""

    seat: int
    name: str
    is_viewer: bool
    due: Due | None  # only for a seat that must act in a timed game
    vacation_until: str | None
    took_over: bool  # handed to a computer player after repeated timeouts


@dataclass(frozen=True)
class TimeControl:
    per_move: str  # "1 day per move", "6 hours per move"
    bank_left: str | None  # the viewer's time bank, if the game has one
    policy: str  # what happens when time runs out


def local_when(moment: datetime, now: datetime) -> str:
    """A moment in the active time zone and the active language's formats, with the zone's
    name so nobody wonders whose clock it is: weekday and time within the coming week
    ("Mo 14:30 CET", "Tue 2:30 p.m. UTC"), else the short date and time."""
    local = timezone.localtime(moment)
    if timedelta(0) <= moment - now < timedelta(days=6):
        text = formats.date_format(local, "D " + str(formats.get_format("TIME_FORMAT")))
    else:
        text = formats.date_format(local, "SHORT_DATETIME_FORMAT")
    return f"{text} {local.tzname()}"


def due(deadline: datetime, now: datetime) -> Due:
    local = timezone.localtime(deadline)
    return Due(
        iso=local.isoformat(timespec="minutes"),
        left=timeuntil(deadline, now),
        when=local_when(deadline, now),
        overdue=deadline <= now,
    )


def seat_clocks(
    game: Any, seats: Iterable[Any], viewer: int | None, now: datetime
) -> list[SeatClock]:
    """A line per seat with something to say: a deadline (mine first), a vacation, a
    computer player that took over. Reads only the seats and players already loaded."""
    clocks = []
    for seat in sorted(seats, key=lambda s: s.position):
        player = getattr(seat.user, "player", None) if seat.user_id else None
        vacation = getattr(player, "vacation_until", None)
        on_vacation = vacation is not None and vacation > now
        deadline = seat.deadline if game.is_playable else None
        if deadline is None and not on_vacation and not seat.handed_to_bot:
            continue
        clocks.append(
            SeatClock(
                seat=seat.position,
                name=seat.name,
                is_viewer=seat.position == viewer,
                due=due(deadline, now) if deadline is not None else None,
                vacation_until=local_when(vacation, now) if on_vacation and vacation else None,
                took_over=seat.handed_to_bot,
            )
        )
    clocks.sort(key=lambda c: not c.is_viewer)
    return clocks


def time_control(game: Any, seat: Any | None, now: datetime) -> TimeControl | None:
    """The game's time control, and the viewer's time bank left; None without one."""
    if not game.move_hours:
        return None
    if game.hours_per_move:
        per_move = ngettext("%(n)d hour per move", "%(n)d hours per move", game.hours_per_move) % {
            "n": game.hours_per_move
        }
    else:
        per_move = ngettext("%(n)d day per move", "%(n)d days per move", game.days_per_move) % {
            "n": game.days_per_move
        }
    bank_left = None
    if game.time_bank_hours and seat is not None:
        seconds = seat.time_bank_seconds
        bank_left = timeuntil(now + timedelta(seconds=seconds), now) if seconds else _("none")
    return TimeControl(per_move, bank_left, str(game.get_timeout_policy_display()))
