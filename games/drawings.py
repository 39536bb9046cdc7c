"""Parts of pages drawn once per process and kept under everything they were drawn from,
with a hole where each page puts its own CSRF token.

For a part whose drawing is a pure function of a few plain values (the chat panel of a
game: who may write, the lines shown, the reader's mail choice, the language and time
zone), the template engine's work is done once per process for each distinct set of
values, and every later page fills in its own token (never kept: a token drawn for one
session must never reach another). The key names *all* the part was drawn from, so
nothing stale can be found: a changed value is a new key. The memory is bounded (the
drawings are forgotten all at once past ``MOST``, as the site head's are), and a changed
setting (tests change them) forgets them too.

Unlike ``games.fragments`` (the Redis cache, shared by the web processes and kept per
game version), this costs no round trip: it suits a part that is cheap to key and
costly to draw, and alike for many pages.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

# Where a kept drawing has each page's CSRF token: plain words that no escaped text of a
# drawing (names, messages: their ``<`` and quotes escaped) can be confused with.
TOKEN_HOLE = "page-csrf-token-here"
# How many drawings a process keeps before it forgets them all (a few kB each).
MOST = 2048

_kept: dict[str, str] = {}


@receiver(setting_changed)
def _forget(**kwargs: object) -> None:
    _kept.clear()


def key_of(*drawn_from: object) -> str:
    """The key of a drawing made from ``drawn_from`` (plain values whose ``repr`` says all
    there is in them), the language and the URL configuration its links were reversed with."""
    named = repr((get_language() or "", get_urlconf(), get_script_prefix(), drawn_from))
    return hashlib.sha256(named.encode()).hexdigest()


def kept(key: str, draw: Callable[[str], str], token: str) -> SafeString:
    """``draw(TOKEN_HOLE)``, drawn once per process for ``key`` (``key_of``), with this
    page's CSRF ``token`` in its holes (letters and digits: nothing to escape)."""
    drawing = _kept.get(key)
    if drawing is None:
        if len(_kept) >= MOST:
            _kept.clear()
        drawing = _kept[key] = draw(TOKEN_HOLE)
    return mark_safe(drawing.replace(TOKEN_HOLE, token))  # escaped by its template
