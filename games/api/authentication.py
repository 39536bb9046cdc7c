"""Token authentication for the API: one plain query, and the player's language.

* DRF's ``TokenAuthentication`` builds its join through the ORM's compiler on every
  request; this reads the token's user, with the profile's language, in one prepared
  statement (the API answers a bot's move in a few milliseconds, and compiling that
  query was a fifth of them). Unknown key or inactive user → 401 with DRF's messages.
* Pages get the player's language from ``PlayerPreferencesMiddleware``, but a token only
  authenticates inside DRF, after the middleware ran: this class does the same for API
  clients, so the API's ``message`` (never its ``code``) is in the player's profile
  language (the browser's Accept-Language still applies to anonymous requests).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import translation
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from games.models import Player


def _query() -> str:
    user_model = get_user_model()
    user, pk = user_model._meta.db_table, user_model._meta.pk.column
    return (
        f"SELECT u.*, p.language AS profile_language FROM {user} u "
        f"JOIN {Token._meta.db_table} t ON t.user_id = u.{pk} "
        f"LEFT JOIN {Player._meta.db_table} p ON p.user_id = u.{pk} "
        "WHERE t.key = %s"
    )


class PlayerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user_model = get_user_model()
        user = next(iter(user_model._default_manager.raw(_query(), [key])), None)
        if user is None:
            raise exceptions.AuthenticationFailed(translation.gettext("Invalid token."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(translation.gettext("User inactive or deleted."))
        return user, Token(key=key, user=user)

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        found = super().authenticate(request)
        language = getattr(found[0], "profile_language", None) if found else None
        if language:
            translation.activate(language)
            request._request.LANGUAGE_CODE = translation.get_language()
        return found
