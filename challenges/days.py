"""The challenge's day: a UTC date, and the seed every player of a kind is dealt on it.

The seed is drawn from the site's secret key, so nobody can work out a coming day's deal
in advance (a seed from the date alone could be simulated the night before); it is the
same for every player and every process, so two first players racing to open the day
store the same value.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings
from django.utils import timezone

ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def from_iso(text: str) -> date | None:
    """The day written ``YYYY-MM-DD`` (the API schema's ``date``), else None: Python's
    ``date.fromisoformat`` alone would also take ``20261128``."""
    if not ISO_DAY.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:  # 2026-02-30
        return None


def today() -> date:
    """The current UTC day (read from ``timezone.now``, which the tests control)."""
    return timezone.now().astimezone(UTC).date()


def ends_at(day: date) -> datetime:
    """The moment ``day`` is over: the next UTC midnight."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


def is_over(day: date) -> bool:
    return timezone.now() >= ends_at(day)


def finished_on(moment: datetime | None) -> date | None:
    """The UTC day a game finished on."""
    return moment.astimezone(UTC).date() if moment is not None else None


def seed_for(day: date, kind: str) -> int:
    """The day's seed for ``kind``: 62 bits of an HMAC of the day and the kind."""
    message = f"daily-challenge:{kind}:{day.isoformat()}".encode()
    digest = hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2
