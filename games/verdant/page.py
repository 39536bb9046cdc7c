"""The Verdant page: the play region's context for a seat (None: a spectator), the status
sentence and the replay's drawing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from . import builder, parts, rules, words

if TYPE_CHECKING:
    from django.http import HttpRequest

    from games.models import Game, Seat


def status_text(view: Mapping[str, Any] | None, names: Sequence[str], status: str) -> str:
    if view is None or status in ("open", "aborted"):
        return {
            "open": _("Waiting for players."),
            "aborted": _("This game was abandoned."),
        }.get(status, "")
    outcome = view.get("outcome")
    if outcome is not None:
        if view["solo"]:
            title = words.title(outcome["title"]) or _("no title")
            return _("The game is over: %(score)s points, %(title)s") % {
                "score": outcome["scores"][0],
                "title": title,
            }
        winners = ", ".join(names[s] for s in outcome["winners"])
        return _("The game is over. Winner: %(names)s.") % {"names": winners}
    me = view.get("viewer")
    if view["phase"] == "start":
        if me is not None and me in view["awaiting"]:
            return _("Choose where your starting plant grows.")
        return _("Waiting for every player to place their starting plant.")
    to_play = view["to_play"]
    if me is not None and to_play == me:
        return _("Your turn (round %(round)s of %(rounds)s).") % {
            "round": view["round"],
            "rounds": view["turns_per_player"],
        }
    return _("%(name)s's turn (round %(round)s of %(rounds)s).") % {
        "name": names[to_play],
        "round": view["round"],
        "rounds": view["turns_per_player"],
    }


def board(
    game: Game,
    state: rules.GameState,
    viewer: int | None,
    names: Sequence[str],
    offered: Mapping[int, Any],
) -> dict[str, Any]:
    """The play region's board as ``viewer`` (None: a spectator) sees it: the view, and the
    market, homes and scores drawn or found drawn (``parts.drawn``)."""
    ed = rules.load_edition(state.edition)
    view = rules.player_view(state, viewer)
    return {
        "view": view,
        **parts.drawn(game, ed, view, names, offered),
        "sides": [{"value": side, "label": label} for side, label in words.SIDES.items()],
    }


def page_context(
    request: HttpRequest, game: Game, seat: Seat | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    names: list[str] = params["names"]
    position = seat.position if seat else None
    state = game.engine_state()
    question = None
    can_start = False
    offered: dict[int, Any] = {}
    if position is not None and game.is_playable and position in state.awaiting:
        if state.phase is rules.Phase.START:
            can_start = True
        else:
            question = builder.question(state, position, params.get("steps"))
            offered[position] = question.options
    context = board(game, state, position, names, offered)
    view = context["view"]
    ed = rules.load_edition(state.edition)
    context.update(
        {
            "error": params.get("error") or (question.error if question else None),
            "status": status_text(view, names, params["status_key"]),
            "my_move": position is not None and position in view["awaiting"],
            "can_start": can_start,
            "question": question,
            "steps": question.draft.code if question else "",
            "wipe_columns": _wipe_columns(state, position, ed, question),
        }
    )
    return context


def _wipe_columns(
    state: rules.GameState, seat: int | None, ed: rules.Edition, question: Any
) -> list[dict[str, Any]]:
    """The market tokens green thumb action A may clear, before a card is chosen."""
    if seat is None or question is None or question.stage != "select":
        return []
    if "A" not in rules.green_thumb_actions(state, seat, ed):
        return []
    return [
        {"column": k, "name": words.item(t)}
        for k, t in enumerate(state.market_tokens)
        if t is not None
    ]


def replay_context(game: Game, state: rules.GameState, viewer: int | None) -> dict[str, Any]:
    names = [s.name for s in game.seats_in_order()]
    return board(game, state, viewer, names, {})
