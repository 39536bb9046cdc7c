"""How long a message may be and how often a player may post (pages and API together).

The rate uses the moves' machinery (``games.ratelimit``: DRF's sliding window in the
shared cache) under its own scope and ``settings.CHAT_RATE_LIMIT``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.throttling import SimpleRateThrottle

from games.ratelimit import RateLimited
from games.services import ServiceError

from .models import MAX_LENGTH


class ChatThrottle(SimpleRateThrottle):
    scope = "chat"

    def get_rate(self) -> str | None:
        return getattr(settings, "CHAT_RATE_LIMIT", None) or None

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


@dataclass
class _Poster:
    """What the throttle reads of a request: the user (services have no request)."""

    user: Any


def clean_text(text: str) -> str:
    """The message as it is stored: trimmed; refused when empty or too long."""
    text = (text or "").replace("\r\n", "\n").strip()
    if not text:
        raise ServiceError(_("Write something before sending."), "message_empty")
    if len(text) > MAX_LENGTH:
        raise ServiceError(
            _("A message has at most %(max)d characters; this one has %(count)d.")
            % {"max": MAX_LENGTH, "count": len(text)},
            "message_too_long",
        )
    return text


def check_rate(user: Any) -> None:
    """Count one message against ``user``'s limit; ``RateLimited`` (429) when over it."""
    throttle = ChatThrottle()
    poster: Any = _Poster(user)  # stands for the request: the throttle reads its user only
    no_view: Any = None
    if throttle.rate is None or throttle.allow_request(poster, no_view):
        return
    seconds = max(1, math.ceil(throttle.wait() or 1))
    raise RateLimited(
        ngettext(
            "You are writing faster than this site allows: wait %(seconds)d second and try again.",
            "You are writing faster than this site allows: wait %(seconds)d seconds and try again.",
            seconds,
        )
        % {"seconds": seconds},
        seconds,
    )
