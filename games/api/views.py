"""The REST API: thin views that authenticate, parse, call ``games.services`` and answer.

Every read starts with ``games.access.game_for_viewer`` (the game view with
``game_and_seats_for_viewer``: its seats as a list); every write is one call to a
service function, which checks the rules and permissions once for the pages and the
API alike. State reaches a response only through its game kind's ``player_view``; the
record is the kind's ``record_for_viewer`` (Evergreen leaves out the seed until the game
is over, and the turns of other seats not yet revealed), the same as the page's download.
A game's own endpoints (Evergreen's pick, turn and targets) are its kind's ``api_urls``;
what every endpoint reads from a request is ``requests``, the player's own endpoints
(token, vacation) are ``accounts``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from conversations.services import set_spectators_read
from games import kinds, services
from games.access import game_and_seats_for_viewer, game_for_viewer
from games.models import Game, Seat
from games.ratelimit import check_move_rate
from games.services import ServiceError

from . import quickpoll
from . import serializers as s
from .requests import (
    GAME_ID,
    IDEMPOTENCY_KEY,
    IF_MATCH,
    REPLAYED,
    SINCE,
    GamePagination,
    _body,
    _errors,
    _expected_version,
    _idempotency_key,
    _query,
    _since,
    _valid,
)


@extend_schema(
    methods=["GET"],
    operation_id="games_list",
    summary="List my games, or the open games",
    description="Without `status`: the games where you have a seat, most recently changed "
    "first. `status=open`: every game waiting for players, which anyone may join. "
    "`status=active|finished|aborted`: your games in that state.",
    parameters=[
        OpenApiParameter(
            "status", OpenApiTypes.STR, enum=list(s.STATUS_BY_NAME), description="See above."
        ),
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": 100},
            description="1 to 100; 50 by default.",
        ),
        OpenApiParameter("offset", {"type": "integer", "minimum": 0}),
    ],
    responses={200: s.GamePageSerializer, **_errors(400, 401)},
    tags=["games"],
)
@extend_schema(
    methods=["POST"],
    operation_id="games_create",
    summary="Create a game",
    description="You take seat 0; `computer_seats` computer players take the next seats. "
    "The game starts as soon as every seat is taken.",
    request=s.GameCreateSerializer,
    responses={201: s.GameDetailSerializer, **_errors(400, 401)},
    tags=["games"],
)
@api_view(["GET", "POST"])
def games(request: Request) -> Response:
    if request.method == "POST":
        data = _valid(s.GameCreateSerializer, request.data)
        spectators_read = data.pop("chat_spectators")
        with transaction.atomic():  # the game and its chat setting, together or not at all
            game = services.create_game(request.user, **data)
            set_spectators_read(game, spectators_read)
        game, seat = game_for_viewer(game.pk, request.user)
        return Response(_detail(request, game, seat), status=201)
    status_name = _query(request, "status")
    if status_name == "open":
        found = Game.objects.filter(status=Game.Status.OPEN)
    elif status_name is None or status_name in s.STATUS_BY_NAME:
        found = Game.objects.for_user(request.user)
        if status_name:
            found = found.filter(status=s.STATUS_BY_NAME[status_name])
    else:
        raise ServiceError(
            _("Unknown status “%(status)s”: use open, active, finished or aborted.")
            % {"status": status_name},
            "bad_status",
        )
    found = found.prefetch_related("seats__user__player").order_by("-updated_at", "-pk")
    paginator = GamePagination()
    page = paginator.paginate_queryset(found, request) or []
    results = []
    for game in page:
        me = services.seat_of(game, request.user)
        state = game.engine_state() if game.state is not None else None
        results.append(s.game_summary(request, game, me, _awaiting(game, state)))
    return paginator.get_paginated_response(results)


@extend_schema(
    operation_id="games_retrieve",
    summary="My view of a game",
    description="The game and, in `view`, everything you may see of it: your own planet "
    "and turn, the other planets as revealed, the draft pool, the Fertility Zone. "
    "Anyone logged in may look at any game, as a spectator if they have no seat; "
    "the deck order and the turns not yet revealed are never included.",
    parameters=[GAME_ID, SINCE],
    responses={
        200: s.GameDetailSerializer,
        204: OpenApiResponse(description="Nothing moved since the version given as `since`."),
        **_errors(400, 401, 404),
    },
    tags=["games"],
)
@api_view(["GET"])
def game_detail(request: Request, pk: int) -> Response:
    # Usually answered by ``quickpoll`` before DRF (with a token): the same rule, with
    # the version it read (no second read of it when the game moved on).
    since = _since(request)
    if since is not None and quickpoll.version_read(request, pk) == since:
        return Response(status=204)
    game, seats, seat = game_and_seats_for_viewer(pk, request.user)
    return Response(_detail(request, game, seat, seats))


@extend_schema(
    operation_id="games_join",
    summary="Join a game",
    description="Take the first open seat; the game starts when the last seat is taken.",
    parameters=[GAME_ID],
    request=s.JoinSerializer,
    responses={200: s.GameDetailSerializer, **_errors(400, 401, 403, 404, 409)},
    tags=["games"],
)
@api_view(["POST"])
def join(request: Request, pk: int) -> Response:
    data = _valid(s.JoinSerializer, request.data)
    services.join_game(pk, request.user, invite_code=data.get("invite_code"))
    game, seat = game_for_viewer(pk, request.user)
    return Response(_detail(request, game, seat))


@extend_schema(
    operation_id="games_move",
    summary="Make a move (any game)",
    description="The move as the game records it (docs/game-record.md), e.g. "
    '`{"type": "pick", "card": "snow/sprout"}` in Evergreen; your seat is the one you '
    "play. `version` (or `If-Match`) is the game version the move was chosen against.",
    parameters=[GAME_ID, IDEMPOTENCY_KEY, IF_MATCH, REPLAYED],
    request=OpenApiTypes.OBJECT,
    responses={200: s.MoveResultSerializer, **_errors(400, 401, 403, 404, 409, 429)},
    tags=["moves"],
)
@api_view(["POST"])
def move(request: Request, pk: int) -> Response:
    body = _body(request)
    return _submit(request, pk, {k: v for k, v in body.items() if k != "version"}, body)


@extend_schema(
    operation_id="games_record",
    summary="The game record",
    description="The record as documented in docs/game-record.md. While the game is being "
    "played the `seed` is left out (with the moves it would reveal the deck order) and so "
    "are the turns of other seats not yet revealed, and `in_progress` is true; once it is over "
    "the record is complete and replays on its own.",
    parameters=[GAME_ID],
    responses={200: s.RecordSerializer, **_errors(401, 404)},
    tags=["games"],
)
@api_view(["GET"])
def record(request: Request, pk: int) -> Response:
    game, seat = game_for_viewer(pk, request.user)
    return Response(record_json(game, seat))


# --- Helpers -----------------------------------------------------------------------------


def record_json(game: Game, seat: Seat | None) -> dict[str, Any]:
    """The game record as ``seat`` (None: a spectator) may see it now (as the pages give it)."""
    if game.state is None:  # not started: no moves, and its seed (drawn) stays secret
        data = game.record().to_json()
        del data["seed"]
        return {**data, "in_progress": True}
    return kinds.of(game).record_for_viewer(
        game.record(),
        game.engine_state(),
        seat.position if seat else None,
        finished=game.is_finished,
    )


def _awaiting(game: Game, state: Any) -> list[int]:
    if state is None or not game.is_playable:
        return []
    return list(kinds.of(game).awaiting(state))


def _detail(
    request: Request, game: Game, seat: Seat | None, seats: list[Seat] | None = None
) -> dict[str, Any]:
    """The game as ``seat`` (None: a spectator) sees it; ``seats`` in seat order, else
    the game's (``Game.seats_in_order``: attached by ``game_for_viewer``)."""
    seats = game.seats_in_order() if seats is None else seats
    state = game.engine_state() if game.state is not None else None
    data = s.game_summary(request, game, seat, _awaiting(game, state), seats)
    invite = None
    if seat is not None and game.status == Game.Status.OPEN:
        invite = request.build_absolute_uri(reverse("games:invite", args=[game.invite_code]))
    data["invite_url"] = invite
    position = seat.position if seat else None
    data["view"] = kinds.of(game).player_view(state, position) if state is not None else None
    # The hints each seat took, from the seats already read (locked in a write): no query.
    hints = {seat.position: seat.hints_used for seat in seats}
    for row in data["seats"]:
        row["hints_used"] = hints.get(row["position"], 0)
    return data


