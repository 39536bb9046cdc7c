"""The private iCal feed (RFC 5545) of a player's deadlines."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from .models import Game, Seat
from .outbox import player_of
from .site import host, site_url

# --- The iCal feed (RFC 5545) ----------------------------------------------------------------------
# Written by hand (the ``icalendar`` package is not installed): a handful of properties,
# TEXT escaping and line folding at 75 octets are all a feed of deadlines needs.


def ical_escape(text: str) -> str:
    """Escape a TEXT value (RFC 5545 §3.3.11)."""
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def ical_fold(line: str) -> str:
    """Fold a content line into lines of at most 75 octets (RFC 5545 §3.1), never
    splitting a UTF-8 character; continuation lines start with one space."""
    parts: list[str] = []
    current = ""
    size = 0
    limit = 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            parts.append(current)
            current, size, limit = "", 0, 74  # the leading space takes one octet
        current += char
        size += width
    parts.append(current)
    return "\r\n ".join(parts)


def _ical_time(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar_feed(user: Any, now: datetime | None = None) -> str:
    """The player's current deadlines as an iCalendar document: one event per seat that
    must act by a deadline, with the player's reminders as alarms."""
    now = now or timezone.now()
    player = player_of(user)
    language = player.language if player else settings.LANGUAGE_CODE
    seats = (
        Seat.objects.filter(user=user, deadline__isnull=False, game__status=Game.Status.ACTIVE)
        .select_related("game")
        .order_by("deadline")
    )
    reminders = sorted(
        {int(h) for h in (getattr(player, "reminder_hours", None) or []) if int(h) > 0}
    )
    with translation.override(language):
        lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Evergreen//Deadlines//EN",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:" + ical_escape(_("Evergreen deadlines")),
        ]
        for seat in seats:
            assert seat.deadline is not None
            game_url = site_url(reverse("games:detail", args=[seat.game_id]))
            summary = _("Evergreen game #%(id)s: your move is due") % {"id": seat.game_id}
            description = _("Make your move before the deadline: %(url)s") % {"url": game_url}
            lines += [
                "BEGIN:VEVENT",
                f"UID:evergreen-seat-{seat.pk}-{int(seat.deadline.timestamp())}@{host()}",
                f"DTSTAMP:{_ical_time(now)}",
                f"DTSTART:{_ical_time(seat.deadline)}",
                "SUMMARY:" + ical_escape(summary),
                "DESCRIPTION:" + ical_escape(description),
                f"URL:{game_url}",
                "TRANSP:TRANSPARENT",
            ]
            for hours in reminders:
                lines += [
                    "BEGIN:VALARM",
                    "ACTION:DISPLAY",
                    "DESCRIPTION:" + ical_escape(summary),
                    f"TRIGGER:-PT{hours}H",
                    "END:VALARM",
                ]
            lines.append("END:VEVENT")
        lines.append("END:VCALENDAR")
    return "".join(ical_fold(line) + "\r\n" for line in lines)
