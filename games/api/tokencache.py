"""API tokens remembered in the cache, so that an API request reads no row to know its user.

DRF's token check reads the token, its user and the user's player on every request: one
query and its ORM work, about 1.4 ms of the 12 ms of a turn submitted through the API
(``tests/benchmarks/turncost.py``), and as much of every poll of an API player. Here the
three rows' values are kept for ``API_TOKEN_CACHE_SECONDS`` under a digest of the key
(the key itself never names a cache entry) and made into model instances again with
``Model.from_db``. The user's password hash is not kept: the field is left deferred, so
it is read from the database if anything asks for it, and a save never writes it back.

What is kept is forgotten when the token is deleted, its user or the player saved or
deleted, and
where a player's row is changed by ``update()`` (``forget_user``): at once, and again once
the transaction commits. Forgetting leaves a short-lived mark instead of nothing, and a
lookup only keeps what it read where nothing is (``cache.add``), so a request that read
the rows just before a change cannot keep the old ones after it. A cache that is down
answers nothing and keeps nothing (``evergreen.tolerant_cache``): the rows are read.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from rest_framework.authtoken.models import Token

from ..models import Player

# A forgotten entry: lookups read the rows and keep nothing while it lasts (longer than
# any request takes between reading the rows and keeping them).
FORGOTTEN = "forgotten"
FORGOTTEN_SECONDS = 10

Values = dict[str, Any]


def seconds() -> int:
    return int(getattr(settings, "API_TOKEN_CACHE_SECONDS", 0))


def token_with_user(key: str) -> Token:
    """The token ``key`` with its user and the user's player loaded (raises
    ``Token.DoesNotExist``): from the cache when it is kept there, else from the rows."""
    if not seconds():
        return _read(key)
    where = _cache_key(key)
    found = cache.get(where)
    if isinstance(found, dict):
        return _rebuilt(found)
    token = _read(key)
    if found is None:  # never over a mark left by forgetting
        cache.add(where, _values(token), seconds())
    return token


def _read(key: str) -> Token:
    # get(), not filter().first(): the key is the primary key, so no ORDER BY to compile.
    return Token.objects.select_related("user__player").get(key=key)


def forget_user(user_pk: Any) -> None:
    """Forget the user's tokens: now, and again once the transaction commits."""
    if not seconds():
        return
    keys = list(Token.objects.filter(user_id=user_pk).values_list("key", flat=True))
    if keys:
        _forget(keys)


def _forget(keys: list[str]) -> None:
    marks = {_cache_key(key): FORGOTTEN for key in keys}
    cache.set_many(marks, FORGOTTEN_SECONDS)
    transaction.on_commit(lambda: cache.set_many(marks, FORGOTTEN_SECONDS), robust=True)


def _cache_key(key: str) -> str:
    return "api-token:" + hashlib.sha256(key.encode()).hexdigest()


# The fields kept of each row; the user's password is left out (deferred when rebuilt).
def _fields(model: Any, leave_out: tuple[str, ...] = ()) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if f.attname not in leave_out]


def _values(token: Token) -> Values:
    user = token.user
    player = getattr(user, "player", None)
    return {
        "token": [getattr(token, name) for name in _fields(Token)],
        "user": [getattr(user, name) for name in _fields(type(user), ("password",))],
        "player": None if player is None else [getattr(player, n) for n in _fields(Player)],
    }


def _rebuilt(values: Values) -> Token:
    user_model = get_user_model()
    user = user_model.from_db("default", _fields(user_model, ("password",)), values["user"])
    if values["player"] is not None:
        user.player = Player.from_db("default", _fields(Player), values["player"])
    token = Token.from_db("default", _fields(Token), values["token"])
    token.user = user
    return token


# A token's key is its primary key: a new key is a new row, never kept before, so only a
# deleted token has anything to forget.
@receiver(post_delete, sender=Token, dispatch_uid="games_api_token_deleted")
def _token_deleted(sender: Any, instance: Token, **kwargs: Any) -> None:
    if seconds():
        _forget([instance.key])


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_api_user_saved")
@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_api_user_gone")
@receiver(post_save, sender=Player, dispatch_uid="games_api_player_saved")
@receiver(post_delete, sender=Player, dispatch_uid="games_api_player_gone")
def _user_changed(sender: Any, instance: Any, raw: bool = False, **kwargs: Any) -> None:
    if not raw:
        forget_user(instance.user_id if isinstance(instance, Player) else instance.pk)
