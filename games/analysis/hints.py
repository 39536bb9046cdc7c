"""The hints a game's players took, told to everyone who sees the game: the count on each
seat (``Seat.hints_used``), raised once for each hint given, and the lines the pages show.

The pages and the API read the counts from the seats they load anyway (the game page,
the replay and every API answer hold them), so telling them costs no query of its own. A
hint does not change the game's version: nothing kept per version holds a count (a whole
page kept by ``games.pagecache`` lives for its minute only).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F
from django.utils.translation import ngettext

from games.models import Game, Seat


@dataclass(frozen=True)
class SeatHints:
    position: int
    name: str
    count: int

    @property
    def text(self) -> str:
        return ngettext(
            "%(name)s used %(count)d hint.", "%(name)s used %(count)d hints.", self.count
        ) % {"name": self.name, "count": self.count}


def record_hint(game: Game, position: int) -> None:
    """Count one more hint for the seat: one UPDATE that adds one to the seat's own count
    as committed, so two hints given at once are both counted. The game's writes never write the count
    back (``Seats.save`` writes only the fields a write changed)."""
    Seat.objects.filter(game=game, position=position).update(hints_used=F("hints_used") + 1)


def hints_by_seat(game: Game) -> dict[int, int]:
    """Hints used so far, by seat position (seats that took none are left out)."""
    return {seat.position: seat.hints_used for seat in game.seats_in_order() if seat.hints_used}


def seat_hints(game: Game) -> list[SeatHints]:
    """One entry per seat that took a hint, in seat order, with the seat's name: from the
    game's seats as loaded (no query when they are)."""
    seats = game.seats_in_order()
    return [
        SeatHints(seat.position, seat.name, seat.hints_used) for seat in seats if seat.hints_used
    ]
