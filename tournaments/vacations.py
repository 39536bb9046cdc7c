"""Vacations in events: a player's vacation pauses their event games only up to each
event's limit (``Event.vacation_limit_days``, in all per player and event).

``games.services.start_vacation`` / ``end_vacation`` shift every clock of the player; the
receiver of the Player row's change (and the beat task, for a lost message) calls
``enforce_vacation_limits``, which sets each event seat's deadline from its clock's start
and the pauses the event granted.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.models import Game, Player, Seat
from games.services.writes import lock_game_and_seats

from .models import Event, Table, VacationUse


def _pauses(use: Any) -> list[tuple[datetime, datetime]]:
    from django.utils.dateparse import parse_datetime

    pauses = []
    for start, end in use.earlier_pauses or []:
        begin, finish = parse_datetime(start), parse_datetime(end)
        if begin and finish:
            pauses.append((begin, finish))
    if use.paused_from and use.paused_until:
        pauses.append((use.paused_from, use.paused_until))
    return pauses


def _paused_since(base: datetime, pauses: list[tuple[datetime, datetime]]) -> timedelta:
    """How long the event's vacation pauses stopped a clock that started at ``base``."""
    return sum(
        (max(timedelta(0), until - max(base, start)) for start, until in pauses), timedelta(0)
    )


def _lock_event_seats(user_id: int) -> list[tuple[Seat, Game, Event]]:
    """The player's seats whose clock runs in an active event game, with their game and
    event, locked as every write to a game locks them (``lock_game_and_seats``): the game
    row first, then its seats, game after game in the order of their ids. A move submitted
    meanwhile waits for this transaction or this one for it; neither writes a seat from a
    value the other changed."""
    tables = (
        Table.objects.filter(game__seats__user_id=user_id, game__status=Game.Status.ACTIVE)
        .select_related("round__event")
        .order_by("game_id")
        .distinct()
    )
    found = []
    for table in tables:
        game, seats = lock_game_and_seats(table.game_id)
        if game.status != Game.Status.ACTIVE:
            continue  # it ended while this transaction waited for its row
        found += [
            (seat, game, table.round.event)
            for seat in seats
            if seat.user_id == user_id and not seat.bot and seat.awaiting_since is not None
        ]
    return found


def enforce_vacation_limits(user_id: int, now: datetime | None = None) -> int:
    """Keep the player's vacations within each event's limit for its games.

    ``games.services.start_vacation`` pauses every clock of the player; in an event,
    vacations pause its games for at most ``vacation_limit_days`` in all (per player).
    The event's pause starts when the vacation is first seen here and lasts what is left
    of the allowance; a seat's deadline in an event game is then its clock's start +
    the time per move + the event pauses since that start (+ a time bank already spent).
    Deadlines are computed, not shifted, so a second run changes nothing; a vacation is
    accounted once (``VacationUse.vacation_until``); coming back early gives the unused
    part back. Returns how many seats' deadlines changed.
    """
    now = now or timezone.now()
    changed = 0
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(user_id=user_id).first()
        if player is None:
            return 0
        until = player.vacation_until
        away_until = until if until is not None and until > now else None
        on_vacation = away_until is not None
        seats = _lock_event_seats(user_id)
        events = {event.pk: event for _seat, _game, event in seats}
        uses = {}
        for event in events.values():
            use, _created = VacationUse.objects.select_for_update().get_or_create(
                event=event, user_id=user_id
            )
            if away_until is not None and use.vacation_until != away_until:
                if use.paused_from and use.paused_until and use.paused_until > use.paused_from:
                    use.earlier_pauses = [
                        *use.earlier_pauses,
                        [use.paused_from.isoformat(), use.paused_until.isoformat()],
                    ]
                left = timedelta(days=event.vacation_limit_days) - timedelta(seconds=use.seconds)
                grant = max(timedelta(0), min(away_until - now, left))
                use.seconds += int(grant.total_seconds())
                use.vacation_until = away_until
                use.paused_from, use.paused_until = now, now + grant
                use.save()
            elif not on_vacation and use.vacation_until and use.vacation_until > now:
                # Back early: the event's pause ends now; the unused part is given back.
                if use.paused_until and use.paused_from and use.paused_until > now:
                    unused = use.paused_until - max(now, use.paused_from)
                    use.seconds = max(0, use.seconds - int(unused.total_seconds()))
                    use.paused_until = max(now, use.paused_from)
                use.vacation_until = None
                use.save()
            uses[event.pk] = use
        for seat, game, event in seats:
            use = uses[event.pk]
            hours = game.move_hours
            if not hours or seat.awaiting_since is None:
                continue
            due = (
                seat.awaiting_since
                + timedelta(hours=hours)
                + _paused_since(seat.awaiting_since, _pauses(use))
            )
            if game.time_bank_hours and not seat.time_bank_seconds:
                due += timedelta(hours=game.time_bank_hours)  # spent: it extended a clock
            if seat.deadline != due and (
                seat.deadline is None or seat.deadline > due or not on_vacation
            ):
                seat.deadline = due
                seat.save(update_fields=["deadline"])
                changed += 1
    return changed


def players_on_vacation_in_events(now: datetime | None = None) -> list[int]:
    """Players whose vacation may touch event games: on vacation now, or back early
    with an event pause still running (the beat safety net)."""
    now = now or timezone.now()
    away = set(
        Seat.objects.filter(
            game__status=Game.Status.ACTIVE,
            game__event_table__isnull=False,
            user__player__vacation_until__gt=now,
        ).values_list("user_id", flat=True)
    )
    back = set(
        VacationUse.objects.filter(vacation_until__gt=now)
        .exclude(user__player__vacation_until__gt=now)
        .values_list("user_id", flat=True)
    )
    return sorted(away | back)
