"""``{% link 'games:detail' game.pk %}``: ``{% url %}`` for positional arguments, reversed
once per process (``games.links``); ``{% link ... as name %}`` keeps it in the context."""

from __future__ import annotations

from django import template

from .. import links

register = template.Library()


@register.simple_tag
def link(name: str, *args: object) -> str:
    return links.url(name, *args)
