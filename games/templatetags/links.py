"""``{% link 'games:detail' game.pk %}``: ``{% url %}`` for positional arguments, reversed
once per process (``games.links``); ``{% link ... as name %}`` keeps it in the context.
``{% asset 'css/site.css' %}``: ``{% static %}``, asked once per process (``games.links``).
``{% game_links %}``: the game page's links, drawn once per process."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from .. import drawings, links

register = template.Library()


@register.simple_tag
def link(name: str, *args: object) -> str:
    return links.url(name, *args)


@register.simple_tag
def asset(path: str) -> str:
    return links.static_url(path)


@register.simple_tag(takes_context=True)
def game_links(context: template.Context, oob: bool = False) -> SafeString:
    """The game's links in the page's header (``games/_game_links.html``), drawn once per
    process for the game, whether it has started and whether htmx swaps them out of band:
    all they show (``games.drawings``; nothing in them is the reader's)."""
    game = context["game"]
    started = game.state is not None

    def draw(token: str) -> str:
        return render_to_string(
            "games/_game_links.html", {"game": game, "started": started, "oob": oob}
        )

    return drawings.kept(drawings.key_of("game-links", game.pk, started, oob), draw, "")
