"""A game's row, its seats' rows and their users' and players' rows kept in the cache
under the rows' own versions, so a page, a poll's region or an API read builds no query
and no model from them while none of those rows changed.

Reading the game with its seats through the ORM (``games.access``) was about a third of
the CPU of a game page rendered afresh: compiling the two queries and the ``Prefetch``,
building the models, decoding the state snapshot (``tests/benchmarks/rendercost.py``).
What PostgreSQL sends back was a small part of it.

**Never a stale row.** Many writes change a game's or a seat's row without bumping the
game's version (a hint taken, a standing order, a deadline claimed by the timeout task, a
vacation, the chat's ``last_message_at``, any ``queryset.update()``: the list is in
``docs/architecture.md``, "A game's rows"), so the version cannot say whether a kept
row is current; a stamp each of those writes replaced in the cache could not either,
since a write made while Redis is unreachable drops its restamp and leaves the old rows
looking current. Instead every lookup asks PostgreSQL,
in one small query without the ORM (``current_key``), which versions of the rows are
current: each row's ``xmin``, the transaction that wrote that version of it. A
committed version of a row never changes (an UPDATE writes a new version, with its own
transaction's id), so the game's ``xmin`` with each seat's id and ``xmin`` name exactly
the rows a read would return: the key (``rows_key``) is made of them, and what is kept
under a key is the game and seats read together with those very ``xmin`` values
(``games.rowsread``). Whatever writes a row, however, the next lookup asks for another
key; whatever the cache dropped or kept, nothing found under a key can be older than it.
(A transaction id comes round again only after some four billion transactions: far
longer than ``GAME_ROWS_CACHE_SECONDS``.) Only committed versions are ever kept: a
transaction that writes a row twice gives both versions its one id (seen in psql: the same
``xmin``, another ``ctid``), so an ``xmin`` names a committed version, never a write
within a transaction (a writer keeping the rows it wrote would have to check the ``ctid``
too; tried on 2026-11-27 and left out: it cost the turn more than it saved the next
read). The game row holds the state snapshot with its secrets: it stays in the cache, on
the server, as the rendered parts do; the viewers' guards (``GAME_VIEW_GUARDS``) run on
the rows found as on the rows read.

Only outside a transaction (``autocommit``): inside one, rows this transaction wrote carry
its own id, for a version not yet committed and maybe changed again by the same
transaction (the rows are then read as before). Only on PostgreSQL and with a shared cache
(the one ``games.usercache`` needs too).

**The seated users are kept by their rows' versions too.** The same query reads each
seated user's and player's ``xmin``; a user with its player (the password hash left out,
as ``games.usercache`` leaves it) is kept under those (``users_key``), apart from the
game's rows, so a move finds its players kept and a name changed, by whatever write, asks
for another key. Giving them from ``games.usercache`` instead cost every page a round trip
to Redis and the users' models built again (about 8% of a fresh render's CPU,
2026-11-28); joining them to the seats' read cost the first read after a move 0.7 ms more
(the ORM's select_related). A request's own user is still the one it loaded
(``games.access``).

Transaction ids are the server's own, never
given twice by it (a database copied from a template keeps the template's rows, under the
same ids: the same rows); another server counts its own, so the key also names the server
by when it started (``pg_postmaster_start_time``): a database restored into another server,
or a server restarted, finds nothing kept before. (Empty the cache when switching to a
restored database all the same, for the published versions of ``games.pollcache``.)
``settings.GAME_ROWS_CACHE_SECONDS`` is how long a version is kept (0: never).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

import django
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from . import fragments, nearcache, usercache
from .models import Game, Player, Seat
from .rowsread import read_together, read_with_related

# Raise when what is kept changes shape: the old entries are then never read. Django's
# version is in the key too: a model pickled by another version is not unpickled.
SHAPE = f"4-{django.get_version()}"


def seconds() -> int:
    return int(getattr(settings, "GAME_ROWS_CACHE_SECONDS", 0))


def keeping() -> bool:
    """Whether the rows may be kept and found now (see the module's docstring)."""
    return (
        seconds() > 0
        and usercache.keeping()
        and connection.vendor == "postgresql"
        and connection.get_autocommit()
        and not connection.in_atomic_block
    )


def _table(model: Any) -> str:
    return str(connection.ops.quote_name(model._meta.db_table))


@functools.cache
def _current_rows_sql(vendor: str) -> str:
    """``_current``'s query for the database ``vendor`` (its quoting), made once."""
    game, seat, user, player = _table(Game), _table(Seat), _table(get_user_model()), _table(Player)
    user_pk = connection.ops.quote_name(str(get_user_model()._meta.pk.column))
    # Each seat as ``id:xmin:user id:its user's xmin:its player's xmin`` (the last three
    # empty for a seat without a user). Subqueries, not joins: PostgreSQL answered them in
    # 0.24 ms against 0.32 (0.17 for the seats alone).
    return (
        f"SELECT pg_postmaster_start_time()::text, g.xmin::text, (SELECT string_agg("
        f"s.id::text || ':' || s.xmin::text || ':' || coalesce(s.user_id::text, '')"
        f" || ':' || coalesce((SELECT u.xmin::text FROM {user} u WHERE u.{user_pk} = s.user_id), '')"
        f" || ':' || coalesce((SELECT p.xmin::text FROM {player} p WHERE p.user_id = s.user_id), '')"
        f", ',' ORDER BY s.position) FROM {seat} s WHERE s.game_id = g.id)"
        f" FROM {game} g WHERE g.id = %s"
    )


@dataclass(frozen=True)
class Versions:
    """The versions of a game's rows as they are now (``_current``): the server's (when it
    started), the game's and seats' (``rows``: the key they are kept under), and each
    seated user's with its player's (``users``: user id -> the key it is kept under)."""

    server: str
    rows: str
    users: dict[int, str]


def _current(pk: int) -> Versions | None:
    """The versions of the game's rows as they are now (one query), or None: no such game."""
    with connection.cursor() as cursor:
        cursor.execute(_current_rows_sql(connection.vendor), [pk])
        found = cursor.fetchone()
    if found is None:
        return None
    server, game_version, seat_versions = found
    seats, users = [], {}
    for each in seat_versions.split(",") if seat_versions else []:
        seat_id, seat_version, user_id, user_version, player_version = each.split(":")
        seats.append(f"{seat_id}:{seat_version}")
        if user_id:
            users[int(user_id)] = users_key(server, user_id, user_version, player_version)
    return Versions(server, rows_key(pk, server, game_version, ",".join(seats)), users)


def current_key(pk: int) -> str | None:
    """The key of the game's rows as they are now (one query), or None: no such game."""
    current = _current(pk)
    return None if current is None else current.rows


def rows_key(pk: int, server: str, game_version: str, seat_versions: str) -> str:
    """Where the game's rows are kept at these versions of the server (when it started):
    the game's ``xmin``, and each seat's ``id:xmin`` in seat order, joined by commas."""
    named = f"{server}|{game_version}|{seat_versions}"
    return f"game-rows:{SHAPE}:{pk}:{hashlib.sha256(named.encode()).hexdigest()[:32]}"


def users_key(server: str, user_id: Any, user_version: str, player_version: str) -> str:
    """Where a user with its player is kept at these versions of their rows."""
    named = f"{server}|{user_id}|{user_version}|{player_version}"
    return f"user-rows-at:{SHAPE}:{hashlib.sha256(named.encode()).hexdigest()[:32]}"


def read(pk: int) -> Game:
    """The game ``pk`` with its seats in seat order attached (``Game.seats_in_order``), each
    with its user and player (without the password hash): from the cache when none of
    those rows changed since they were kept; ``Game.DoesNotExist`` when there is no such
    game."""
    if not keeping():
        game = Game.objects.get(pk=pk)
        seats = Seat.objects.filter(game_id=pk).order_by("position").select_related("user__player")
        game.attach_seats(list(seats))
        return game
    current = _current(pk)
    if current is None:
        raise Game.DoesNotExist(f"No game {pk}")
    game = nearcache.find(current.rows)  # never changes under its key: kept here too
    if not isinstance(game, Game):
        game = _read_rows(pk, current.server)
    users = _users_at(current)
    for seat in game.seats_in_order():
        if seat.user_id in users:
            seat.user = users[seat.user_id]
    return game


def _read_rows(pk: int, server: str) -> Game:
    """The game with its seats (no users) read in one round trip (``games.rowsread``), and
    kept under the versions read with them, which may be newer than those just asked for."""
    game: Game
    game, seats = read_together(Game, pk, Seat, "game", "position", versions=True)
    game.attach_seats(seats)
    # Noted on the game and kept with it: worked out once per version kept, not per page.
    fragments.play_state(game)
    if game.state is not None:
        game.engine_state()
    nearcache.keep(_key_of_read(game, server), game, seconds())
    return game


def _key_of_read(game: Any, server: str) -> str:
    """The key of rows read with their ``row_version`` (``games.rowsread``)."""
    seats = ",".join(f"{seat.pk}:{seat.row_version}" for seat in game.seats_in_order())
    return rows_key(game.pk, server, game.row_version, seats)


def _users_at(current: Versions) -> dict[int, Any]:
    """The seated users with their players (without the password hash), by id: kept under
    their rows' versions, the others read in one query and kept under the versions read
    with them (a user changed since ``current`` was asked is read as it is now)."""
    found = nearcache.find_many(current.users.values())
    users = {pk: found[key] for pk, key in current.users.items() if key in found}
    missing = current.users.keys() - users.keys()
    if missing:
        read, players = read_with_related(
            get_user_model(), sorted(missing), Player, "user", leave_out=("password",)
        )
        player_of = {player.user_id: player for player in players}
        kept = {}
        for user in read:
            player, player_version = player_of.get(user.pk), ""
            if player is not None:
                user.player = player  # as select_related("player") leaves it
                player_version = player.row_version
            users[user.pk] = user
            kept[users_key(current.server, user.pk, user.row_version, player_version)] = user
        nearcache.keep_many(kept, seconds())
    return users
