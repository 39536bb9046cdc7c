"""Every user has a Player profile: it is created with the user."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_signed_up
from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from .models import Player

# Sent once the transaction that ended a game has committed (inline when Celery runs
# eagerly), with ``game_id`` and ``status`` ("finished" or "aborted"). Receivers must be
# idempotent and cheap: they enqueue Celery tasks (ratings, the next event round) that
# re-read the game. A beat task is each receiver's safety net for a lost message.
game_ended = Signal()

# Sent (the same way) after a seat ran out of time and its timeout policy was applied,
# with ``game_id``, ``position`` and ``outcome`` ("timed out" or "handed to bot").
seat_timed_out = Signal()


@receiver(user_signed_up, dispatch_uid="games_language_at_sign_up")
def keep_the_sign_up_language(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """A new player keeps the language the site spoke to them when they signed up (their
    browser's Accept-Language or the switcher's cookie), until they choose another."""
    language = getattr(request, "LANGUAGE_CODE", None)
    if language in dict(settings.LANGUAGES):
        player = Player.objects.filter(user=user).first()
        if player is not None:
            # Saved (not update()): its post_save tells the cached game pages and API tokens.
            player.language = language
            player.save(update_fields=["language"])


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_create_player")
def create_player(
    sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        Player.for_user(instance)
