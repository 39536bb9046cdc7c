"""``{% page_title %}``: the page's ``<title>`` from its ``title`` block, remembered for
``{% site_head %}``: the head of every page beyond its title: the description, the
favicon (SVG, with PNG fallbacks) and what a shared link shows (Open Graph, Twitter's
card, whose ``og:title`` is the page's own title), in the reader's language.

One tag rather than two dozen template nodes: every page pays for them, and the game
page's count of rendered nodes is watched (``tests/games/test_play_svg.py``).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import static
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

register = template.Library()

SITE = "Evergreen"


class PageTitleNode(template.Node):
    """Renders the ``title`` block inside it once: as ``<title>`` and, kept in the
    context, as the shared link's ``og:title`` (a block cannot be rendered twice)."""

    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        title = " ".join(self.nodelist.render(context).split())  # already escaped
        context["page_title"] = mark_safe(title)
        if title and title != SITE:
            return format_html("<title>{} · {}</title>", mark_safe(title), SITE)
        return format_html("<title>{}</title>", SITE)


@register.tag
def page_title(parser: Any, token: Any) -> PageTitleNode:
    nodelist = parser.parse(("endpage_title",))
    parser.delete_first_token()
    return PageTitleNode(nodelist)


def description() -> str:
    return _(
        "Play the board game Evergreen by correspondence: draft Biome cards, grow forests "
        "in the light of a moving Sun, with friends, clubs and leagues, at your own pace."
    )


def page_title_of(context: Any) -> str:
    """The page's own title (``{% page_title %}`` ran before), else the site's."""
    title = context.get("page_title")
    if not title or title == SITE:
        return _("Evergreen, by correspondence")
    return title  # type: ignore[no-any-return]  # the SafeString page_title made


# The head drawn but for the page's title and address, by language and origin (and the
# static files' storage, a setting): four static() lookups, two translations and a dozen
# escapes that every page made alike. Three pieces: before the title, between the title
# and the address, after the address.
_drawn: dict[tuple[str, str], tuple[str, str, str]] = {}
_DRAWN_MOST = 64  # languages by origins: a handful in production
_HOLE = "\x00"  # where the title and the address go (no escaped text holds it)


@receiver(setting_changed)
def _forget(**kwargs: object) -> None:
    _drawn.clear()


@register.simple_tag(takes_context=True)
def site_head(context: dict[str, Any]) -> SafeString:
    request = context.get("request")
    here = request.build_absolute_uri() if request is not None else ""
    origin = f"{request.scheme}://{request.get_host()}" if request is not None else ""
    where = (get_language() or "en", origin)
    pieces = _drawn.get(where)
    if pieces is None:
        if len(_drawn) >= _DRAWN_MOST:
            _drawn.clear()
        pieces = _drawn[where] = _head(request)
    before, between, after = pieces
    title = conditional_escape(page_title_of(context))
    return mark_safe(before + title + between + conditional_escape(here) + after)  # escaped


def _head(request: Any) -> tuple[str, str, str]:
    image = static("img/og-preview.png")
    if request is not None:
        image = request.build_absolute_uri(image)
    drawn = format_html(
        '<meta name="description" content="{description}">\n'
        '  <link rel="icon" href="{svg}" type="image/svg+xml">\n'
        '  <link rel="icon" href="{png}" type="image/png" sizes="32x32">\n'
        '  <link rel="apple-touch-icon" href="{apple}">\n'
        '  <meta property="og:type" content="website">\n'
        '  <meta property="og:site_name" content="Evergreen">\n'
        '  <meta property="og:title" content="{title}">\n'
        '  <meta property="og:description" content="{description}">\n'
        '  <meta property="og:url" content="{here}">\n'
        '  <meta property="og:image" content="{image}">\n'
        '  <meta property="og:image:width" content="1200">\n'
        '  <meta property="og:image:height" content="630">\n'
        '  <meta property="og:image:alt" content="{alt}">\n'
        '  <meta property="og:locale" content="{language}">\n'
        '  <meta name="twitter:card" content="summary_large_image">',
        description=description(),
        svg=static("img/favicon.svg"),
        png=static("img/favicon-32.png"),
        apple=static("img/apple-touch-icon.png"),
        title=mark_safe(_HOLE),
        here=mark_safe(_HOLE),
        image=image,
        alt=_("A planet of Evergreen: biomes, trees and lakes in the light of the Sun"),
        language=get_language() or "en",
    )
    before, between, after = drawn.split(_HOLE)
    return before, between, after
