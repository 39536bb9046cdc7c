"""The hints a game's players took, told to everyone who sees the game: the count per seat
(``HintUse``), raised once for each hint given, and the lines the pages show.

The game page tells them on every view, so they are kept in the cache (``told``) under
the game's hint stamp, which every hint given replaces once it is committed: a hint does
not change the game's version (the page would be drawn anew for everyone), and whether
the game is an event's never changes (its table or challenge entry is written with it).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils.translation import ngettext

from games import fragments
from games.models import Game

from .models import HintUse


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
    """Count one more hint for the seat: an UPDATE of the row's own count, so two hints
    given at once are both counted (the row is made once: a unique constraint)."""
    with transaction.atomic():
        use, _created = HintUse.objects.get_or_create(game=game, seat=position)
        HintUse.objects.filter(pk=use.pk).update(count=F("count") + 1)
        fragments.restamp_on_commit(_told_name(game.pk))


def _told_name(game_id: int) -> str:
    return f"game-hints:{game_id}"


def hints_by_seat(game: Game) -> dict[int, int]:
    """Hints used so far, by seat position (seats that took none are left out)."""
    rows = HintUse.objects.filter(game=game, count__gt=0).values_list("seat", "count")
    return dict(rows)


def hints_and_event(game: Game) -> tuple[list[SeatHints], bool]:
    """``seat_hints`` and whether the game is an event's or a daily challenge's (as
    ``services.in_event`` says): the game page asks both, on every view. From the cache
    under the game's hint stamp (the same for every viewer: hints are told to all), else
    in one query."""
    counts, event = told(game)
    return _named(game, counts), event


def told(game: Game) -> tuple[dict[int, int], bool]:
    """Hints used by seat and whether the game is an event's, kept under the game's hint
    stamp (``games.fragments.stamped``)."""
    return fragments.stamped(_told_name(game.pk), lambda: _counts_and_event(game))


def _counts_and_event(game: Game) -> tuple[dict[int, int], bool]:
    rows = Game.objects.filter(pk=game.pk).values_list(
        "event_table__pk", "challenge_entry__pk", "hint_uses__seat", "hint_uses__count"
    )
    counts, event = {}, False
    for table, entry, seat, count in rows:
        event = event or table is not None or entry is not None
        if seat is not None and count:
            counts[seat] = count
    return counts, event


def seat_hints(game: Game) -> list[SeatHints]:
    """One entry per seat that took a hint, in seat order, with the seat's name."""
    return _named(game, hints_by_seat(game))


def _named(game: Game, counts: dict[int, int]) -> list[SeatHints]:
    if not counts:
        return []
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    return [
        SeatHints(seat.position, seat.name, counts[seat.position])
        for seat in seats
        if seat.position in counts
    ]
