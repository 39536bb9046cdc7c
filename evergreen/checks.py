"""Deployment checks of this site's own (``manage.py check --deploy``), beside Django's: sign-up
that tells no one about accounts; a cache that every web process shares."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register


@register(Tags.security, deploy=True)
def sign_up_tells_no_one_about_accounts(app_configs: Any, **kwargs: Any) -> list[Warning]:
    """allauth hides whether an address has an account only when every address is verified
    (the owner of a known address gets a mail instead of a second account)."""
    if settings.ACCOUNT_PREVENT_ENUMERATION and settings.ACCOUNT_EMAIL_VERIFICATION == "mandatory":
        return []
    return [
        Warning(
            "Signing up with a known address says that it has an account.",
            hint="Set ACCOUNT_EMAIL_VERIFICATION=mandatory (the default when DEBUG=0).",
            id="evergreen.W001",
        )
    ]


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
            id="evergreen.W002",
        )
    ]
