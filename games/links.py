"""The site's addresses reversed once per process: ``reverse()`` walks the URL patterns
and costs ~40 µs, and a game page asks for a dozen (its header, the game's links, the
poller, the hint box, the chat). ``url`` (and ``{% link %}`` in templates,
``games/templatetags/links.py``) answers the same as ``reverse`` and ``{% url %}``, kept
under everything the answer depends on: the name and arguments, the URL configuration,
the script prefix and the language (for language-prefixed patterns). A changed setting
(tests change them) forgets them all.
"""

from __future__ import annotations

from functools import lru_cache

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language


def url(name: str, *args: object) -> str:
    """``reverse(name, args=args)``, reversed once per process for each language."""
    return _reversed(name, args, get_urlconf(), get_script_prefix(), get_language())


@lru_cache(maxsize=4096)  # a few names for every game viewed lately
def _reversed(
    name: str, args: tuple[object, ...], urlconf: str | None, prefix: str, language: str | None
) -> str:
    return reverse(name, args=args, urlconf=urlconf)


@receiver(setting_changed)
def _forget(**kwargs: object) -> None:
    _reversed.cache_clear()
