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
    rows = list(game.moves.order_by("number").values_list("seat", "result_version"))
    since = [i for i, (_seat, version) in enumerate(rows) if version > since_version]
    if len({rows[i][1] for i in since}) != changed:
        return False  # a version bump that was no move (a closing, a join, a hand-over)
    if viewer is not None and any(rows[i][0] == viewer for i in since):
        return False
    kind = kinds.of(game)
    hidden = kind.hidden_moves(game.engine_state(), game.record().moves, viewer)
    return all(i in hidden for i in since)
