"""Activate the signed-in player's language and time zone; keep no page in the browser.

LocaleMiddleware (before this one) picks the language from the cookie or
Accept-Language; a signed-in player's profile language wins over both, so it follows
them to a new browser.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers

from .auth import settled_user


class PlayerPreferencesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = settled_user(request)  # loaded here anyway: no lazy object from now on
        player = getattr(user, "player", None) if user.is_authenticated else None
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


class PagesNotKeptMiddleware:
    """Every HTML page is made afresh: the browser keeps no copy to show on Back.

    A correspondence page changes under the reader (a pick, an opponent's move): going
    Back after a pick must not show the old "My games" from the browser's memory.
    ``no-store`` also keeps such pages out of the back/forward cache. Answers that say
    how they may be kept (static files, the calendar feed) are left as they are.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        content_type = response.get("Content-Type", "")
        if content_type.startswith("text/html") and not response.has_header("Cache-Control"):
            add_never_cache_headers(response)  # no-cache, no-store, must-revalidate, private
        return response
