"""The game page served again from the cache, most often without the database.

A rendered page is kept per viewer and minute (``page_key``: game, user, CSRF secret
since the page embeds a token, what was asked for, htmx region or whole page) together
with what it was rendered for: the game's version, the language and the time zone. It is
served again only while those three are still the viewer's:

* the version is the one ``games.pollcache`` publishes on every save that writes it;
* the language and zone are the player's own (``preferences_key``: published on every
  save of a player: the language switcher saves it too), else the request's language and the
  site's zone;
* a signed-in viewer's session must still be valid: its user and its password hash
  (``auth_key``: published on every save of a user; an inactive user has none).

``QuickPageMiddleware`` (just before ``PlayerPreferencesMiddleware`` in ``MIDDLEWARE``,
after sessions, language, CSRF, messages and htmx) reads the session, then the page, the
version and the viewer's two records in one round trip, and answers without a user, a
player or a query. Everything it cannot vouch for (a record missing, a version moved on,
a flash message waiting) goes on to the view, ``games.views.play.detail``, which looks
the page up again with the user it loaded, renders it when it must, stores it, and
remembers the viewer's records for the next request (``add``: never over a published
one). The responses of both paths go out through the same middleware (security headers,
CSP, Vary, no-store).

A write the cache dropped (Redis unreachable just then: ``evergreen.tolerant_cache``) can
leave a record behind: a page stays what it was for at most the rest of its minute, the
minute being in its key, after which the view, reading the database, renders anew.
"""

from __future__ import annotations

import hashlib
import zoneinfo
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
)
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.crypto import constant_time_compare

from . import keptafter
from .models import Player
from .pollcache import GameGetMiddleware, current_version, version_key

# How long a viewer's records stay without being published again; a page only lives
# for its minute, so this bounds nothing but how often the view fills them.
VIEWER_SECONDS = 600

# A stored page: (version, language, zone name, content). Kept uncompressed: zlib at level
# 1 makes a 115 KB page 14 KB, but reading it back cost 0.34 ms of CPU against 0.10 ms for
# the page as it is (measured on loopback Redis): the cache hit is what must be cheap.
Stored = tuple[int, str, str, bytes]


def page_key(request: HttpRequest, pk: int, user_pk: Any, secret: str) -> str:
    """Where this viewer's page of game ``pk`` is kept this minute. The user is part of
    it (a seat sees its own secrets), so is the CSRF secret (the page embeds a token)."""
    # What was asked for, as asked: the same words always make the same page.
    steps, focus = request.GET.get("turn"), request.GET.get("focus")
    htmx = request.htmx  # type: ignore[attr-defined]  # django_htmx's middleware sets it
    region = bool(htmx) and not htmx.history_restore_request
    parts = (pk, user_pk, secret, steps, focus, region, current_minute())
    return "game-page:" + hashlib.sha256(repr(parts).encode()).hexdigest()


