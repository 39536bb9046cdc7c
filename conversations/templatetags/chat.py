"""``{% game_chat %}``: the chat panel of the game page (the page's view knows nothing of it).

The panel is drawn once per process for all it shows (``games.drawings``): a game page is
opened far more often than its chat or its readers' choices change, and the panel's
template (its forms, the lines' actions, a dozen translations) was a tenth of the page."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from games import drawings
from tournaments.models import Club

from .. import access, places, reading
from ..models import Message
from ..views import panel_context

NEWS = 3  # announcements shown on the club's page

register = template.Library()


@register.simple_tag(takes_context=True)
def game_chat(context: template.Context) -> SafeString:
    request = context["request"]
    user = request.user
    place = places.for_game(user, context["game"])
    panel = panel_context(request, place)
    # Everything the panel's templates read: the place's own facts (not its messages'
    # query: the lines shown are in ``panel``), whether the reader is signed in, and the
    # rest of ``panel`` (lines, stamp, time zone, mail choice, the blocked players).
    facts = (
        place.key, place.dom_id, place.title, place.may_read, place.may_write,
        place.may_hide, place.panel_url, place.post_url, place.game is not None,
        place.channel, place.poll, user.is_authenticated,
        [(name, value) for name, value in sorted(panel.items()) if name != "place"],
    )  # fmt: skip

    def draw(token: str) -> str:
        drawn = {**panel, "user": user, "csrf_token": token}
        return render_to_string("conversations/_panel.html", drawn)

    return drawings.kept(
        drawings.key_of("game-chat", facts), draw, str(context.get("csrf_token") or "")
    )


@register.simple_tag(takes_context=True)
def club_announcements(context: template.Context, club: Club) -> list[reading.Line]:
    """The club's latest announcements the viewer may read (newest three), for its page."""
    user = context["request"].user
    if not access.may_read_club(user, club, Message.Channel.ANNOUNCEMENTS):
        return []
    return reading.lines(reading.club_messages(club.pk, Message.Channel.ANNOUNCEMENTS), user)[
        -NEWS:
    ]
