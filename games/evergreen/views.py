"""Evergreen's own steps on the game page: the standing order of the Draft, the turn
built step by step (checked by the engine, nothing stored until it is submitted) and
its submission. Picks go through the platform's move form (``games.views.play.move``).

They use the platform's page helpers, so refusals, htmx regions and redirects behave
as on every game page.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import services
from games.ratelimit import check_move_rate
from games.views.play import (
    PageError,
    after_write,
    idempotency_key,
    int_or_none,
    refused,
    render_play,
    seated,
)

from . import rules, turnbuilder
from .page import builder as builder_from
from .page import can_build
from .refusals import refused as refusal_of
from .turnbuilder import BuildError


def _ranking_from(data: Any) -> list[str]:
    """The cards ranked in the form (``rank_<card>`` = 1, 2, …; blank: not ranked), in order.
    Which cards may be ranked is the service's to say."""
    ranked: list[tuple[int, str]] = []
    for name, value in data.items():
        if not name.startswith("rank_") or not value.strip():
            continue
        number = int_or_none(value.strip())
        if number is None or number < 1:
            raise services.ServiceError(_("A rank is a whole number from 1 up."), "bad_rank")
        ranked.append((number, name.removeprefix("rank_")))
    if len({number for number, _card in ranked}) != len(ranked):
        raise services.ServiceError(_("Give each card a different rank."), "duplicate_rank")
    return [card for _number, card in sorted(ranked)]


@require_POST
@login_required
def ranking(request: HttpRequest, pk: int) -> HttpResponse:
    """My standing order for this round's Draft: the first ranked card still in the pool is
    taken for me as soon as my pick comes. ``clear`` removes it."""
    seated(pk, request.user)
    try:
        order = [] if request.POST.get("clear") else _ranking_from(request.POST)
        services.set_standing_order(pk, request.user, order)
    except services.ServiceError as exc:
        return refused(request, pk, exc)
    return after_write(request, pk)


def _no_turn_now(pk: int, user: Any) -> services.ServiceError:
    """Why a turn cannot be built or submitted now, in the game's words (for example the
    turn was already played in another tab: the page answering shows the game as it is)."""
    return services.move_refusal(pk, user, "turn") or services.Conflict(
        _("There is no turn to play now: the page shows the game as it is."),
        "no_turn_to_build",
    )


@require_POST
@login_required
def turn_builder(request: HttpRequest, pk: int) -> HttpResponse:
    """One step of the turn in progress: checked by the engine, nothing stored."""
    game, seat = seated(pk, request.user)
    steps = request.POST.get("steps", "")
    state = game.engine_state() if game.is_playable else None
    if state is None or not can_build(state, seat.position):
        return refused(request, pk, _no_turn_now(pk, request.user))
    try:
        built = builder_from(state, seat.position, steps)
    except rules.RulesError as exc:
        return refused(request, pk, refusal_of(exc), steps="")
    try:
        built = turnbuilder.step(state, built, request.POST.get("step", ""))
    except rules.RulesError as exc:
        page_error = PageError.of(refusal_of(exc))
        return render_play(request, game, seat, status=400, builder=built, error=page_error)
    # Nothing was stored: the game read above is the game now, answered from without
    # reading it and its seats again.
    return after_write(request, pk, steps=built.encode(), written=game)


@require_POST
@login_required
def submit_turn(request: HttpRequest, pk: int) -> HttpResponse:
    game, seat = seated(pk, request.user)
    steps = request.POST.get("steps", "")
    key = idempotency_key(request)
    try:
        state = game.engine_state() if game.state is not None else None
        if state is not None and can_build(state, seat.position):
            turn = builder_from(state, seat.position, steps).final_turn()
            if turn is None:
                raise BuildError(_("Choose your Action first."), "choose_action")
            move: Any = turn
        else:
            # Not this seat's turn to build: an earlier submission with the same key is
            # repeated as it was; otherwise the service says why no turn can be played.
            move = services.earlier_move(pk, request.user, key)
            if move is None:
                check_move_rate(request)
                raise _no_turn_now(pk, request.user)
        check_move_rate(request)
        result = services.submit_move(pk, request.user, move, idempotency_key=key)
    except services.ServiceError as exc:
        return refused(request, pk, exc, steps=steps)
    except rules.RulesError as exc:
        return refused(request, pk, refusal_of(exc), steps=steps)
    return after_write(request, pk, written=result.game)
