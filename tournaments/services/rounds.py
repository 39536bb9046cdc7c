"""Rounds: starting an event (round 1), seating each next round when the last game of
the current one ends, closing an event; and the "you play at table T" mails.

Anything that seats, starts or finishes locks the event row first, so two workers or a
retried task never seat a round twice: the second one waits for the lock, re-reads and
finds nothing to do (the unique round number backs this up).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import notifications
from games import services as games
from games.models import Game, Notification, Player, Seat
from games.services import Conflict

from .. import pairing, vacations
from ..models import Bye, Event, Registration, Round, Table
from .clubs import require_organizer
from .events import check_event, locked_event
from .pairings import (
    Seating,
    by_seeding,
    form_divisions,
    knockout_advancing,
    seating_for,
    total_rounds,
)

log = logging.getLogger(__name__)

EVENT_TABLE_KIND = Notification.Kind.EVENT_TABLE


@transaction.atomic
def start_event(event: Event, by: Any) -> Round:
    """Close registration, form divisions (round robins, leagues) and seat round 1."""
    require_organizer(event.club, by)
    event = locked_event(event)
    if event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        raise Conflict(_("This event has already started."), "already_started")
    check_event(event)
    active = list(
        by_seeding(
            event, Registration.objects.filter(event=event, status=Registration.Status.ACTIVE)
        )
    )
    needed = max(event.min_table_size, 2)
    if len(active) < needed:
        raise Conflict(
            _("At least %(n)d players must be registered to start.") % {"n": needed},
            "too_few_players",
        )
    if not event.seed:
        event.seed = secrets.randbits(31)
    event.status = Event.Status.RUNNING
    event.started_at = timezone.now()
    event.save(update_fields=["status", "started_at", "seed"])
    try:
        if event.has_divisions:
            form_divisions(event, active)
        seating = seating_for(event, 1)
    except pairing.PairingError as exc:
        raise Conflict(exc.message, exc.code) from None
    return _seat(event, 1, seating)


def _seat(event: Event, number: int, seating: Seating) -> Round:
    """Create round ``number`` with one started game per table and tell the players."""
    try:
        with transaction.atomic():
            round_ = Round.objects.create(event=event, number=number, is_final=seating.is_final)
    except IntegrityError:
        raise Conflict(_("This round has already been seated."), "round_seated") from None
    withdrawn = set(
        Registration.objects.filter(event=event, status=Registration.Status.WITHDRAWN).values_list(
            "user_id", flat=True
        )
    )
    tables = []
    for index, (players, division) in enumerate(seating.tables, start=1):
        game = _table_game(event, players, withdrawn)
        tables.append(
            (
                Table.objects.create(round=round_, number=index, division=division, game=game),
                players,
            )
        )
    # Players away on vacation: their new clocks, within the event's limit, before the mail
    # tells them their deadline.
    seated = [user_id for _table, players in tables for user_id in players]
    away = Player.objects.filter(user_id__in=seated, vacation_until__gt=timezone.now()).values_list(
        "user_id", flat=True
    )
    for user_id in away:
        vacations.enforce_vacation_limits(user_id)
    for table, players in tables:
        _tell_players(event, table, players, withdrawn)
    Bye.objects.bulk_create(
        Bye(round=round_, user_id=user_id, points=event.bye_points) for user_id in seating.byes
    )
    event.current_round = number
    event.save(update_fields=["current_round"])
    return round_


def _table_game(event: Event, players: Sequence[int], withdrawn: set[int]) -> Game:
    """A started game with ``players`` in this seat order, the event's time control and
    rating; withdrawn players' seats are played by the bot from the start."""
    users = get_user_model().objects.in_bulk(list(players))
    return games.create_table_game(
        [users[user_id] for user_id in players],
        kind=event.game,
        created_by=event.created_by or users[players[0]],
        bot_seats=[position for position, user_id in enumerate(players) if user_id in withdrawn],
        # A withdrawn player's seat is the bot's from the start: such a game is not rated.
        rated=event.rated and not withdrawn.intersection(players),
        days_per_move=event.days_per_move if not event.hours_per_move else None,
        hours_per_move=event.hours_per_move,
        time_bank_hours=event.time_bank_hours,
        timeout_policy="bot",
    )


def _url(name: str, *args: Any, fallback: str = "") -> str:
    """The page's full address (the mails link to the site), or ``fallback``."""
    try:
        return settings.SITE_URL.rstrip("/") + reverse(name, args=args)
    except NoReverseMatch:
        return fallback


