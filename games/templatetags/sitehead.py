"""``{% site_head %}``: the head of every page beyond its title: the description, the
favicon (SVG, with PNG fallbacks) and what a shared link shows (Open Graph, Twitter's
card), in the reader's language.

One tag rather than two dozen template nodes: every page pays for them, and the game
page's count of rendered nodes is watched (``tests/games/test_play_svg.py``).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

register = template.Library()


def description() -> str:
    return _(
        "Play the board game Evergreen by correspondence: draft Biome cards, grow forests "
        "in the light of a moving Sun, with friends, clubs and leagues, at your own pace."
    )


@register.simple_tag(takes_context=True)
def site_head(context: dict[str, Any]) -> SafeString:
    request = context.get("request")
    here = request.build_absolute_uri() if request is not None else ""
    image = static("img/og-preview.png")
    if request is not None:
        image = request.build_absolute_uri(image)
    return format_html(
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
        title=_("Evergreen, by correspondence"),
        here=here,
        image=image,
        alt=_("A planet of Evergreen: biomes, trees and lakes in the light of the Sun"),
        language=get_language() or "en",
    )
