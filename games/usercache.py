"""Users and their players kept in the cache, so that the busiest paths read no user row.

Every write and every game page reads its game's seats with their users and players
(names, mail preferences), every signed-in request its user (``games.auth``) and every
API request its token's user. Joining the users and players to
the seats' locked query was a quarter of the web CPU of a turn submitted through the API
(``tests/benchmarks/turncost.py``: 1.1 ms of wall time of about 10). Here a user's row
and its player's are kept for ``USER_CACHE_SECONDS`` under the user's id and made into
model instances again with ``Model.from_db``. The password hash is not kept: the field
is left deferred, so it is read from the database if anything asks for it, and a save
never writes it back. What is kept instead is a digest of the session hash the rows give
(``session_digest``), so a signed-in request's session is checked without reading the
password (``games.auth.KeptUserAuthenticationMiddleware``).

A user's entry is forgotten when the user or the player is saved or deleted: at once, and
again once the transaction commits. Forgetting leaves a short-lived mark instead of
nothing, and a lookup keeps what it read only where nothing is (``cache.add``), so a
request that read the rows just before a change cannot keep the old ones after it. A
user just made is kept with its player once the transaction commits (a new player's
first page and their table's read no user row), also only where nothing is. An
``update()`` sends no signal: the code saves players instead (the language switcher,
sign-up). A cache that is down answers nothing and keeps nothing
(``evergreen.tolerant_cache``): the rows are read. A mark dropped while the cache was
unreachable leaves the entry it was for until it expires: ``USER_CACHE_SECONDS`` is kept
short (two minutes) for that.

Kept only where every process shares the cache (Redis, ``CACHE_URL``): with each
process's own memory, a worker would never hear of a change made by the web process.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from . import fragments
from .models import Player

# A forgotten entry: lookups read the rows and keep nothing while it lasts (longer than
# any request takes between reading the rows and keeping them).
FORGOTTEN = "forgotten"
FORGOTTEN_SECONDS = 10

Values = dict[str, Any]


def keeping() -> bool:
    return seconds() > 0


def seconds() -> int:
    return int(getattr(settings, "USER_CACHE_SECONDS", 0))


def users(ids: Iterable[int]) -> dict[int, Any]:
    """The users ``ids`` with their players loaded, by id (a user that does not exist is
    left out): those kept in the cache from it, the others read in one query."""
    # As the rows' own ids: a session holds its user's id as text.
    to_id = get_user_model()._meta.pk.to_python
    wanted = {to_id(pk) for pk in ids}
    if not wanted:
        return {}
    keys = {_key(pk): pk for pk in wanted}
    found = cache.get_many(list(keys)) if keeping() else {}
    result = {keys[key]: rebuilt(values) for key, values in found.items() if values != FORGOTTEN}
    missing = wanted - result.keys()
    if missing:
        for user in get_user_model().objects.select_related("player").filter(pk__in=missing):
            result[user.pk] = user
            if keeping() and _key(user.pk) not in found:  # never over a forgetting's mark
                cache.add(_key(user.pk), values_of(user), seconds())
    return result


def seats_with_users(seats: QuerySet[Any]) -> QuerySet[Any]:
    """``seats`` with their users and players joined, unless users are kept: then
    ``attach`` gives them theirs once read."""
    return seats if keeping() else seats.select_related("user__player")


def attach(seats: Iterable[Any], known: Iterable[Any] = ()) -> None:
    """Give each seated user's seat its user (with the player) from ``users``, while users
    are kept (``seats_with_users`` joined them otherwise). A user in ``known`` (the one
    asking, loaded for the request already; None or a visitor count for nothing) is given
    as it is, not looked up again."""
    if keeping():
        give_users(seats, known)


def give_users(seats: Iterable[Any], known: Iterable[Any] = ()) -> None:
    """``attach``, also where users are not kept: then they are read, in one query (for
    seats read without joining them, as a write's locked seats are)."""
    seated = [seat for seat in seats if seat.user_id is not None]
    found = {user.pk: user for user in known if getattr(user, "is_authenticated", False)}
    found.update(users(seat.user_id for seat in seated if seat.user_id not in found))
    for seat in seated:
        seat.user = found[seat.user_id]


def forget(user_pk: Any) -> None:
    """Forget the user: now, and again once the transaction commits."""
    if keeping():
        forget_keys([_key(user_pk)])


def forget_keys(keys: list[str]) -> None:
    """Mark ``keys`` forgotten now and again once the transaction commits (also for other
    entries made of rows: ``games.api.tokencache``)."""
    marks = dict.fromkeys(keys, FORGOTTEN)
    cache.set_many(marks, FORGOTTEN_SECONDS)
    transaction.on_commit(lambda: cache.set_many(marks, FORGOTTEN_SECONDS), robust=True)


def _key(user_pk: Any) -> str:
    return f"user-rows:{user_pk}"


@functools.cache
def _fields(model: Any, leave_out: tuple[str, ...] = ()) -> tuple[str, ...]:
    # Worked out once per model: every rebuilt user and player asks for them.
    return tuple(f.attname for f in model._meta.concrete_fields if f.attname not in leave_out)


USER_LEAVES_OUT = ("password",)


def values_of(user: Any) -> Values:
    """What is kept of ``user`` and its player (``rebuilt`` makes them again), with the
    digest of its session hash when its password hash was read with it."""
    player = getattr(user, "player", None)
    read_password = "password" not in user.get_deferred_fields()
    return {
        "user": [getattr(user, name) for name in _fields(get_user_model(), USER_LEAVES_OUT)],
        "player": None if player is None else [getattr(player, n) for n in _fields(Player)],
        "session": session_digest(user.get_session_auth_hash()) if read_password else None,
    }


def session_digest(session_hash: str) -> str:
    """What is kept of a user's session hash (``get_session_auth_hash``): a digest, so
    the cache holds nothing a session could carry."""
    return hashlib.sha256(session_hash.encode()).hexdigest()


# What else a signed-in request reads in its user's round trip: each function gives the
# names of a user's stamped entries (``games.fragments.stamped``), from the user's id.
_READ_WITH_USER: list[Callable[[Any], Iterable[str]]] = []


def read_with_user(names_of: Callable[[Any], Iterable[str]]) -> None:
    """Have ``kept_with_session`` read the stamped entries ``names_of(user_pk)`` names in
    the same round trip as the user (a page asking for them then makes none): for entries
    of the user's own that most of their pages show (the chat's mute and block choices)."""
    if names_of not in _READ_WITH_USER:
        _READ_WITH_USER.append(names_of)


def _names_read_with(user_pk: Any) -> list[str]:
    return [name for names_of in _READ_WITH_USER for name in names_of(user_pk)]


def keys_read_with(user_pk: Any, names: list[str] | None = None) -> list[str]:
    """The keys ``kept_with_session`` asks the cache for: the user's, then those of the
    entries ``read_with_user`` names (``names``, when the caller has them already)."""
    if names is None:
        names = _names_read_with(user_pk)
    return [_key(user_pk), *fragments.read_ahead_keys(names)]


def kept_with_session(user_pk: Any, found: dict[str, Any] | None = None) -> tuple[Any, str] | None:
    """The user kept in the cache with the digest of its session hash, or None when the
    cache holds no such entry (nothing is read from the database). The entries named by
    ``read_with_user`` are read in the same round trip and noted on the user
    (``games.fragments.note_read_ahead``). ``found``: what the cache answered for
    ``keys_read_with(user_pk)`` earlier in the request (``games.usersession``), read
    again otherwise."""
    if not keeping():
        return None
    names = _names_read_with(user_pk)
    if found is None:
        found = cache.get_many(keys_read_with(user_pk, names))
    values = found.get(_key(user_pk))
    if not isinstance(values, dict) or not values.get("session"):
        return None
    user = rebuilt(values)
    fragments.note_read_ahead(user, names, found)
    return user, values["session"]


def rebuilt(values: Values) -> Any:
    model = get_user_model()
    user = model.from_db("default", _fields(model, USER_LEAVES_OUT), values["user"])
    if values["player"] is not None:
        user.player = Player.from_db("default", _fields(Player), values["player"])
    return user


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_user_rows_saved")
@receiver(post_delete, sender=settings.AUTH_USER_MODEL, dispatch_uid="games_user_rows_gone")
@receiver(post_save, sender=Player, dispatch_uid="games_player_rows_saved")
@receiver(post_delete, sender=Player, dispatch_uid="games_player_rows_gone")
def _user_changed(
    sender: Any, instance: Any, raw: bool = False, created: bool = False, **kwargs: Any
) -> None:
    # A row just made was never kept: there is nothing to forget (and no mark to wait out).
    if not raw and not created:
        forget(instance.user_id if isinstance(instance, Player) else instance.pk)
    elif not raw and isinstance(instance, Player):
        keep_new_on_commit(instance.user)


def keep_new_on_commit(user: Any) -> None:
    """Keep a user with the player just made for it (``games.signals``, with the user)
    once the transaction commits: a new player's first pages and their table's then read
    no user row. Only where nothing is (``cache.add``): a save of either in that
    transaction left its mark, which stands, and marks it again after this."""

    def keep() -> None:
        if keeping() and getattr(user, "player", None) is not None:
            cache.add(_key(user.pk), values_of(user), seconds())

    if keeping():
        transaction.on_commit(keep, robust=True)
