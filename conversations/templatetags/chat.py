"""``{% game_chat %}``: the chat panel of the game page (the page's view knows nothing of it)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Club

from .. import access, places, reading
from ..models import Message
from ..views import panel_context

NEWS = 3  # announcements shown on the club's page

register = template.Library()


@register.inclusion_tag("conversations/_panel.html", takes_context=True)
def game_chat(context: template.Context) -> dict[str, Any]:
    request = context["request"]
    place = places.for_game(request.user, context["game"])
    return {
        **panel_context(request, place),
        "request": request,
        "user": request.user,
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag(takes_context=True)
def club_announcements(context: template.Context, club: Club) -> list[reading.Line]:
    """The club's latest announcements the viewer may read (newest three), for its page."""
    user = context["request"].user
    if not access.may_read_club(user, club, Message.Channel.ANNOUNCEMENTS):
        return []
    return reading.lines(reading.club_messages(club.pk, Message.Channel.ANNOUNCEMENTS), user)[
        -NEWS:
    ]
