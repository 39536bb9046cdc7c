"""Links from e-mails and calendars that work without logging in, and how they end.

* The calendar address carries the player's own random secret (``Player.calendar_secret``)
  and nothing else: no user id. "Reset my calendar link" draws a new secret, and the old
  address stops working at once.
* An unsubscribe link is signed (``django.core.signing``) with the time it was made and
  is honoured for ``settings.UNSUBSCRIBE_LINK_DAYS`` days; an older one changes nothing
  and its page offers to log in instead.
"""

from __future__ import annotations

from datetime import timedelta
from enum import Enum
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse

from .models import Player, new_calendar_secret
from .site import site_url

UNSUBSCRIBE_SALT = "games.signed_links.unsubscribe"


class Link(Enum):
    GOOD = "good"
    EXPIRED = "expired"
    BAD = "bad"


def unsubscribe_token(user: Any) -> str:
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign_object({"u": user.pk})


def unsubscribe_max_age() -> timedelta:
    return timedelta(days=settings.UNSUBSCRIBE_LINK_DAYS)


def user_for_unsubscribe(token: str) -> tuple[Link, Any]:
    """(whether the link is good, expired or bad, the user it names or None)."""
    signer = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT)
    try:
        data = signer.unsign_object(token, max_age=unsubscribe_max_age())
    except signing.SignatureExpired:
        return Link.EXPIRED, None
    except (signing.BadSignature, ValueError, TypeError):
        return Link.BAD, None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return Link.BAD, None
    return Link.GOOD, get_user_model().objects.filter(pk=data["u"]).first()


def calendar_token(user: Any) -> str:
    return str(Player.for_user(user).calendar_secret)


def user_for_calendar(token: str) -> Any:
    """The user whose calendar secret this is, or None."""
    if not token or len(token) > 64:
        return None
    player = Player.objects.filter(calendar_secret=token).select_related("user").first()
    return player.user if player is not None else None


def reset_calendar(user: Any) -> str:
    """A new calendar secret for ``user``: the old address no longer works."""
    player = Player.for_user(user)
    player.calendar_secret = new_calendar_secret()
    player.save(update_fields=["calendar_secret"])
    return str(player.calendar_secret)


def unsubscribe_url(user: Any) -> str:
    return site_url(reverse("games:unsubscribe", args=[unsubscribe_token(user)]))


def calendar_url(user: Any) -> str:
    return site_url(reverse("games:calendar", args=[calendar_token(user)]))
