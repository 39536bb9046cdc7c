"""Token authentication that also speaks the player's language.

Pages get the player's language from ``PlayerPreferencesMiddleware``, but a token only
authenticates inside DRF, after the middleware ran: this class does the same for API
clients, so the API's ``message`` (never its ``code``) is in the player's profile language
(the browser's Accept-Language still applies to anonymous requests). The player comes with
the token in the one query DRF makes anyway.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.request import Request


class PlayerTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        model = self.get_model()
        try:
            token = model.objects.select_related("user__player").get(key=key)
        except model.DoesNotExist:
            raise exceptions.AuthenticationFailed(translation.gettext("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(translation.gettext("User inactive or deleted."))
        return token.user, token

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        found = super().authenticate(request)
        if found is not None:
            player = getattr(found[0], "player", None)
            if player is not None and player.language:
                translation.activate(player.language)
                request._request.LANGUAGE_CODE = translation.get_language()
        return found