def _tell_players(event: Event, table: Table, players: Sequence[int], withdrawn: set[int]) -> None:
    """An "event round seated" mail to every player at the table (key: table and user)."""
    seats = list(
        Seat.objects.filter(game=table.game).select_related("user__player").order_by("position")
    )
    names = [seat.name for seat in seats]
    game_url = _url("games:detail", table.game_id)
    event_url = _url("tournaments:event", event.club.slug, event.slug, fallback=game_url)
    for seat in seats:
        if seat.user is None or seat.user_id in withdrawn:
            continue
        context = {
            "event": event.name,
            "club": event.club.name,
            "round": table.round.number,
            "final": table.round.is_final,
            "table": table.number,
            "seat": seat.position,
            "names": names,
            "game_id": table.game_id,
            "game_url": game_url,
            "event_url": event_url,
            "deadline": seat.deadline.isoformat() if seat.deadline else None,
            "timeout_policy": event.timeout_policy,
        }
        notifications.create(
            seat.user,
            table.game,
            EVENT_TABLE_KIND,
            f"table:{table.pk}:{seat.user_id}",
            context,
        )


# --- The next round ---------------------------------------------------------------------------


def round_complete(round_: Round) -> bool:
    """Every game of the round is over (finished, adjudicated or aborted)."""
    return not Table.objects.filter(round=round_, game__status__lt=Game.Status.FINISHED).exists()


def _event_over(event: Event, current: Round) -> bool:
    if event.format == Event.Format.KNOCKOUT:
        return current.is_final or len(knockout_advancing(event, current.number)) < 2
    return current.number >= (total_rounds(event) or 0)


def _finish(event: Event) -> None:
    event.status = Event.Status.FINISHED
    event.finished_at = timezone.now()
    event.save(update_fields=["status", "finished_at"])
    if event.format == Event.Format.KNOCKOUT:
        _mark_knockout_eliminations(event)


def _mark_knockout_eliminations(event: Event) -> None:
    last = event.current_round
    for number in range(1, last + 1):
        going_on = set(knockout_advancing(event, number)) if number < last else set()
        seated = set(
            Seat.objects.filter(game__event_table__round__event=event, user__isnull=False)
            .filter(game__event_table__round__number=number)
            .values_list("user_id", flat=True)
        )
        out = seated - going_on
        if number == last:
            # The final table: nobody is knocked out of it (its places rank the winners).
            continue
        Registration.objects.filter(event=event, user_id__in=out, eliminated_in=None).update(
            eliminated_in=number
        )


def advance(event_id: int, by: Any = None) -> Round | None:
    """Seat the next round when every game of the current one is over; finish the event
    after its last round. Idempotent: returns None (and changes nothing) when the round
    is still being played or was already followed up — by another worker, a retried task
    or the organizer. With ``by`` (an organizer seating by hand) a refusal says why."""
    with transaction.atomic():
        event = locked_event(event_id)
        if by is not None:
            require_organizer(event.club, by)
        if event.status != Event.Status.RUNNING:
            if by is not None:
                raise Conflict(_("This event is not running."), "event_not_running")
            return None
        current = Round.objects.filter(event=event, number=event.current_round).first()
        if current is None:
            return None
        if not round_complete(current):
            if by is not None:
                raise Conflict(
                    _("Some games of this round are still being played: wait, or adjudicate them."),
                    "round_not_finished",
                )
            return None
        if current.status != Round.Status.FINISHED:
            current.status = Round.Status.FINISHED
            current.finished_at = timezone.now()
            current.save(update_fields=["status", "finished_at"])
        if _event_over(event, current):
            _finish(event)
            return None
        try:
            seating = seating_for(event, current.number + 1)
        except pairing.PairingError as exc:
            log.error("event %s: round %s cannot be seated: %s", event.pk, current.number + 1, exc)
            raise Conflict(exc.message, exc.code) from None
        return _seat(event, current.number + 1, seating)


def seat_next_round(event: Event, by: Any) -> Round | None:
    """The organizer seats the next round by hand (the same step the task takes).

    Returns the new round, or None when the round just completed was the last one and
    the event is now finished. Raises ``Conflict`` while games of the round are still
    being played or when the event is not running."""
    return advance(event.pk, by=by)


@transaction.atomic
def close_event(event: Event, by: Any) -> Event:
    """End the event early (after a complete round): no further round is seated."""
    require_organizer(event.club, by)
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("This event is already over."), "event_finished")
    if event.status != Event.Status.RUNNING:
        raise Conflict(_("This event has not started."), "event_not_running")
    current = Round.objects.filter(event=event, number=event.current_round).first()
    if current is not None and not round_complete(current):
        raise Conflict(
            _("Some games of this round are still being played: wait, or adjudicate them."),
            "round_not_finished",
        )
    if current is not None and current.status != Round.Status.FINISHED:
        current.status = Round.Status.FINISHED
        current.finished_at = timezone.now()
        current.save(update_fields=["status", "finished_at"])
    _finish(event)
    return event


def events_ready_to_advance() -> list[int]:
    """Running events whose current round has no game left to play (the beat safety net)."""
    running = Event.objects.filter(status=Event.Status.RUNNING).values_list("pk", "current_round")
    ready = []
    for event_id, number in running:
        pending = Table.objects.filter(
            round__event_id=event_id, round__number=number, game__status__lt=Game.Status.FINISHED
        ).exists()
        if not pending:
            ready.append(event_id)
    return ready


def event_of_game(game_id: int) -> int | None:
    return Table.objects.filter(game_id=game_id).values_list("round__event_id", flat=True).first()
