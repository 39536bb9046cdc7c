"""One question asked of a game by the move service and by the page's poll: has anything
changed since version V that this viewer could see?"""

from __future__ import annotations

import functools
import json
from typing import Any

from django.db import connection

from .. import kinds
from ..models import Game, Move


def unseen_changes_only(game: Game, viewer: int | None, since_version: int) -> bool:
    """Whether every change since ``since_version`` is another seat's move that ``viewer``
    (a seat's position; None: a spectator) may not see yet (a simultaneous hidden choice:
    a start placement, a pick, a turn). Then a page showing ``since_version`` still shows
    the game as it is for this viewer: a move chosen on it is not stale, and its poll
    needs only the status bar. A change of any other sort (a round revealed, a seat
    joined, a hand-over, a move of the viewer's own) is one the viewer sees."""
    changed = game.version - since_version
    if changed <= 0:
        return False
    rows = _moves_since(game.pk, since_version)
    if len({version for _seat, version, _payload in rows}) != changed:
        return False  # a version bump that was no move (a closing, a join, a hand-over)
    if viewer is not None and any(seat == viewer for seat, _version, _payload in rows):
        return False
    kind = kinds.of(game)
    since = [kind.move_from_json(payload, seat) for seat, _version, payload in rows]
    return len(kind.hidden_moves(game.engine_state(), since, viewer)) == len(since)


def _moves_since(game_id: int, since_version: int) -> list[tuple[int, int, Any]]:
    """The moves since: Move rows are only ever added, each with the version it left the
    game at, and a kind judges a move hidden from the moves after it (``hidden_moves``).
    Each as (seat, result version, payload). One small query written out:
    building it with the ORM for every poll of a page cost more than running it (about
    4% of the web's CPU in the capacity run, 2026-11-28)."""
    with connection.cursor() as cursor:
        cursor.execute(_moves_since_sql(connection.vendor), [game_id, since_version])
        return [(seat, version, _decoded(payload)) for seat, version, payload in cursor.fetchall()]


@functools.cache
def _moves_since_sql(vendor: str) -> str:
    """``_moves_since``'s query for the database ``vendor`` (its quoting), made once."""
    quote = connection.ops.quote_name
    table = quote(Move._meta.db_table)
    # Django's columns for the model's fields (a foreign key's with ``_id``).
    game, seat, version, payload, number = (
        quote(column) for column in ("game_id", "seat", "result_version", "payload", "number")
    )
    return (
        f"SELECT {seat}, {version}, {payload} FROM {table}"
        f" WHERE {game} = %s AND {version} > %s ORDER BY {number}"
    )


def _decoded(payload: Any) -> Any:
    # Django has PostgreSQL send JSON as text (JSONField decodes it); SQLite stores text.
    return json.loads(payload) if isinstance(payload, str) else payload
