"""The poll that finds nothing new, answered from the cache before the rest of the site.

An open game page asks ``games:poll`` every 15 s with the version it shows; nearly every
answer is 204 (nothing changed). That answer depends on the game's version alone, so
``QuickPollMiddleware``, near the top of ``MIDDLEWARE``, gives it from the cache (the key
``game-version:<pk>``) without a session, a user, a translation or PostgreSQL. Anything
else (another version, an unknown game, a cache that misses) goes on to the view
(``games.views.play.poll``), which renders the new region or answers 404 as before.

The cached version must never equal a version the game has left, or a page would wait
for nothing. Every write of a game's version publishes the new one at once (a move's
write itself, ``publish``; any other save through ``post_save``), inside the write's
transaction: the game row is locked there, so two moves publish in
the order they commit, and a transaction rolled back leaves a version that no page
shows (those polls go on to the view: slower, never wrong). A miss is filled from the
database with ``add``, which never overwrites a published version. What remains is a
write the cache dropped (Redis unreachable at that moment: ``evergreen.tolerant_cache``):
``TTL_SECONDS`` bounds how long such a page can wait.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from .models import Game

TTL_SECONDS = 60
VERSION = re.compile(r"[0-9]{1,18}")


def version_key(pk: int) -> str:
    """Where the game's version is published (read by ``games.pagecache`` too)."""
    return f"game-version:{pk}"


def cached_version(pk: int) -> int | None:
    """The game's version as last published or read, or None (not cached, no cache)."""
    value = cache.get(version_key(pk))
    return value if isinstance(value, int) else None


def current_version(pk: int) -> int | None:
    """The game's version: the cache's, else the database's (then remembered); None when
    there is no such game."""
    version = cached_version(pk)
    if version is None:
        version = Game.objects.filter(pk=pk).values_list("version", flat=True).first()
        if version is not None:
            cache.add(version_key(pk), version, TTL_SECONDS)  # never over a published version
    return version


@receiver(post_save, sender=Game, dispatch_uid="games_publish_poll_version")
def publish_version(sender: Any, instance: Game, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is None or "version" in update_fields:
        publish(instance)


def publish(game: Game) -> None:
    """Publish the game's version just written (the moves' writes call it themselves:
    they send no ``post_save``, ``games.services.onetrip``)."""
    cache.set(version_key(game.pk), game.version, TTL_SECONDS)


@receiver(post_delete, sender=Game, dispatch_uid="games_forget_poll_version")
def forget_version(sender: Any, instance: Game, **kwargs: Any) -> None:
    cache.delete(version_key(instance.pk))


class GameGetMiddleware(ABC):
    """A GET of one game's address (the URL named ``url_name``, with the game's id),
    answered early by ``quick`` when it can; every other request passes through."""

    url_name = ""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.path: re.Pattern[str] | None = None

    def game_path(self) -> re.Pattern[str]:
        if self.path is None:  # the URLconf is loaded by the first request, not before
            example = reverse(self.url_name, args=[12345])
            self.path = re.compile(
                "^" + re.escape(example).replace("12345", r"([0-9]{1,18})") + "$"
            )
        return self.path

    @abstractmethod
    def quick(self, request: HttpRequest, pk: int) -> HttpResponse | None:
        """The answer without the rest of the site, or None to pass the request on."""

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "GET":
            match = self.game_path().match(request.path_info)
            if match:
                response = self.quick(request, int(match[1]))
                if response is not None:
                    return response
        return self.get_response(request)


class QuickPollMiddleware(GameGetMiddleware):
    """204 for a poll whose version is the game's; every other request passes through."""

    url_name = "games:poll"

    def quick(self, request: HttpRequest, pk: int) -> HttpResponse | None:
        shown = request.GET.get("version", "")
        # ASCII digits of a sane length only: int() refuses "²" and 4,301 digits.
        if VERSION.fullmatch(shown) and current_version(pk) == int(shown):
            response = HttpResponse(status=204)
            add_never_cache_headers(response)
            return response
        return None
