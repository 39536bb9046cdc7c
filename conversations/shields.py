"""Mute and block between players, read in one place.

Muting someone keeps their messages on my pages but out of my mails (no "new message"
mail, no lines of theirs in my "your move" mail or digest). Blocking also hides their
messages from me everywhere, stops them from inviting me (a rematch is refused while two
of its people have blocked one another: ``games.rematches``) and keeps every mail that
comes from them away from me (chat, rematch offers, club announcements).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.db.models.signals import post_save
from django.dispatch import receiver

from games import fragments

from .models import Shield


def blocked_ids(user: Any) -> QuerySet[Shield, int]:
    """The players ``user`` blocked (a subquery: no query of its own)."""
    return Shield.objects.filter(owner=user, kind=Shield.Kind.BLOCK).values_list(
        "other_id", flat=True
    )


def blockers_of(user: Any) -> QuerySet[Shield, int]:
    """The players who blocked ``user`` (a subquery): nothing of ``user``'s reaches them."""
    return Shield.objects.filter(other=user, kind=Shield.Kind.BLOCK).values_list(
        "owner_id", flat=True
    )


def silenced_ids(user: Any) -> QuerySet[Shield, int]:
    """The players whose messages never reach ``user``'s mails: muted or blocked."""
    return Shield.objects.filter(owner=user).values_list("other_id", flat=True)


def shield_of(owner: Any, other: Any) -> str | None:
    """ "mute", "block" or None: what ``owner`` chose about ``other``."""
    if not getattr(owner, "is_authenticated", False):
        return None
    return Shield.objects.filter(owner=owner, other=other).values_list("kind", flat=True).first()


def choices_of(user: Any) -> tuple[dict[int, str], list[dict[str, Any]], bool]:
    """What ``user`` chose, in one query: mute or block per player, the players they
    blocked (id and name), and whether they want the "new message" mail.

    Plain joins (a row per shield, one with no shield when there is none): Django builds
    this query in half the time of one made of subqueries, and the game page asks it on
    every view."""
    if not getattr(user, "is_authenticated", False):
        return {}, [], False
    rows = (
        get_user_model()
        .objects.filter(pk=user.pk)
        .order_by("shields__created_at")
        .values_list(
            "chat_mail__new_messages",
            "shields__other_id",
            "shields__kind",
            "shields__other__player__display_name",
        )
    )
    mail = False
    shields: dict[int, str] = {}
    blocked: list[dict[str, Any]] = []
    for wants_mail, other, kind, name in rows:
        mail = bool(wants_mail)
        if other is None:
            continue
        shields[other] = kind
        if kind == Shield.Kind.BLOCK:
            blocked.append({"id": other, "name": name or "?"})
    return shields, blocked, mail


def choices_name(user_id: int) -> str:
    """What ``kept_choices_of`` keeps a user's choices under (``games.fragments.stamped``):
    the user's own, never another's."""
    return f"chat-choices:{user_id}"


def kept_choices_of(user: Any) -> tuple[dict[int, str], list[dict[str, Any]], bool]:
    """``choices_of``, kept in the cache for the game page's chat (asked on every view)
    until ``conversations.services`` changes one of them (mute, block, the mail)."""
    if not getattr(user, "is_authenticated", False):
        return choices_of(user)
    return fragments.stamped(choices_name(user.pk), lambda: choices_of(user), owner=user)


def names_read_with_user(user_pk: Any) -> list[str]:
    """The user's choices, read in the round trip of a signed-in request's user
    (``games.usercache.read_with_user``): the game page's chat asks for them every time."""
    return [choices_name(user_pk)]


# What a user who never chose anything has: no shield, no "new message" mail.
NO_CHOICES: tuple[dict[int, str], list[dict[str, Any]], bool] = ({}, [], False)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="conversations_no_choices")
def _new_user_chose_nothing(
    sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    # A user just made has no shield and no mail choice (both name the user, who did not
    # exist before): their first game page finds that without a query. A choice made in
    # the same transaction restamps after this (on_commit keeps the order).
    if created and not raw:
        fragments.known_on_commit(choices_name(instance.pk), NO_CHOICES)


def may_invite(inviter: Any, invitee: Any) -> bool:
    """Whether ``inviter`` may invite ``invitee`` (to a game, a rematch, a club): not once
    ``invitee`` has blocked them."""
    return not Shield.objects.filter(owner=invitee, other=inviter, kind=Shield.Kind.BLOCK).exists()


def blocked_pairs(user_ids: Collection[int]) -> list[tuple[int, int]]:
    """The (blocker, blocked) pairs among ``user_ids``, in one query: people who would sit
    at one table only against one's will."""
    return list(
        Shield.objects.filter(
            owner_id__in=user_ids, other_id__in=user_ids, kind=Shield.Kind.BLOCK
        ).values_list("owner_id", "other_id")
    )
