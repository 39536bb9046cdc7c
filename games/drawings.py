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

``page_token`` is the request's one masked CSRF token: Django masks a new one on every
``get_token`` (a new random string each), and the game page needs one for its template
and its kind's forms; any mask of the session's secret is as good as another.

Unlike ``games.fragments`` (the Redis cache, shared by the web processes and kept per
game version), this costs no round trip: it suits a part that is cheap to key and
costly to draw, and alike for many pages.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

# Where a kept drawing has each page's CSRF token: plain words that no escaped text of a
# drawing (names, messages: their ``<`` and quotes escaped) can be confused with.
TOKEN_HOLE = "page-csrf-token-here"
# Where ``page_token`` keeps the request's masked token (an attribute of our own).
_PAGE_TOKEN = "evergreen_page_csrf_token"
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


def alike(template: str, context: Callable[[], Mapping[str, Any]]) -> SafeString:
    """``template`` drawn with ``context()`` once per process, language and URL
    configuration (``key_of``): a part alike on every page that shows it, a game's legend."""
    return kept(key_of(template), lambda _hole: render_to_string(template, context()), "")


def kept(
    key: str, draw: Callable[[str], str], token: str, fills: Mapping[str, str] | None = None
) -> SafeString:
    """``draw(TOKEN_HOLE)``, drawn once per process for ``key`` (``key_of``), with this
    page's CSRF ``token`` in its holes (letters and digits: nothing to escape), then each
    hole of ``fills`` (plain words the drawing was drawn with) filled with its text, which
    the caller escaped (after the token: a text naming ``TOKEN_HOLE`` stays as it is)."""
    drawing = _kept.get(key)
    if drawing is None:
        if len(_kept) >= MOST:
            _kept.clear()
        drawing = _kept[key] = draw(TOKEN_HOLE)
    filled = drawing.replace(TOKEN_HOLE, token)
    for hole, text in (fills or {}).items():
        filled = filled.replace(hole, text)
    return mark_safe(filled)  # escaped by its template, the fills by the caller


def page_token(request: HttpRequest) -> str:
    """The request's masked CSRF token, masked once (``get_token``, which also asks for the
    cookie to be set) however many parts of the page ask."""
    token = getattr(request, _PAGE_TOKEN, None)
    if token is None:
        token = get_token(request)
        setattr(request, _PAGE_TOKEN, token)
    return str(token)
