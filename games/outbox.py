"""The outbox of e-mails: who wants which mail (the preferences), quiet hours, recording a
notification once under its key, and scheduling its delivery.

What each mail says and when it is created is ``games.mails``; rendering and sending is
``games.delivery``; the signed links in mails are ``games.signed_links``; the private
iCal feed is ``games.calendar_feed``. ``games.notifications`` names them all.
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from .models import Game, Notification, Player

DELIVER_TASK = "games.tasks.deliver_notification"
MAX_BACKOFF = timedelta(hours=1)

Kind = Notification.Kind
Mode = Player.EmailMode

# Which kinds of mail exist for each preference (see the table above).
# "A round of your event is seated" (tournaments) goes out at once in every mode but off.
EVENT_TABLE = Kind.EVENT_TABLE
# "New messages in a game's chat" (``conversations``), for players who asked for it: like
# a "your move" mail, at once unless quiet hours or the digest hold it back.
CHAT = Kind.CHAT
# "A rematch is offered to you" (``games.rematches``) and a club's announcements
# (``conversations``): addressed to one person once, like an event's table, in every mode
# but off.
REMATCH = Kind.REMATCH
ANNOUNCEMENT = Kind.ANNOUNCEMENT
WANTED: dict[str, frozenset[str]] = {
    Mode.EVERY_MOVE: frozenset(
        {
            Kind.YOUR_MOVE,
            Kind.SEASON,
            Kind.GAME_OVER,
            Kind.REMINDER,
            Kind.HANDOVER,
            EVENT_TABLE,
            CHAT,
            REMATCH,
            ANNOUNCEMENT,
        }
    ),
    Mode.COALESCED: frozenset(
        {
            Kind.YOUR_MOVE,
            Kind.GAME_OVER,
            Kind.REMINDER,
            Kind.HANDOVER,
            EVENT_TABLE,
            CHAT,
            REMATCH,
            ANNOUNCEMENT,
        }
    ),
    Mode.DIGEST: frozenset(
        {Kind.DIGEST, Kind.REMINDER, Kind.HANDOVER, EVENT_TABLE, REMATCH, ANNOUNCEMENT}
    ),
    Mode.OFF: frozenset(),
}


def player_of(user: Any) -> Player | None:
    return getattr(user, "player", None) if user is not None else None


def wants(player: Player | None, kind: str) -> bool:
    """Whether a player with these preferences gets this kind of mail at all."""
    mode = player.email_mode if player is not None else Mode.EVERY_MOVE
    return kind in WANTED.get(mode, WANTED[Mode.EVERY_MOVE])


# --- Time: zones and quiet hours ------------------------------------------------------------------


def zone_of(player: Player | None) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(player.time_zone if player else "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def quiet_until(player: Player | None, when: datetime) -> datetime | None:
    """The end of the quiet period ``when`` falls in, or None if it is not quiet then.

    Quiet hours run from ``quiet_start`` (included) to ``quiet_end`` (excluded), local
    hours of the player's time zone; ``quiet_start > quiet_end`` wraps midnight; equal
    or missing bounds mean no quiet hours.
    """
    if player is None or player.quiet_start is None or player.quiet_end is None:
        return None
    start, end = player.quiet_start % 24, player.quiet_end % 24
    if start == end:
        return None
    local = when.astimezone(zone_of(player))
    hour = local.hour
    inside = start <= hour < end if start < end else (hour >= start or hour < end)
    if not inside:
        return None
    ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)  # wall-clock arithmetic in the player's zone
    return ends.astimezone(UTC)


def outside_quiet(player: Player | None, when: datetime) -> datetime:
    return quiet_until(player, when) or when


# --- Creating -----------------------------------------------------------------------------------


def create(
    user: Any,
    game: Game | None,
    kind: str,
    key: str,
    context: dict[str, Any],
    send_after: datetime | None = None,
) -> Notification | None:
    """Record a notification once and have it delivered when due.

    Returns None when the player's preferences want no such mail or when the key exists
    already (a repeated change, a retried task). Quiet hours move ``send_after``.
    """
    player = player_of(user)
    if not wants(player, kind) or not getattr(user, "email", ""):
        return None
    send_after = send_after or timezone.now()
    if kind != Kind.DIGEST:
        send_after = outside_quiet(player, send_after)
    try:
        with transaction.atomic():
            note = Notification.objects.create(
                key=key,
                user=user,
                game=game,
                kind=kind,
                context=context,
                send_after=send_after,
            )
    except IntegrityError:
        return None
    schedule_delivery(note)
    return note


def schedule_delivery(note: Notification) -> None:
    """Deliver once the transaction commits, if due now; otherwise the beat task will."""
    if note.send_after > timezone.now():
        return  # deliver_due (every minute) sends it when it is due
    # Sent by the task's name: the tasks module imports the senders, not the reverse.
    note_id = note.pk
    task = current_app.tasks[DELIVER_TASK]
    transaction.on_commit(lambda: task.delay(note_id), robust=True)


def due(now: datetime | None = None) -> list[int]:
    """Pending notifications that are due, and ones stuck in "sending" after a crash."""
    now = now or timezone.now()
    stale = timedelta(seconds=getattr(settings, "NOTIFICATION_STALE_SECONDS", 600))
    Notification.objects.filter(
        status=Notification.Status.SENDING, claimed_at__lt=now - stale
    ).update(status=Notification.Status.PENDING)
    return list(
        Notification.objects.filter(status=Notification.Status.PENDING, send_after__lte=now)
        .order_by("send_after")
        .values_list("pk", flat=True)[:500]
    )
