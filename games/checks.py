"""System checks for a deployment of several web processes (``manage.py check --deploy``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

LOCAL_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


@register(Tags.caches, deploy=True)
def shared_cache(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """Rate limits (moves, logins) and the page cache are kept in the cache: one that only
    this process sees lets a player past the move limit on another process."""
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend not in LOCAL_CACHES:
        return []
    return [
        Warning(
            "The cache is this process's memory: with more than one web process (gunicorn "
            "workers, several machines) each keeps its own rate limits and page cache.",
            hint="Set CACHE_URL to a Redis that every web process shares (redis://host:6379/1).",
            id="evergreen.W001",
        )
    ]
