"""Authentication backend that loads the player profile with the user (one query, not two)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend


class PlayerBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        user_model = get_user_model()
        try:
            user = user_model._default_manager.select_related("player").get(pk=user_id)
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
