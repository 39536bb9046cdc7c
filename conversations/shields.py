"""Mute and block between players, read in one place.

Muting someone keeps their messages on my pages but out of my mails (no "new message"
mail, no lines of theirs in my "your move" mail or digest). Blocking also hides their
messages from me everywhere and stops them from inviting me.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .models import Shield


def blocked_ids(user: Any) -> QuerySet[Shield, int]:
    """The players ``user`` blocked (a subquery: no query of its own)."""
    return Shield.objects.filter(owner=user, kind=Shield.Kind.BLOCK).values_list(
        "other_id", flat=True
    )


def silenced_ids(user: Any) -> QuerySet[Shield, int]:
    """The players whose messages never reach ``user``'s mails: muted or blocked."""
    return Shield.objects.filter(owner=user).values_list("other_id", flat=True)


def shield_of(owner: Any, other: Any) -> str | None:
    """ "mute", "block" or None: what ``owner`` chose about ``other``."""
    if not getattr(owner, "is_authenticated", False):
        return None
    return Shield.objects.filter(owner=owner, other=other).values_list("kind", flat=True).first()


def may_invite(inviter: Any, invitee: Any) -> bool:
    """Whether ``inviter`` may invite ``invitee`` (to a game, a rematch, a club): not once
    ``invitee`` has blocked them."""
    return not Shield.objects.filter(owner=invitee, other=inviter, kind=Shield.Kind.BLOCK).exists()
