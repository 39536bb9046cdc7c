"""The REST API: thin views that authenticate, parse, call ``games.services`` and answer.

Every read starts with ``games.access.game_for_viewer``; every write is one call to a
service function, which checks the rules and permissions once for the pages and the
API alike. State reaches a response only through its game kind's ``player_view``; the
record is the kind's ``record_for_viewer`` (Evergreen leaves out the seed until the game
is over, and the turns of other seats not yet revealed), the same as the page's download.
A game's own endpoints (Evergreen's pick, turn and targets) are its kind's ``api_urls``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers as drf_serializers
from rest_framework.authtoken.models import Token
from rest_framework.decorators import (
    api_view,
    authentication_classes,
    parser_classes,
    permission_classes,
    throttle_classes,
)
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from evergreen.proxy import client_ip
from games import kinds, services
from games.access import game_for_viewer
from games.models import Game, Seat
from games.ratelimit import check_move_rate
from games.services import ServiceError

from . import serializers as s
from .parsers import JSONParser

MAX_IDEMPOTENCY_KEY = services.MAX_IDEMPOTENCY_KEY


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    descriptions = {
        400: "Malformed request or illegal move: the engine's code and message.",
        401: "No credentials, or a bad token.",
        403: "You are not a player of this game.",
        404: "There is no such game.",
        409: "Not now: not your turn, a stale version, the game is not being played.",
        429: "Too many requests: moves faster than the site allows (code rate_limited) or "
        "too many log-in attempts (throttled, locked_out); wait the time given and try again.",
    }
    return {
        code: OpenApiResponse(s.ErrorSerializer, description=descriptions[code]) for code in codes
    }


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="Any unique string up to 80 characters. Sending the same key again returns "
    "the first result (with the header `Idempotent-Replayed: true`) and plays nothing twice.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description='The game `version` this move was chosen against (as `12` or `"12"`): '
    "refused with 409 `stale_version` if the game has moved on since.",
)
REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[200],
    description="`true` when the key had been used already: `move` is the move first recorded "
    "with it (nothing was played again) and the game is shown as it is now.",
)
GAME_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game.")


# --- Logging in --------------------------------------------------------------------------


class LoginThrottle(AnonRateThrottle):
    """Slows down password guessing: the rate is per client address."""

    scope = "api-token"
    rate = "30/minute"

    def get_rate(self) -> str:
        return self.rate

    def get_ident(self, request: Request) -> str:
        return client_ip(request)  # X-Forwarded-For only as far as our proxies wrote it


@extend_schema(
    operation_id="token_create",
    summary="Get an API token",
    description="Exchange an e-mail address and password for the token to send as "
    "`Authorization: Token <token>`. The same token is returned until it is deleted.",
    request=s.LoginSerializer,
    responses={200: s.TokenSerializer, **_errors(400, 429)},
    auth=[],
    tags=["auth"],
)
@api_view(["POST"])
@authentication_classes([])
@permission_classes([AllowAny])
@parser_classes([JSONParser, FormParser, MultiPartParser])
@throttle_classes([LoginThrottle])
def token(request: Request) -> Response:
    data = _valid(s.LoginSerializer, request.data)
    user = _user_by_email(request, data["email"], data["password"])
    if user is None:
        raise ServiceError(_("The e-mail address or the password is wrong."), "bad_credentials")
    key, _created = Token.objects.get_or_create(user=user)
    return Response({"token": key.key})


def _user_by_email(request: Request, email: str, password: str) -> Any:
    """The active user with this address and password (users log in by e-mail)."""
    User = get_user_model()
    candidates = list(
        User.objects.filter(Q(email__iexact=email) | Q(emailaddress__email__iexact=email))
        .distinct()
        .order_by("pk")
    )
    if not candidates:
        User().set_password(password)  # as long as a real check: no hint that nobody has it
    for candidate in candidates:
        user = authenticate(request._request, username=candidate.get_username(), password=password)
        if user is not None:
            return user
    return None


# --- Games -------------------------------------------------------------------------------


MAX_OFFSET = 1_000_000_000


class GamePagination(LimitOffsetPagination):
    """Limit and offset as documented: a value that is not a whole number in range is
    refused (DRF would quietly use the default instead)."""

    default_limit = 50
    max_limit = 100

    def get_limit(self, request: Request) -> int:
        return self._number(request, "limit", 1, self.max_limit, self.default_limit)

    def get_offset(self, request: Request) -> int:
        return self._number(request, "offset", 0, MAX_OFFSET, 0)

    @staticmethod
    def _number(request: Request, name: str, low: int, high: int, default: int) -> int:
        raw = _query(request, name)
        if raw is None:
            return default
        # Length first: int() refuses 4,301 digits with a ValueError, and the database
        # an OFFSET past its bigint.
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 12 and low <= int(raw) <= high):
            raise ServiceError(
                _("%(name)s must be a whole number from %(low)d to %(high)s.")
                % {"name": name, "low": low, "high": high},
                "bad_" + name,
            )
        return int(raw)


def _query(request: Request, name: str) -> str | None:
    """The query parameter ``name`` given at most once (else refused), or None."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise ServiceError(
            _("The parameter “%(name)s” may be given only once.") % {"name": name}, "bad_query"
        )
    return values[0] if values else None


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
        game = services.create_game(request.user, **data)
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
    parameters=[GAME_ID],
    responses={200: s.GameDetailSerializer, **_errors(401, 404)},
    tags=["games"],
)
@api_view(["GET"])
def game_detail(request: Request, pk: int) -> Response:
    game, seat = game_for_viewer(pk, request.user)
    return Response(_detail(request, game, seat))


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
    if game.state is None:  # not started: no seed drawn, no moves
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


