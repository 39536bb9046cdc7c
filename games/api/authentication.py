"""Token authentication for the API: one plain query, and the player's language.

* The token, its user and the user's profile are read in one query (DRF's own class reads
  the profile in a second one), or from the cache (``games.api.tokencache``). Unknown key
  or inactive user → 401 with DRF's messages.
* Pages get the player's language from ``PlayerPreferencesMiddleware``, but a token only
  authenticates inside DRF, after the middleware ran: this class does the same for API
  clients, so the API's ``message`` (never its ``code``) is in the player's profile
  language (the browser's Accept-Language still applies to anonymous requests).
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from . import tokencache


class PlayerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        try:
            token = tokencache.token_with_user(key)
        except Token.DoesNotExist:
            raise exceptions.AuthenticationFailed(translation.gettext("Invalid token.")) from None
        user = token.user
        if not user.is_active:
            raise exceptions.AuthenticationFailed(translation.gettext("User inactive or deleted."))
        return user, token

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        found = super().authenticate(request)
        player = getattr(found[0], "player", None) if found else None  # read with the token
        language = getattr(player, "language", None)
        if language:
            translation.activate(language)
            request._request.LANGUAGE_CODE = translation.get_language()
        return found
