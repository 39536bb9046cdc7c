"""Authentication backend that loads the player profile with the user (one query, not two),
or takes both from the shared cache (``games.usercache``; the password hash the session
check compares is then read alone, as a deferred field)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError

from . import usercache


class PlayerBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        try:
            user_id = get_user_model()._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        user = usercache.users([user_id]).get(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
