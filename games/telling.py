"""The game log told and kept, so that after a move only the new moves are told and only
the rounds they changed are drawn: what a move costs the log is what the move changed,
not the length of the game.

A kind that tells on from a bookmark (``GameKind.story_on``: both games) has its telling
kept per game, viewer's eyes, names and language, under one key for all the game's
versions (``_Kept``): the moves told, the kind's bookmark after them and how many
chapters were closed before it (final: no later move or reveal changes them). Each
closed chapter, with its drawing, is kept under a key of its own: it never changes, so it
is kept in this process too (``games.nearcache``), and what is kept under the telling's
key stays the size of a round however long the game. A telling kept whole was read and
unpickled by every first look after a move (84 kB after 36 moves of a two-player game,
0.5 ms of CPU; several times that by the end of a four-player game) and written again at
every round's end. The game page reads only the chapters of the rounds it shows
(``told``'s ``newest``).

The next telling reads only the Move rows after the bookmark (Move rows are only ever
added, numbered 1, 2, … in order) and tells them on; a telling kept for more moves than
the game row has (read just before a move), or one whose chapter the cache dropped, is
left alone and the log told from the first move: of its closed chapters, only the
``newest`` asked for (the page's rounds) when the kind can leave the older ones out
(``GameKind.story_on``'s ``newest``); the rest are told whole when asked for (the earlier
rounds, the replay, the end of the game). A first look at a table in its third season
went from 19.2 to 13.9 ms of CPU with it (rendercost, in one process, 2026-11-29), the
log's share from about 10 ms to 4.8. What one seat is told is kept under
that seat's eyes (``story._told_to``), never found by another. A kind without
``story_on`` has its log told whole (``GameKind.story``) from the record, whose moves
read before are kept in chunks (``record``).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.utils import translation

from . import fragments, kinds, nearcache
from .kinds import Chapter
from .models import Move

if TYPE_CHECKING:
    from .models import Game


@dataclass(frozen=True)
class Told:
    """The log of a game told up to ``moves`` moves: ``count``, how many chapters were
    closed before the kind's bookmark; ``final``, the newest of them (all when all were
    asked for) and ``drawn``, each of those drawn closed (oldest first); ``rest``, those
    told after the bookmark (the round still open), never kept."""

    moves: int
    count: int
    final: tuple[Chapter, ...]
    drawn: tuple[str, ...]
    rest: tuple[Chapter, ...] = ()

    @property
    def chapters(self) -> list[Chapter]:
        """The whole log, when ``told`` was asked for all of it."""
        return [*self.final, *self.rest]


Closed = tuple[Chapter, str]  # a closed chapter with its drawing


@dataclass(frozen=True)
class _Kept:
    """What is kept under a telling's key: told up to ``moves`` moves and the kind's
    ``bookmark``, with ``count`` chapters closed before it, each kept apart
    (``_closed_key``)."""

    moves: int
    bookmark: Any
    count: int


def told(
    game: Game,
    viewer: int | None,
    eyes: int | str | None,
    names: Sequence[str],
    draw: Callable[[Chapter], str],
    newest: int | None = None,
) -> Told:
    """The log of a started ``game`` as seat ``viewer`` (None: a spectator) may read it,
    told on from the telling kept for ``eyes`` (``draw``: a final chapter as the page
    shows it, closed); of the closed chapters, at least the ``newest`` (None: all)."""
    kind = kinds.of(game)
    state = game.engine_state()
    if not tells_on(kind):
        whole = kind.story(record(game), state, viewer, names)
        return Told(game.moves_count, 0, (), (), tuple(whole))
    where = _key(game, eyes, names)
    kept = fragments.all_found([where]).get(where)
    since = kept if isinstance(kept, _Kept) and kept.moves <= game.moves_count else None
    moves = _moves_since(game, since.moves) if since is not None else None
    closed = _closed(where, since, newest) if since is not None and moves is not None else None
    if since is None or moves is None or closed is None:
        since, closed, read = None, [], record(game)
        head = read
    else:
        read, head = None, kind.record(names, game.setup(), moves)
    if since is not None:
        on = kind.story_on(head, since.bookmark, state, viewer, names)
    else:  # told from the first move: of the final chapters, only the newest asked for
        on = kind.story_on(head, None, state, viewer, names, newest)
    if on is None:  # the kind could not tell it on (a snapshot set by hand): whole
        told_whole = kind.story(read if read is not None else record(game), state, viewer, names)
        return Told(game.moves_count, 0, (), (), tuple(told_whole))
    count = since.count if since else on.left_out
    new = [(chapter, draw(chapter)) for chapter in on.final]
    now = _Kept(game.moves_count, on.bookmark, count + len(new))
    newer_kept = isinstance(kept, _Kept) and kept.moves > now.moves  # this row was stale
    if not newer_kept and (since is None or on.bookmark is not since.bookmark):
        # The chapters before the telling that counts them (in one write with it, once the
        # response has gone: ``games.keptafter``).
        if new and fragments.keeping():
            chapters = {_closed_key(where, count + k): pair for k, pair in enumerate(new)}
            nearcache.keep_many(chapters, fragments.seconds())
        fragments.keep(where, now)
    pairs = [*closed, *new]  # the newest closed before, then those closed now
    return Told(
        now.moves,
        now.count,
        tuple(chapter for chapter, _ in pairs),
        tuple(drawing for _, drawing in pairs),
        on.rest,
    )


def _closed(where: str, kept: _Kept, newest: int | None) -> list[Closed] | None:
    """The ``newest`` chapters ``kept`` counts as closed (None: all of them), oldest
    first; None when the cache dropped one of them."""
    first = 0 if newest is None else max(0, kept.count - newest)
    keys = [_closed_key(where, number) for number in range(first, kept.count)]
    found = nearcache.find_many(keys)
    closed = [found.get(key) for key in keys]
    if not all(isinstance(pair, tuple) and len(pair) == 2 for pair in closed):
        return None
    return closed  # type: ignore[return-value]  # each checked just above


def _closed_key(where: str, number: int) -> str:
    """Where the ``number``-th closed chapter (from 0) of the telling kept under ``where``
    is kept, with its drawing: it never changes, so it is kept in this process too."""
    return f"{where}:closed:{number}"


def tells_on(kind: kinds.GameKind) -> bool:
    """Whether ``kind`` tells its log on from a bookmark (it has its own ``story_on``)."""
    return type(kind).story_on is not kinds.GameKind.story_on


# Part of every key: a change to what a telling holds (``Told``, a kind's bookmark) bumps
# it, so a new release never resumes from a telling an older one kept.
FORM = "v2"


def _key(game: Game, eyes: int | str | None, names: Sequence[str]) -> str:
    """Where the telling of ``game`` for ``eyes`` is kept: one key for all its versions
    (what it holds says how far it was told), the game's invitation code in it (a game
    made again under an old number is another game)."""
    whose = "spectator" if eyes is None else str(eyes)
    named = hashlib.sha256("\x1f".join(names).encode()).hexdigest()[:16]
    language = translation.get_language() or ""
    return f"game-told-{FORM}:{game.pk}:{game.invite_code}:{whose}:{language}:{named}"


def _moves_since(game: Game, told: int) -> list[Any] | None:
    """The game's moves after the first ``told`` (one query), or None when the rows do not
    follow on from them."""
    kind = kinds.of(game)
    if told == game.moves_count:
        return []
    rows = _move_rows_after(game.pk, told)
    if [number for number, _, _ in rows] != list(range(told + 1, game.moves_count + 1)):
        return None
    return [kind.move_from_json(payload, seat) for _, payload, seat in rows]


def _move_rows_after(pk: int, told: int) -> list[tuple[int, Any, int]]:
    """Game ``pk``'s Move rows after the first ``told``, as (number, payload, seat) in
    order. The query is written out: every first render after a move makes it, and the
    ORM's building and compiling of it was two thirds of its 0.35 ms (0.11 ms written
    out, in one process against PostgreSQL, 2026-11-28)."""
    with connection.cursor() as cursor:
        cursor.execute(_move_rows_sql(connection.vendor), [pk, told])
        found = cursor.fetchall()
    # The JSON comes as text (Django's loader on PostgreSQL, SQLite): decoded as its field does.
    return [(number, json.loads(payload), seat) for number, payload, seat in found]


@functools.cache
def _move_rows_sql(vendor: str) -> str:
    """``_move_rows_after``'s query for the database ``vendor`` (its quoting), made once."""
    quote = connection.ops.quote_name
    columns = {f.name: quote(str(f.column)) for f in Move._meta.concrete_fields}
    game, number, payload, seat = (columns[n] for n in ("game", "number", "payload", "seat"))
    return (
        f"SELECT {number}, {payload}, {seat} FROM {quote(Move._meta.db_table)}"
        f" WHERE {game} = %s AND {number} > %s ORDER BY {number}"
    )


