"""Token authentication for the API in one plain query.

DRF's ``TokenAuthentication`` builds the same join through the ORM's compiler on every
request; this reads the token's user with one prepared statement (the API answers a
bot's move in a few milliseconds, and compiling that query was a fifth of them).
Behaviour is DRF's: unknown key or inactive user → 401 with DRF's messages.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        user_model = get_user_model()
        query = (
            f"SELECT u.* FROM {user_model._meta.db_table} u "
            f"JOIN {Token._meta.db_table} t ON t.user_id = u.{user_model._meta.pk.column} "
            "WHERE t.key = %s"
        )
        user = next(iter(user_model._default_manager.raw(query, [key])), None)
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return user, Token(key=key, user=user)
