"""A per-player limit on move submissions, for the pages and the API alike.

DRF's ``SimpleRateThrottle`` keeps each player's recent submissions in the cache (a
sliding window); the limit is ``settings.MOVE_RATE_LIMIT`` (e.g. ``"120/minute"``,
from the environment). With several web processes the cache must be shared (Redis,
``CACHE_URL``) for the limit to hold across them; there the window is counted in one
round trip (``TolerantRedisCache.hit_window``) instead of DRF's read and write. Over the limit, the submission is
refused with 429 and a sentence saying how long to wait; nothing is played.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.throttling import SimpleRateThrottle

from .services import ServiceError


class RateLimited(ServiceError):
    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, "rate_limited")
        self.retry_after = retry_after


class MoveThrottle(SimpleRateThrottle):
    scope = "moves"
    num_requests: int | None  # read from the rate by SimpleRateThrottle
    duration: int | None

    def get_rate(self) -> str | None:
        return getattr(settings, "MOVE_RATE_LIMIT", None) or None

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None  # anonymous requests are refused before they get here
        return self.cache_format % {"scope": self.scope, "ident": user.pk}

    def allow_request(self, request: Any, view: Any) -> bool:
        hit_window = getattr(self.cache, "hit_window", None)
        if hit_window is None or self.rate is None:
            return super().allow_request(request, view)  # DRF's read, then write
        self.key = self.get_cache_key(request, view)
        if self.key is None or self.num_requests is None or self.duration is None:
            return True
        self.now = self.timer()
        window = hit_window(self.key, self.now, self.duration, self.num_requests)
        if window is None:
            return True
        self.history = window  # what DRF's wait() reads: newest first
        return False


def check_move_rate(request: Any) -> None:
    """Count this submission against the player's limit; raise ``RateLimited`` when over."""
    throttle = MoveThrottle()
    if throttle.rate is None or throttle.allow_request(request, None):  # no view: counted per user
        return
    seconds = max(1, math.ceil(throttle.wait() or 1))
    message = ngettext(
        "You are sending moves faster than this site allows (%(rate)s): wait %(seconds)d second and try again.",
        "You are sending moves faster than this site allows (%(rate)s): wait %(seconds)d seconds and try again.",
        seconds,
    ) % {"rate": _rate_text(throttle.num_requests, throttle.duration), "seconds": seconds}
    raise RateLimited(message, seconds)


def _rate_text(count: int | None, duration: int | None) -> str:
    if duration == 1:
        return _("%(count)d moves a second") % {"count": count}
    if duration == 3600:
        return _("%(count)d moves an hour") % {"count": count}
    if duration == 86400:
        return _("%(count)d moves a day") % {"count": count}
    return _("%(count)d moves a minute") % {"count": count}
