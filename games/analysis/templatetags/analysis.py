"""``{% analysis_panel %}`` (the replay), ``{% hint_box %}`` (the game page) and
``{% hint_uses %}`` (who took hints: the game page, its end and the replay): each page
includes one line, and the tag finds the game, the step and the reader in its context."""

from __future__ import annotations

from typing import Any

from django import template

from ..hints import seat_hints
from ..panel import hint_context, panel_context

register = template.Library()


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def analysis_panel(context: Any) -> dict[str, Any]:
    request = context["request"]
    number = context.get("number")
    return {**panel_context(context["game"], request.user, number), "request": request}


@register.inclusion_tag("analysis/_hint_page.html", takes_context=True)
def hint_box(context: Any) -> dict[str, Any]:
    request = context["request"]
    return {**hint_context(context["game"], request.user), "request": request}


@register.inclusion_tag("analysis/_hint_uses.html", takes_context=True)
def hint_uses(context: Any) -> dict[str, Any]:
    return {"hint_uses": seat_hints(context["game"])}
