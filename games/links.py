"""The site's addresses reversed once per process: ``reverse()`` walks the URL patterns
and costs ~40 µs, and a game page asks for a dozen (its header, the game's links, the
poller, the hint box, the chat). ``url`` (and ``{% link %}`` in templates,
``games/templatetags/links.py``) answers the same as ``reverse`` and ``{% url %}``, kept
under everything the answer depends on: the name and arguments, the URL configuration,
the script prefix and the language (for language-prefixed patterns). ``static_url`` (and
``{% asset %}``) is ``static()`` likewise, ``{% static %}`` once per process for each file:
~10 µs each (the installed apps asked, the manifest, the URL joined), and every page
links half a dozen. A changed setting (tests change them) forgets them all.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
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


def static_url(path: str) -> str:
    """``static(path)``, asked once per process for each file: the static files' manifest
    is read once when the process starts and never changes under it."""
    # DEBUG: a manifest storage answers the unhashed name (tests turn it on and off).
    return _static(path, settings.DEBUG)


@lru_cache(maxsize=256)  # the site's own files, a few dozen
def _static(path: str, debug: bool) -> str:
    return static(path)


@receiver(setting_changed)
def _forget(**kwargs: object) -> None:
    _reversed.cache_clear()
    _static.cache_clear()
