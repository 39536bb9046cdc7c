"""``{% analysis_panel %}`` (the replay), ``{% hint_box %}`` (the game page) and
``{% hint_uses %}`` (who took hints: the game page, its end and the replay): each page
includes one line, and the tag finds the game, the step and the reader in its context."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string

from games import drawings

from ..hints import seat_hints
from ..panel import hint_context, panel_context

register = template.Library()


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def analysis_panel(context: Any) -> dict[str, Any]:
    request = context["request"]
    number = context.get("number")
    return {**panel_context(context["game"], request.user, number), "request": request}


@register.simple_tag(takes_context=True)
def hint_box(context: Any) -> str:
    """Nothing at all where no hint is offered and none was taken (most pages: rated and
    event games, spectators): its templates are not drawn for an empty box. Else the box
    is drawn once per process for all it shows (``games.drawings``: the game, whether the
    button is offered, the hints each seat took; the language), with the page's token."""
    shown = hint_context(context["game"], context["request"].user)
    if not shown["offered"] and not shown["hint_uses"]:
        return ""
    token = context.get("csrf_token")

    def draw(hole: object) -> str:
        return render_to_string("analysis/_hint_page.html", {**shown, "csrf_token": hole})

    if not token:  # no form token to put in a hole: drawn as it is, without one
        return draw(token)
    uses = [(use.position, use.name, use.count) for use in shown["hint_uses"]]
    key = drawings.key_of("hint-box", shown["game"].pk, shown["offered"], uses)
    return drawings.kept(key, draw, str(token))


@register.inclusion_tag("analysis/_hint_uses.html", takes_context=True)
def hint_uses(context: Any) -> dict[str, Any]:
    return {"hint_uses": seat_hints(context["game"])}
