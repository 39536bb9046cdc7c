"""A signed-in request's session and its user read from the cache in one round trip.

Django reads the session from the cache (one round trip), then ``games.auth`` the
session's user from ``games.usercache`` (a second: the user's id is in the session). So
the browser also holds a hint of whom it is signed in as: ``HINT_COOKIE``, the user's id,
set and dropped by ``SessionWithUserMiddleware`` once the request has loaded its user, or
signed in or out. When a request comes with a hint, loading the session asks the cache
for the hinted user's entries too (``usercache.keys_read_with``), and ``games.auth`` takes
them from there (``found_with``). The hint is only ever a hint: what counts is the
session's user, checked as before; a hint naming someone else (an old cookie, a forged
one) reads their entries for nothing, is never used for the session's user, and is
replaced by the right one.

Taking that second round trip away moved bench_web's fresh render from 4.66-4.73x to
4.49-4.55x the minimal view (2026-11-28, runs alternating with the session's start, which
stayed at 5.06-5.18x). Without sessions in the cache (the embedded default) no hint is
set: nothing would read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

from . import usercache

HINT_COOKIE = "evergreen_uid"


@dataclass
class ReadWith:
    """The hinted user's keys (``usercache.keys_read_with``) and, once the session was
    loaded, what the cache answered for them."""

    user_pk: int
    keys: list[str]
    found: dict[str, Any] | None = None


class SessionStore(cached_db.SessionStore):
    """Django's cached, database-backed sessions, whose load also reads ``read_with``'s
    keys in the same round trip (SESSION_ENGINE ``games.usersession``)."""

    read_with: ReadWith | None = None

    def load(self) -> dict[str, Any]:
        wanted = self.read_with
        # Only from the cache the user's entries are kept in, and for a session that has
        # a key (``cache_key`` would make one).
        shared = settings.SESSION_CACHE_ALIAS == DEFAULT_CACHE_ALIAS
        if wanted is None or self.session_key is None or not shared:
            return super().load()
        found = caches[DEFAULT_CACHE_ALIAS].get_many([self.cache_key, *wanted.keys])
        wanted.found = {key: found[key] for key in wanted.keys if key in found}
        data = found.get(self.cache_key)
        return data if isinstance(data, dict) else super().load()


def found_with(request: HttpRequest, user_pk: Any) -> dict[str, Any] | None:
    """What the session's load read of ``user_pk``'s entries (``usercache.keys_read_with``),
    or None: no hint, a hint naming another user, or the session not loaded that way."""
    wanted = getattr(request.session, "read_with", None)
    if isinstance(wanted, ReadWith) and wanted.user_pk == user_pk:
        return wanted.found
    return None


class SessionWithUserMiddleware(SessionMiddleware):
    """Django's ``SessionMiddleware``, which also hands the session the user ``HINT_COOKIE``
    names, and keeps that cookie naming the request's user."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        hinted = _user_pk(request.COOKIES.get(HINT_COOKIE))
        if hinted is not None and isinstance(request.session, SessionStore):
            request.session.read_with = ReadWith(hinted, usercache.keys_read_with(hinted))

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response = super().process_response(request, response)
        user = _loaded_user(request)
        if user is None:
            return response  # the request never needed its user: the hint stays as it is
        hint = request.COOKIES.get(HINT_COOKIE)
        hinting = isinstance(getattr(request, "session", None), SessionStore)  # else unread
        if hinting and getattr(user, "is_authenticated", False) and hint != str(user.pk):
            response.set_cookie(
                HINT_COOKIE,
                str(user.pk),
                max_age=settings.SESSION_COOKIE_AGE,
                path=settings.SESSION_COOKIE_PATH,
                domain=settings.SESSION_COOKIE_DOMAIN,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite=settings.SESSION_COOKIE_SAMESITE,
            )
        elif not getattr(user, "is_authenticated", False) and hint is not None:
            response.delete_cookie(
                HINT_COOKIE,
                path=settings.SESSION_COOKIE_PATH,
                domain=settings.SESSION_COOKIE_DOMAIN,
                samesite=settings.SESSION_COOKIE_SAMESITE,
            )
        return response


def _loaded_user(request: HttpRequest) -> Any | None:
    """The request's user if it was loaded (``games.auth.settled_user`` put it in place of
    the lazy object), or put there by signing in or out; None while nobody asked."""
    user = request.__dict__.get("user")
    return None if type(user) is SimpleLazyObject else user


def _user_pk(hint: str | None) -> int | None:
    if hint is None or not hint.isdigit() or len(hint) > 18:
        return None
    return int(hint)
