"""``{% site_header %}``: every page's header, the same for every reader of one language,
signed in or not, drawn once per process rather than on every page, where its links,
translations and forms cost some hundred microseconds (the language buttons included:
they need no cache of their own). The forms in it (log out, the language switch) carry
the request's CSRF token and the language switch the page's address: both are holes of
the drawing (``games.drawings``) that each page fills with its own.

A drawing is kept under everything it was drawn from (``drawings.key_of``): the language,
signed in or not, the URL configuration and script prefix the links were reversed with; a
changed setting (tests change them) forgets them all.
"""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from .. import drawings

register = template.Library()


# Where the page's address goes in a drawn header (no escaped address or translation
# holds these words).
PATH_HOLE = "page-address-here"


@register.simple_tag(takes_context=True)
def site_header(context: template.Context) -> SafeString:
    """The skip link and the header: the site's links, the log-out form for a reader
    signed in, the language switch, with this page's CSRF token and address."""
    user = context.get("user")
    signed_in = bool(user is not None and user.is_authenticated)
    request = context.get("request")
    path = request.get_full_path() if request is not None else ""
    token = context.get("csrf_token")

    def draw(hole: object, next_path: str = PATH_HOLE) -> str:
        drawn = {"signed_in": signed_in, "csrf_token": hole, "next_path": next_path}
        return render_to_string("_site_header.html", drawn).rstrip("\n")

    if not token or token == "NOTPROVIDED":  # a form without a token: drawn as it is
        return mark_safe(draw(token, path))  # escaped by its template
    key = drawings.key_of("site-header", signed_in)
    return drawings.kept(key, draw, str(token), {PATH_HOLE: conditional_escape(path)})
