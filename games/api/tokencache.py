"""API tokens kept in the cache, so that an API request reads no row to know its user.

DRF's token check reads the token, its user and the user's player on every request: one
query and its ORM work, about 1.4 ms of the 12 ms of a turn submitted through the API
(``tests/benchmarks/turncost.py``), and as much of every poll of an API player. Here the
token's row is kept under a digest of its key (the key itself never names a cache entry)
and its user comes from ``games.usercache``, which forgets a user on every change of the
user or the player. A token is only ever created or deleted (its key is its primary key):
a deleted one is forgotten, with the same mark that stops a lookup racing the deletion
from keeping it. Kept while users are (``USER_CACHE_SECONDS``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.db.models.signals import post_delete
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from .. import usercache

FIELDS = ("key", "user_id", "created")


def token_with_user(key: str) -> Token:
    """The token ``key`` with its user and the user's player loaded (raises
    ``Token.DoesNotExist``): from the cache when it is kept there, else from the rows."""
    if not usercache.keeping():
        # get(), not filter().first(): the key is the primary key, so no ORDER BY.
        return Token.objects.select_related("user__player").get(key=key)
    where = _cache_key(key)
    found = cache.get(where)
    if isinstance(found, list):
        token = Token.from_db("default", FIELDS, found)
    else:
        token = Token.objects.get(key=key)
        if found is None:  # never over a deletion's mark
            cache.add(where, [getattr(token, name) for name in FIELDS], usercache.seconds())
    user = usercache.users([token.user_id]).get(token.user_id)
    if user is None:  # deleted meanwhile
        raise Token.DoesNotExist
    token.user = user
    return token


def _cache_key(key: str) -> str:
    return "api-token:" + hashlib.sha256(key.encode()).hexdigest()


@receiver(post_delete, sender=Token, dispatch_uid="games_api_token_deleted")
def _token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    if usercache.keeping():
        usercache.forget_keys([_cache_key(instance.key)])