# How many moves a kept chunk of a game's moves holds (``record``).
CHUNK = 16


def record(game: Game) -> Any:
    """The game's record, as ``game.record()`` reads it. Move rows are only ever added
    (numbered 1, 2, … in order), so the moves read for an earlier telling are kept
    (``games.fragments``) in chunks of ``CHUNK``, all found in one round trip, and only
    the newer rows are read: after a move, one row, and only the last chunk is kept anew
    (a full chunk never changes again)."""
    if not fragments.keeping():
        return game.record()
    kind = kinds.of(game)
    where = f"game-moves:{game.pk}:{game.invite_code}"
    keys = [f"{where}:{k}" for k in range(game.moves_count // CHUNK + 1)]
    found = fragments.all_found(keys)
    moves: list[Any] = []
    for chunk in keys:
        kept = found.get(chunk)
        if not isinstance(kept, tuple) or len(kept) != CHUNK:
            if isinstance(kept, tuple) and len(kept) < CHUNK:
                moves.extend(kept)
            break
        moves.extend(kept)
    moves = moves[: game.moves_count]
    read = len(moves)
    if read < game.moves_count:
        rows = _move_rows_after(game.pk, read)  # written out, as after a move
        moves.extend(kind.move_from_json(payload, seat) for _, payload, seat in rows)
        for k in range(read // CHUNK, (len(moves) - 1) // CHUNK + 1):
            fragments.keep(keys[k], tuple(moves[k * CHUNK : (k + 1) * CHUNK]))
    names = [seat.name for seat in game.ordered_seats()]
    return kind.record(names, game.setup(), moves)
