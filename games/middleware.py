"""Activate the signed-in player's language and time zone.

LocaleMiddleware (before this one) picks the language from the cookie or
Accept-Language; a signed-in player's profile language wins over both, so it follows
them to a new browser.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation


class PlayerPreferencesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        player = getattr(request.user, "player", None) if request.user.is_authenticated else None
        if player is not None:
            if player.language and player.language != translation.get_language():
                translation.activate(player.language)
                request.LANGUAGE_CODE = translation.get_language()
            try:
                timezone.activate(zoneinfo.ZoneInfo(player.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)
