"""What Evergreen's part of the game page and of the replay shows (``page_context``,
``replay_context``, called by the platform's views through the game kind).

The state reaches a template only through ``player_view`` and the presenters; the turn
in progress comes from the page address (``?turn=``) and is checked by the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from games import drawings, services
from games.kinds import Refusal

from . import panels, presenters, refusals, rules, turnbuilder
from .rules.record import GameRecord
from .rules.targets import planned_board
from .rules.view import player_view
from .turnbuilder import TurnBuilder

if TYPE_CHECKING:
    from django.http import HttpRequest

    from games.models import Game, Seat


def can_build(state: rules.GameState, position: int) -> bool:
    seat = state.seats[position]
    return state.phase is rules.Phase.ACTION and seat.card is not None and seat.turn is None


def builder(state: rules.GameState, position: int, text: str | None) -> TurnBuilder:
    """The turn in progress read from ``text``; raises ``RulesError`` if the engine refuses it."""
    card = state.seats[position].card
    assert card is not None
    power = rules.load_edition(state.edition).cards[card].power
    built = TurnBuilder.decode(position, power, text)
    turnbuilder.check(state, built)
    return built


def _builder_or_fresh(
    state: rules.GameState, position: int, steps: str | None
) -> tuple[TurnBuilder, Refusal | None]:
    """The turn in progress from the page address, or a fresh one saying why it was dropped."""
    try:
        return builder(state, position, steps), None
    except rules.RulesError as exc:
        reason = _("Your turn in progress no longer fits the game: %(reason)s") % {
            "reason": refusals.message(exc)
        }
        return builder(state, position, ""), Refusal(exc.code, reason)


def _my_planet(
    state: rules.GameState,
    edition: rules.Edition,
    view: dict[str, Any],
    names: list[str],
    position: int,
    built: TurnBuilder | None,
) -> presenters.Planet:
    """My planet with the turn I am building (and its clickable spaces) or have submitted."""
    if built is not None:
        board = turnbuilder.check(state, built)
        targets = turnbuilder.spaces_now(state, built)
    else:
        board = planned_board(state, position)
        targets = {}
    return presenters.planet(
        edition,
        board,
        view["sun"],
        view["next_sun"],
        seat=position,
        name=names[position],
        targets=targets,
        before=state.seats[position].board,
        preview="building" if built is not None else "submitted",
    )


def _can_rank(game: Game, view: dict[str, Any], position: int) -> bool:
    """A standing order makes sense in the Draft before my pick comes (and before I picked)."""
    return (
        game.is_playable
        and view["phase"] == "draft"
        and view["to_pick"] != position
        and view["seats"][position]["card"] is None
        and bool(view["pool"])
    )


def page_context(
    request: HttpRequest, game: Game, seat: Seat | None, params: Mapping[str, Any]
) -> dict[str, Any]:
    """The play region of a started game for ``seat`` (None: a spectator). ``params``:
    ``names``, ``steps`` (the turn in progress), ``builder`` (already built), ``focus``
    (the planet shown large), ``error`` (a refusal to show, or None), ``key`` (the page's
    key for its forms; without it the pool's forms are drawn by the template)."""
    names: list[str] = params["names"]
    position = seat.position if seat else None
    state = game.engine_state()
    edition = rules.load_edition(state.edition)
    view = player_view(state, position)
    mine: presenters.Planet | None = None  # my planet with the turn I build or submitted
    context: dict[str, Any] = {"steps": "", "turn": None}
    error = params.get("error")
    built: TurnBuilder | None = params.get("builder")
    if position is not None and game.is_playable and can_build(state, position):
        if built is None:
            built, stale = _builder_or_fresh(state, position, params.get("steps"))
            error = error or stale
        mine = _my_planet(state, edition, view, names, position, built)
        card = presenters.card_info(edition, str(state.seats[position].card))
        level = turnbuilder.power_level(state, built)
        context["turn"] = presenters.turn_panel(built, card, level, mine)
        context["steps"] = built.encode()
    elif position is not None and state.seats[position].turn is not None:
        mine = _my_planet(state, edition, view, names, position, None)
    count = len(view["seats"])
    focus = params.get("focus")
    if focus is None or not 0 <= focus < count:
        focus = position if position is not None else 0
    # My planet with my turn is drawn here, any other in focus is kept drawn (panels).
    main = mine if mine is not None and focus == position else None
    sun, next_sun = presenters.sun_markers(edition, view["sun"], view["next_sun"])
    stored: list[str] | None = None  # my standing order, when I may rank the pool
    if seat is not None and _can_rank(game, view, seat.position):
        key = services.round_key(game, state)
        stored = seat.standing_order if seat.standing_order_round == key else []
    can_pick = (
        game.is_playable
        and view["phase"] == "draft"
        and position is not None
        and view["to_pick"] == position
    )
    # The pick's and the standing order's forms carry the page's key and the request's
    # CSRF token: filled in here.
    form_key = params.get("key")
    pick = can_pick and form_key is not None
    pool: str | None = "still"  # no form: kept once for every viewer
    if pick:
        pool = "pick"
    elif stored is not None:
        pool = "rank"
    elif can_pick:
        pool = None  # the pick's forms without the page's key: the template draws them
    kept = panels.drawn(
        game,
        edition,
        view,
        names,
        viewer=position,
        focus=focus,
        mine=mine,
        pool=pool,
        stored=stored or (),
    )
    pool_html = kept.pool
    if pool in ("pick", "rank") and pool_html is not None:
        pool_html = panels.with_form(pool_html, drawings.page_token(request), str(form_key or ""))
    context.update(
        {
            "view": view,
            "error": error,
            "status": presenters.status_text(view, names, params["status_key"]),
            "my_move": presenters.is_my_move(view),
            "season_name": presenters.season_name(view["season"]),
            "season_line": presenters.season_line(view, sun, next_sun),
            "focus": focus,
            "main_planet": main,
            "main_planet_html": kept.main,
            "other_planets": kept.others,
            "panels": kept.panels,
            "pool_html": pool_html,
            "can_pick": can_pick,
        }
    )
    if kept.pool is None:
        context.update(panels.pool_context(edition, view))
    return context


def replay_context(
    record: GameRecord, state: rules.GameState, viewer: int | None
) -> dict[str, Any]:
    """Evergreen's part of the replay at ``state`` (after some move of ``record``)."""
    names = list(record.players)
    edition = rules.load_edition(record.edition)
    view = player_view(state, viewer)
    return {
        "view": view,
        "planets": presenters.planets(edition, view, names),
        "pool": presenters.pool(edition, view),
        "ai_cards": presenters.cards(edition, view["ai_cards"]),
        "fertility": presenters.fertility_zone(edition, view),
        "scores": presenters.scores(edition, view, names),
        "season_name": presenters.season_name(view["season"]),
    }
