"""``{% site_links %}`` and ``{% language_buttons %}``: the parts of every page's header
that are the same for every reader of one language (the links: signed in or not), drawn
once per process rather than on every page, where they cost a dozen ``reverse()`` and as
many translations. The forms around them (log out, the language switch) carry the
request's CSRF token and address, and are drawn with each page.

A drawing is kept under everything it was drawn from: the language, signed in or not,
the URL configuration and script prefix the links were reversed with; a changed setting
(tests change them) forgets them all.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

_drawn: dict[tuple[object, ...], SafeString] = {}


@receiver(setting_changed)
def _forget(**kwargs: object) -> None:
    _drawn.clear()


def _kept(where: tuple[object, ...], name: str, context: dict[str, Any]) -> SafeString:
    key = (name, get_language() or "", get_urlconf(), get_script_prefix(), *where)
    found = _drawn.get(key)
    if found is None:
        found = _drawn[key] = mark_safe(render_to_string(name, context))  # drawn there
    return found


@register.simple_tag(takes_context=True)
def site_links(context: template.Context) -> SafeString:
    """The site's links in the header, for a reader signed in or not."""
    user = context.get("user")
    signed_in = bool(user is not None and user.is_authenticated)
    return _kept((signed_in,), "_site_links.html", {"signed_in": signed_in})


@register.simple_tag
def language_buttons() -> SafeString:
    """A button per language of the site, the reader's marked current."""
    return _kept((), "_language_buttons.html", {})