def current_minute() -> int:
    """A page's countdowns tick: a page is kept for the minute it was rendered in."""
    return int(timezone.now().timestamp() // 60)


def auth_key(user_pk: Any) -> str:
    return f"game-page-auth:{user_pk}"


def preferences_key(user_pk: Any) -> str:
    return f"game-page-prefs:{user_pk}"


def cacheable_secret(request: HttpRequest) -> str | None:
    """The CSRF secret the page's token belongs to, when this request's page may be kept
    or served from the cache: the cache is on, the browser has a CSRF cookie, and no
    flash message waits to be shown."""
    if not getattr(settings, "GAME_PAGE_CACHE_SECONDS", 0):
        return None
    secret = request.META.get("CSRF_COOKIE")
    if not secret or len(messages.get_messages(request)):
        return None
    return str(secret)


# --- What a viewer is: published on every save, filled by the view -----------------------


def _digest(session_hash: str) -> str:
    return hashlib.sha256(session_hash.encode()).hexdigest()


def _auth_record(user: Any) -> str:
    """What a valid session of this user carries, hashed; "" when none is valid."""
    return _digest(user.get_session_auth_hash()) if getattr(user, "is_active", True) else ""


def preferences_of(player: Player | None) -> tuple[str, str]:
    """The player's language and time zone ("" when the request's, or the site's, apply)."""
    return (player.language or "", player.time_zone or "") if player is not None else ("", "")


@lru_cache(maxsize=1024)
def zone_name(name: str) -> str:
    """The zone ``games.middleware.PlayerPreferencesMiddleware`` activates for this name."""
    try:
        return str(zoneinfo.ZoneInfo(name)) if name else timezone.get_default_timezone_name()
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return timezone.get_default_timezone_name()


def remember_viewer(user: Any) -> None:
    """The records of a user loaded from the database, unless newer ones are there."""
    if getattr(user, "is_authenticated", False):
        player = getattr(user, "player", None)
        cache.add(auth_key(user.pk), _auth_record(user), VIEWER_SECONDS)
        cache.add(preferences_key(user.pk), preferences_of(player), VIEWER_SECONDS)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_page_auth")
def _publish_auth(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if not raw:
        cache.set(auth_key(instance.pk), _auth_record(instance), VIEWER_SECONDS)


@receiver(post_save, sender=Player, dispatch_uid="games_page_preferences")
def _publish_preferences(sender: Any, instance: Player, raw: bool = False, **kw: Any) -> None:
    if not raw:
        cache.set(preferences_key(instance.user_id), preferences_of(instance), VIEWER_SECONDS)


@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_page_forget")
@receiver(post_delete, sender=Player, dispatch_uid="games_page_forget_player")
def _forget_viewer(sender: Any, instance: Any, **kwargs: Any) -> None:
    user_pk = instance.user_id if isinstance(instance, Player) else instance.pk
    cache.delete_many([auth_key(user_pk), preferences_key(user_pk)])


# --- Storing and serving ------------------------------------------------------------------


def viewer_now() -> tuple[str, str]:
    """The language and time zone active for this request (the view's)."""
    return translation.get_language(), timezone.get_current_timezone_name()


def store(key: str, version: int, language: str, zone: str, content: bytes) -> None:
    """Keep a page rendered at ``version`` in this language and zone, once the response
    has gone (``games.keptafter``): the viewer's next request finds it."""
    value: Stored = (version, language, zone, content)
    keptafter.keep(key, value, settings.GAME_PAGE_CACHE_SECONDS)


def served(stored: Any, version: Any, language: str, zone: str) -> HttpResponse | None:
    """The stored page as a response, when it was rendered for this version, language
    and zone; else None."""
    if not isinstance(stored, tuple) or len(stored) != 4 or version is None:
        return None
    if stored[:3] != (version, language, zone):
        return None
    response = HttpResponse(stored[3])
    patch_vary_headers(response, ("HX-Request",))
    return response


def lookup(key: str, pk: int, language: str, zone: str) -> HttpResponse | None:
    """The view's lookup, for a viewer it loaded: the version read from the database when
    the cache has none (``games.pollcache.current_version``)."""
    return served(cache.get(key), current_version(pk), language, zone)


def _session_viewer(request: HttpRequest) -> tuple[bool, Any, str]:
    """(usable, user pk or None, the session's password hash) from the session alone."""
    session = request.session
    raw_pk = session.get(SESSION_KEY)
    if raw_pk is None:
        return True, None, ""
    session_hash = session.get(HASH_SESSION_KEY)
    if session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False, None, ""
    if not isinstance(session_hash, str) or not session_hash:
        return False, None, ""
    try:
        user_pk = get_user_model()._meta.pk.to_python(raw_pk)
    except ValidationError:
        return False, None, ""
    return True, user_pk, session_hash


def quick_response(request: HttpRequest, pk: int) -> HttpResponse | None:
    """The page from the cache without the database, or None when the view must answer."""
    secret = cacheable_secret(request)
    if secret is None:
        return None
    usable, user_pk, session_hash = _session_viewer(request)
    if not usable:
        return None
    key = page_key(request, pk, user_pk, secret)
    wanted = [key, version_key(pk)]
    if user_pk is not None:
        wanted += [auth_key(user_pk), preferences_key(user_pk)]
    found = cache.get_many(wanted)
    if key not in found:
        return None
    language, zone = translation.get_language(), timezone.get_default_timezone_name()
    if user_pk is not None:
        record, prefs = found.get(auth_key(user_pk)), found.get(preferences_key(user_pk))
        if not isinstance(record, str) or not record:
            return None  # not known, or the user may not sign in
        if not constant_time_compare(record, _digest(session_hash)):
            return None  # the password changed since this session began
        if not isinstance(prefs, tuple) or len(prefs) != 2:
            return None
        language, zone = prefs[0] or language, zone_name(prefs[1])
    response = served(found[key], found.get(version_key(pk)), language, zone)
    if response is not None and language != translation.get_language():
        translation.activate(language)  # LocaleMiddleware names it in Content-Language
        request.LANGUAGE_CODE = language
    return response


class QuickPageMiddleware(GameGetMiddleware):
    """A GET of a game page answered from the cache, before the user is loaded."""

    url_name = "games:detail"

    def quick(self, request: HttpRequest, pk: int) -> HttpResponse | None:
        return quick_response(request, pk)
