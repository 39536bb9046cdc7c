"""An API client's poll that finds nothing new, answered before DRF, sessions and
PostgreSQL.

A program playing through the API reads its game (``GET /api/games/<id>/``) every few
seconds, and nearly always nothing has moved. With ``?since=<the version it last saw>``
the answer is then 204 with no body: given here from the game's version as
``games.pollcache`` publishes it and the token checked as the API checks it
(``PlayerTokenAuthentication``, from ``games.api.tokencache``: two cache reads), as ``QuickPollMiddleware`` answers a page's poll. Anything else (another
version, no token or a bad one, a malformed ``since``) goes on to the view
(``games.api.views.game_detail``), which applies the same rule or refuses as DRF does,
with the version read here when there was one (``version_read``).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers
from rest_framework.exceptions import AuthenticationFailed

from games.pollcache import VERSION, GameGetMiddleware, current_version

from .authentication import PlayerTokenAuthentication

# Where the middleware leaves the version it read on the request, with the game's id.
VERSION_READ = "quick_poll_version"


class QuickApiPollMiddleware(GameGetMiddleware):
    """204 for an API read of a game still at the version given as ``since``, asked with a
    token of an active user; every other request passes through."""

    url_name = "api:game"

    def quick(self, request: HttpRequest, pk: int) -> HttpResponse | None:
        since = request.GET.getlist("since")
        # ASCII digits of a sane length only, given once: the view refuses the rest.
        if len(since) != 1 or not VERSION.fullmatch(since[0]):
            return None
        key = _token_key(request)
        if key is None:
            return None
        version = current_version(pk)
        setattr(request, VERSION_READ, (pk, version))  # the view's answer, if it is asked
        if version != int(since[0]):
            return None
        try:  # the API's own check: a known token of an active user
            PlayerTokenAuthentication().authenticate_credentials(key)
        except AuthenticationFailed:
            return None  # the view answers 401
        response = HttpResponse(status=204)
        add_never_cache_headers(response)
        return response


def version_read(request: Any, pk: int) -> int | None:
    """The version of game ``pk`` as ``QuickApiPollMiddleware`` read it for this request
    (the poll of a game that moved on: one cache read, not two), else read now. ``request``
    is Django's or DRF's (which hands on the attributes it does not have)."""
    found = getattr(request, VERSION_READ, None)
    if found is not None and found[0] == pk:
        return found[1]  # type: ignore[no-any-return]
    return current_version(pk)


def _token_key(request: HttpRequest) -> str | None:
    """The key of an ``Authorization: Token <key>`` header (DRF's keyword), or None."""
    parts = request.headers.get("Authorization", "").split()
    if len(parts) != 2 or parts[0].lower() != PlayerTokenAuthentication.keyword.lower():
        return None
    return parts[1]
