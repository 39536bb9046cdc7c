"""A club's announcements by mail: each member (the author aside) gets one mail per
announcement through the outbox (``games.outbox``: kind "announcement", their e-mail
preferences and quiet hours, recorded once under its key), never someone who blocked the
author. The mail carries the announcement as written when it was posted."""

from __future__ import annotations

from django.urls import reverse

from games.models import Notification, Player
from games.outbox import ANNOUNCEMENT, draft, record
from games.site import site_url
from tournaments.models import Membership

from .models import Message
from .shields import blockers_of


def key(message: Message, user_id: int) -> str:
    return f"announce:{message.pk}:{user_id}"


def mail_members(message: Message) -> list[Notification]:
    """Record the mail of ``message`` (a club's announcement) for each member; returns
    those recorded (a repeated call records nothing new)."""
    if message.channel != Message.Channel.ANNOUNCEMENTS or message.club is None:
        return []
    club = message.club
    author = message.author
    context = {
        "club": club.name,
        "club_url": site_url(reverse("tournaments:club", args=[club.slug])),
        "author": Player.objects.filter(user=author).values_list("display_name", flat=True).first()
        or "?",
        "text": message.text,
        "message_id": message.pk,
    }
    members = (
        Membership.objects.filter(club=club)
        .exclude(user=author)
        .exclude(user__in=blockers_of(author))
        .select_related("user__player")
    )
    # All recorded together: two queries however many members (``games.outbox.record``).
    return record(
        draft(m.user, None, ANNOUNCEMENT, key(message, m.user.pk), context) for m in members
    )
