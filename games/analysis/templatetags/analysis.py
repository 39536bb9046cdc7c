"""``{% analysis_panel %}`` (the replay), ``{% hint_box %}`` (the game page) and
``{% hint_uses %}`` (who took hints: the game page, its end and the replay): each page
includes one line, and the tag finds the game, the step and the reader in its context."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import render_to_string

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
    event games, spectators): its templates are not drawn for an empty box."""
    request = context["request"]
    shown = hint_context(context["game"], request.user)
    if not shown["offered"] and not shown["hint_uses"]:
        return ""
    drawn = {**shown, "request": request, "csrf_token": context.get("csrf_token")}
    return render_to_string("analysis/_hint_page.html", drawn)


@register.inclusion_tag("analysis/_hint_uses.html", takes_context=True)
def hint_uses(context: Any) -> dict[str, Any]:
    return {"hint_uses": seat_hints(context["game"])}
