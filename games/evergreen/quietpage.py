"""What Evergreen's page shows that another seat's hidden turn changes (the status bar's
words, the score table's marks): drawn for the poll's quiet answer
(``games.views.quietpoll``) without the planets, the pool or the turn builder, as
``page.page_context`` draws them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import panels, presenters, rules
from .rules.view import player_view

if TYPE_CHECKING:
    from games.models import Game, Seat


def status_context(game: Game, seat: Seat | None, params: Mapping[str, Any]) -> dict[str, Any]:
    names: list[str] = params["names"]
    position = seat.position if seat else None
    state = game.engine_state()
    edition = rules.load_edition(state.edition)
    view = player_view(state, position)
    focus = params.get("focus")  # kept in the poller's address, as page_context keeps it
    if focus is None or not 0 <= focus < len(view["seats"]):
        focus = position if position is not None else 0
    sun, next_sun = presenters.sun_markers(edition, view["sun"], view["next_sun"])
    return {
        "view": view,
        "focus": focus,
        "status": presenters.status_text(view, names, params["status_key"]),
        "my_move": presenters.is_my_move(view),
        "season_line": presenters.season_line(view, sun, next_sun),
        # Kept as the page keeps it: the first seat polling after a hidden turn draws it.
        "panels": {"scores": panels.scores_panel(game, edition, view, names)},
    }
