"""The outbox of e-mails: who wants which mail (the preferences), quiet hours, recording a
notification once under its key, and scheduling its delivery.

What each mail says and when it is created is ``games.mails``; rendering and sending is
``games.delivery``; the signed links in mails are ``games.signed_links``; the private
iCal feed is ``games.calendar_feed``. ``games.notifications`` names them all.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.utils import timezone

from . import handoff
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


def draft(
    user: Any,
    game: Game | None,
    kind: str,
    key: str,
    context: dict[str, Any],
    send_after: datetime | None = None,
) -> Notification | None:
    """The notification to record (not saved yet), or None when the player's preferences want
    no such mail or they have no address. Quiet hours move ``send_after`` (default: now)."""
    player = player_of(user)
    if not wants(player, kind) or not getattr(user, "email", ""):
        return None
    send_after = send_after or timezone.now()
    if kind != Kind.DIGEST:
        send_after = outside_quiet(player, send_after)
    return Notification(
        key=key, user=user, game=game, kind=kind, context=context, send_after=send_after
    )


def record(drafts: Iterable[Notification | None]) -> list[Notification]:
    """Record each draft once under its key and have the new ones delivered when due.

    Returns the drafts recorded now, in their order, with their ``pk``; a key recorded
    before (a repeated change, a retried task) adds nothing and schedules nothing. Two
    queries however many drafts: the keys already there, then one INSERT of the others.

    A write of a game holds the game's row lock, so nobody else records its keys between
    the two. A key that another transaction records meanwhile all the same is taken as it
    stands (``ON CONFLICT … DO UPDATE`` of the key itself, which changes nothing but
    returns the row's pk) instead of failing the caller's transaction: both may then
    schedule that one row, and delivery's claim sends it once.
    """
    by_key: dict[str, Notification] = {}
    for note in drafts:
        if note is not None:
            by_key.setdefault(note.key, note)
    if not by_key:
        return []
    present = set(Notification.objects.filter(key__in=by_key).values_list("key", flat=True))
    new = [note for key, note in by_key.items() if key not in present]
    if new:
        Notification.objects.bulk_create(
            new, update_conflicts=True, unique_fields=["key"], update_fields=["key"]
        )
        schedule_delivery(*new)
    return new


def create(
    user: Any,
    game: Game | None,
    kind: str,
    key: str,
    context: dict[str, Any],
    send_after: datetime | None = None,
) -> Notification | None:
    """Record one notification once and have it delivered when due (``draft``, ``record``).

    Returns None when the player's preferences want no such mail or when the key exists
    already (a repeated change, a retried task).
    """
    notes = record([draft(user, game, kind, key, context, send_after)])
    return notes[0] if notes else None


def schedule_delivery(*notes: Notification) -> None:
    """Deliver once the transaction commits those due now; the beat task sends the others
    (``deliver_due``, every minute) when they are due."""
    now = timezone.now()
    due_now = [note.pk for note in notes if note.send_after <= now]
    if not due_now:
        return
    # Sent by the task's name: the tasks module imports the senders, not the reverse.
    task = current_app.tasks[DELIVER_TASK]
    for note_id in due_now:  # one callback each: a failed send leaves the others to go
        handoff.send_after_commit(task, note_id)


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
