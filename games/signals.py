"""Every user has a Player profile: it is created with the user."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import Player


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_create_player")
def create_player(
    sender: Any, instance: Any, created: bool, raw: bool = False, **kwargs: Any
) -> None:
    if created and not raw:
        Player.for_user(instance)
