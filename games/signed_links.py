"""Signed links in e-mails: the one-click unsubscribe and the private calendar feed."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.urls import reverse

from .outbox import site_url

# The salts keep their old names: links already sent stay valid.
UNSUBSCRIBE_SALT = "games.notifications.unsubscribe"
CALENDAR_SALT = "games.notifications.calendar"


def make_token(user: Any, salt: str) -> str:
    """A signed, stable token naming ``user`` for one purpose (the salt)."""
    return signing.Signer(salt=salt).sign_object({"u": user.pk})


def user_for_token(token: str, salt: str) -> tuple[bool, Any]:
    """(whether the signature is good, the user it names or None)."""
    try:
        data = signing.Signer(salt=salt).unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError):
        return False, None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return False, None
    return True, get_user_model().objects.filter(pk=data["u"]).first()


def unsubscribe_url(user: Any) -> str:
    return site_url(reverse("games:unsubscribe", args=[make_token(user, UNSUBSCRIBE_SALT)]))


def calendar_url(user: Any) -> str:
    return site_url(reverse("games:calendar", args=[make_token(user, CALENDAR_SALT)]))
