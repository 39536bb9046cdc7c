"""API tokens kept in the cache, so that an API request reads no row to know its user.

DRF's token check reads the token, its user and the user's player on every request: one
query and its ORM work, about 1.4 ms of the 12 ms of a turn submitted through the API
(``tests/benchmarks/turncost.py``), and as much of every poll of an API player. Here the
token's row is kept under a digest of its key (the key itself never names a cache entry)
together with its user and player as ``games.usercache`` keeps them: one cache read knows
the user (it took two round trips: the token's, then its user's). The entry is
forgotten, with the marks ``games.usercache`` uses, when the token is deleted (a token is
only ever created or deleted: its key is its primary key) and when its user or player is
saved, as the user's own entry is; the user's tokens are read for that (one small query
when a user or player changes, rare beside the requests). Kept while users are
(``USER_CACHE_SECONDS``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from .. import usercache
from ..models import Player

FIELDS = ("key", "user_id", "created")


def token_with_user(key: str) -> Token:
    """The token ``key`` with its user and the user's player loaded (raises
    ``Token.DoesNotExist``): from the cache when it is kept there, else from the rows."""
    if not usercache.keeping():
        # get(), not filter().first(): the key is the primary key, so no ORDER BY.
        return Token.objects.select_related("user__player").get(key=key)
    where = _cache_key(key)
    found = cache.get(where)
    if isinstance(found, dict):
        token = Token.from_db("default", FIELDS, found["token"])
        token.user = usercache.rebuilt(found["user"])
        return token
    token = Token.objects.get(key=key)
    user = usercache.users([token.user_id]).get(token.user_id)
    if user is None:  # deleted meanwhile
        raise Token.DoesNotExist
    token.user = user
    if found is None:  # never over a forgetting's mark
        kept = {"token": [getattr(token, n) for n in FIELDS], "user": usercache.values_of(user)}
        cache.add(where, kept, usercache.seconds())
    return token


def _cache_key(key: str) -> str:
    return "api-token:" + hashlib.sha256(key.encode()).hexdigest()


@receiver(post_delete, sender=Token, dispatch_uid="games_api_token_deleted")
def _token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    if usercache.keeping():
        usercache.forget_keys([_cache_key(instance.key)])


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_api_token_user")
@receiver(post_save, sender=Player, dispatch_uid="games_api_token_player")
def _user_changed(
    sender: Any, instance: Any, raw: bool = False, created: bool = False, **kwargs: Any
) -> None:
    # A user or player just made has no kept token yet; a deleted user's tokens are deleted
    # with it (``_token_deleted``).
    if raw or created or not usercache.keeping():
        return
    user_id = instance.user_id if isinstance(instance, Player) else instance.pk
    keys = Token.objects.filter(user_id=user_id).values_list("key", flat=True)
    if where := [_cache_key(key) for key in keys]:
        usercache.forget_keys(where)