def _submit(request: Request, pk: int, move: dict[str, Any], body: dict[str, Any]) -> Response:
    check_move_rate(request)
    result = services.submit_move(
        pk,
        request.user,
        move,
        idempotency_key=_idempotency_key(request),
        expected_version=_expected_version(request, body),
    )
    game, seats = result.game, result.seats  # as the write left them: not read again
    seat = services.seat_of(game, request.user, seats)
    data = _detail(request, game, seat, seats)
    data["move"] = {
        "number": result.move.number,
        "seat": result.move.seat,
        "kind": result.move.kind,
        # Canonical key order: a replayed answer is the same, byte for byte.
        "payload": _canonical(game, result.move.payload, result.move.seat),
        "version": result.move.result_version,
    }
    response = Response(data)
    if result.repeated:
        response["Idempotent-Replayed"] = "true"
    return response


def _canonical(game: Game, payload: Any, seat: int) -> dict[str, Any]:
    kind = kinds.of(game)
    return kind.move_to_json(kind.move_from_json(payload, seat))


@extend_schema(
    summary="My ranking of this round's pool (standing order)",
    description="Rank the cards you want, most wanted first: when your pick comes, the "
    "first of them still in the pool is taken at once, without waiting for you. Private "
    "to you; replace it any time before it is used; `[]` clears it. GET shows yours.",
    parameters=[GAME_ID],
    request=s.RankingSerializer,
    responses={200: s.RankingResponseSerializer, **_errors(400, 401, 403, 404, 409)},
    tags=["moves"],
)
@api_view(["GET", "POST"])
def ranking(request: Request, pk: int) -> Response:
    _game, seat = game_for_viewer(pk, request.user)
    if seat is None:
        raise services.not_a_player()
    if request.method == "POST":
        data = _valid(s.RankingSerializer, request.data)
        seat = services.set_standing_order(pk, request.user, data["cards"])
    return Response({"cards": seat.standing_order, "round": seat.standing_order_round})
