"""A game's time control: days or hours per move, and a time bank spent once.

One rule for every place that sets a time control: the lobby's form, the API (through
``games.services.create_game``) and an event's settings (``tournaments``), so each gives
the same refusal with the same code. With both days and hours per move set, the hours
count (``Game.move_hours``): an event keeps its default days when it is made fast.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

DAYS_PER_MOVE = (1, 2, 3, 5, 7)
MAX_HOURS_PER_MOVE = 72
MAX_TIME_BANK_HOURS = 24 * 14


class BadTimeControl(ValueError):
    """A time control no game is played with: ``field`` names the wrong setting."""

    code = "bad_time_control"

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def check_time_control(
    days_per_move: int | None, hours_per_move: int | None, time_bank_hours: int
) -> None:
    """Raise ``BadTimeControl`` for days per move other than 1, 2, 3, 5 or 7, hours per
    move outside 1 to 72 or a time bank over 14 days (None: that setting is not used)."""
    if days_per_move is not None and days_per_move not in DAYS_PER_MOVE:
        raise BadTimeControl(_("Days per move are 1, 2, 3, 5 or 7."), "days_per_move")
    if hours_per_move is not None and not 1 <= hours_per_move <= MAX_HOURS_PER_MOVE:
        raise BadTimeControl(_("Hours per move are 1 to 72."), "hours_per_move")
    if not 0 <= time_bank_hours <= MAX_TIME_BANK_HOURS:
        raise BadTimeControl(_("A time bank is at most 14 days."), "time_bank_hours")
