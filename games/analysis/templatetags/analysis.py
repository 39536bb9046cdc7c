"""``{% analysis_panel %}`` (the replay) and ``{% hint_box %}`` (the game page): each page
includes one line, and the panel finds the game, the step and the reader in its context."""

from __future__ import annotations

from typing import Any

from django import template

from ..panel import hint_context, panel_context

register = template.Library()


@register.inclusion_tag("analysis/_panel.html", takes_context=True)
def analysis_panel(context: Any) -> dict[str, Any]:
    request = context["request"]
    number = context.get("number")
    return {**panel_context(context["game"], request.user, number), "request": request}


@register.inclusion_tag("analysis/_hint_box.html", takes_context=True)
def hint_box(context: Any) -> dict[str, Any]:
    request = context["request"]
    return {**hint_context(context["game"], request.user), "request": request}
