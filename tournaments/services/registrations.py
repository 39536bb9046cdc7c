"""Players in an event: registering while registration is open, withdrawing, and an
organizer handing a player's seats to the bot."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as games
from games.models import Game, Player, Seat
from games.services import Conflict, NotAPlayer

from ..models import Event, Membership, Registration
from .clubs import require_organizer, require_user
from .events import locked_event


def registration_open(event: Event, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    if event.status != Event.Status.REGISTRATION:
        return False
    if event.registration_opens and now < event.registration_opens:
        return False
    return not (event.registration_closes and now >= event.registration_closes)


@transaction.atomic
def register(event: Event, user: Any, now: datetime | None = None) -> Registration:
    """Register ``user``; a public club's event makes them a member, an invite-only club's
    event needs them to be one."""
    require_user(user)
    event = locked_event(event)
    if not registration_open(event, now):
        raise Conflict(_("Registration for this event is not open."), "registration_closed")
    if not event.club.is_member(user):
        if not event.club.is_public:
            raise NotAPlayer(
                _("Only members of this club can register for its events."), "not_member"
            )
        Membership.objects.get_or_create(club=event.club, user=user)
    Player.for_user(user)
    registration, created = Registration.objects.get_or_create(event=event, user=user)
    if not created:
        if registration.is_active:
            raise Conflict(_("You are already registered."), "already_registered")
        registration.status = Registration.Status.ACTIVE
        registration.withdrawn_at = None
        registration.save(update_fields=["status", "withdrawn_at"])
    return registration


@transaction.atomic
def withdraw(event: Event, user: Any) -> Registration:
    """Leave an event. Before it starts the place is simply given up; during it, the
    player's seats in unfinished games pass to the bot (those results still count as
    played out) and they are not seated again (a round robin's fixed schedule seats the
    bot in their place)."""
    require_user(user)
    event = locked_event(event)
    registration = Registration.objects.filter(event=event, user=user).first()
    if registration is None or not registration.is_active:
        raise Conflict(_("You are not registered for this event."), "not_registered")
    if event.status == Event.Status.FINISHED:
        raise Conflict(_("This event is over."), "event_finished")
    registration.status = Registration.Status.WITHDRAWN
    registration.withdrawn_at = timezone.now()
    registration.save(update_fields=["status", "withdrawn_at"])
    if event.status == Event.Status.RUNNING:
        _hand_over_seats(event, user)
    return registration


def _unfinished_seats(event: Event, user: Any) -> list[Seat]:
    return list(
        Seat.objects.filter(
            user=user,
            game__event_table__round__event=event,
            game__status=Game.Status.ACTIVE,
            bot="",
        ).order_by("game_id")
    )


def _hand_over_seats(event: Event, user: Any) -> int:
    handed = 0
    for seat in _unfinished_seats(event, user):
        handed += games.hand_seat_to_bot(seat.game_id, seat.position)
    return handed


@transaction.atomic
def replace_with_bot(event: Event, user: Any, by: Any, withdraw_player: bool = False) -> int:
    """An organizer hands a player's seats in the event's unfinished games to the bot
    (and, with ``withdraw_player``, withdraws them from later rounds). Returns how many
    seats were handed over."""
    require_organizer(event.club, by)
    event = locked_event(event)
    if event.status != Event.Status.RUNNING:
        raise Conflict(_("This event is not running."), "event_not_running")
    registration = Registration.objects.filter(event=event, user=user).first()
    if registration is None:
        raise Conflict(_("This player is not registered for this event."), "not_registered")
    if withdraw_player and registration.is_active:
        registration.status = Registration.Status.WITHDRAWN
        registration.withdrawn_at = timezone.now()
        registration.save(update_fields=["status", "withdrawn_at"])
    return _hand_over_seats(event, user)
