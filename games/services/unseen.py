"""One question asked of a game by the move service and by the page's poll: has anything
changed since version V that this viewer could see?"""

from __future__ import annotations

from .. import kinds
from ..models import Game


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
    # Only the moves since: Move rows are only ever added, each with the version it left the
    # game at, and a kind judges a move hidden from the moves after it (``hidden_moves``).
    rows = list(
        game.moves.filter(result_version__gt=since_version)
        .order_by("number")
        .values_list("seat", "result_version", "payload")
    )
    if len({version for _seat, version, _payload in rows}) != changed:
        return False  # a version bump that was no move (a closing, a join, a hand-over)
    if viewer is not None and any(seat == viewer for seat, _version, _payload in rows):
        return False
    kind = kinds.of(game)
    since = [kind.move_from_json(payload, seat) for seat, _version, payload in rows]
    return len(kind.hidden_moves(game.engine_state(), since, viewer)) == len(since)