def _detail(request: Request, game: Game, seat: Seat | None) -> dict[str, Any]:
    state = game.engine_state() if game.state is not None else None
    data = s.game_summary(request, game, seat, _awaiting(game, state))
    invite = None
    if seat is not None and game.status == Game.Status.OPEN:
        invite = request.build_absolute_uri(reverse("games:invite", args=[game.invite_code]))
    data["invite_url"] = invite
    position = seat.position if seat else None
    data["view"] = kinds.of(game).player_view(state, position) if state is not None else None
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
    game = result.game  # seats come attached: no second read of the game
    seat = services.seat_of(game, request.user)
    data = _detail(request, game, seat)
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


def _valid(serializer_class: type[drf_serializers.Serializer], data: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ServiceError(_("The request body must be a JSON object."), "bad_request")
    return dict(request.data)


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key", "").strip()
    if len(key) > MAX_IDEMPOTENCY_KEY:
        raise ServiceError(
            _("An Idempotency-Key has at most %(n)d characters.") % {"n": MAX_IDEMPOTENCY_KEY},
            "bad_idempotency_key",
        )
    return key or None


def _expected_version(request: Request, body: dict[str, Any]) -> int | None:
    header = request.headers.get("If-Match", "").strip()
    if header and header != "*":  # "*": any version will do
        raw: Any = header.removeprefix("W/").strip('"')
        if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):  # "²" is a digit too
            raise ServiceError(
                _("If-Match must be the game version, a whole number."), "bad_version"
            )
        version = int(raw)
        if "version" in body and body["version"] != version:
            raise ServiceError(_("If-Match and the body's version disagree."), "bad_version")
        return version
    raw = body.get("version")
    if raw is None:
        return None
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < 2**63:
        raise ServiceError(_("The version must be a whole number."), "bad_version")
    return raw


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


@extend_schema(
    summary="Go on vacation / come back",
    description='POST `{"days": n}` pauses your clocks in every game for n days '
    "(at most 30 days a year); DELETE ends the vacation early and gives unused days back.",
    request=s.VacationSerializer,
    responses={200: s.VacationResponseSerializer, **_errors(400, 401, 409)},
    tags=["players"],
)
@api_view(["POST", "DELETE"])
def vacation(request: Request) -> Response:
    if request.method == "POST":
        data = _valid(s.VacationSerializer, request.data)
        player = services.start_vacation(request.user, data["days"])
    else:
        player = services.end_vacation(request.user)
    return Response(
        {
            "vacation_until": serializers_datetime(player.vacation_until),
            "days_used_this_year": player.vacation_days_used,
        }
    )


def serializers_datetime(value: Any) -> str | None:
    return None if value is None else drf_serializers.DateTimeField().to_representation(value)
