"""Serializers of the REST API: request bodies, game summaries and the documented views.

Request serializers check types and defaults only; every rule (player counts, legal
moves, whose turn it is) is checked once, by ``games.services`` and the engine, so the
API answers with their codes and messages.

The player's view of a game is built by its kind's ``player_view``, the only door through
which state leaves the engine; the kind's ``view_schema`` serializer documents its shape
for the OpenAPI schema (Evergreen's in ``games.evergreen.api_serializers``; the tests
validate real responses against the schema, so the two cannot drift apart silently).
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.module_loading import import_string
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games import kinds, links
from games.models import Game, Seat

STATUS_BY_NAME = {status.name.lower(): status for status in Game.Status}  # as Game.status_name


# --- Errors ------------------------------------------------------------------------------


class ErrorSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="A stable machine-readable code, e.g. `not_your_turn`.")
    message = serializers.CharField(help_text="A sentence a player can read.")
    errors = serializers.DictField(  # type: ignore[assignment]  # documents a response only
        required=False,
        help_text="For malformed request bodies: the problems per field.",
    )


# --- Requests ----------------------------------------------------------------------------


class LoginSerializer(serializers.Serializer[Any]):
    email = serializers.EmailField()
    password = serializers.CharField(trim_whitespace=False, style={"input_type": "password"})


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(
        help_text="Send it as `Authorization: Token <token>` on every other request."
    )


class GameCreateSerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField(
        default=2, help_text="Seats, 1 to 4 (1: solo against the A.I. drafter)."
    )
    computer_seats = serializers.IntegerField(
        default=0, help_text="How many seats after yours computer players fill."
    )
    bot = serializers.CharField(
        default="",
        allow_blank=True,
        help_text="The computer player of `computer_seats` (Evergreen: easy, medium, hard, "
        'strong, greedy, random; the game\'s default, "strong", when left out); another '
        'name is refused with the code "bad_bot".',
    )
    kind = serializers.CharField(
        required=False, help_text='The game: "evergreen" (the default) or "verdant".'
    )
    game = serializers.CharField(required=False, help_text="The same as `kind`.")
    sun_start = serializers.ChoiceField(
        choices=["N", "E", "S", "W"], default="N", help_text="Evergreen: where the Sun starts."
    )
    options = serializers.DictField(
        required=False, help_text="Options of the game's kind (Evergreen has none besides the Sun)."
    )
    rated = serializers.BooleanField(default=False)
    days_per_move = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Days per move: 1, 2, 3, 5 or 7 (null: no time control).",
    )
    hours_per_move = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Hours per move for fast games, 1 to 72 (instead of days_per_move).",
    )
    time_bank_hours = serializers.IntegerField(
        required=False, default=0, help_text="Extra time each player may spend once, in hours."
    )
    timeout_policy = serializers.ChoiceField(
        choices=["bot", "minimal"],
        default="bot",
        help_text='On a missed deadline: "bot" (a computer player moves) or "minimal".',
    )

    chat_spectators = serializers.BooleanField(
        default=False,
        help_text="Whether spectators may read the game's chat (players always can), as the "
        "lobby's create form offers.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        game = attrs.pop("game", None)
        if game is not None and attrs.setdefault("kind", game) != game:
            raise serializers.ValidationError({"game": _("Name the game once: kind or game.")})
        return attrs


class JoinSerializer(serializers.Serializer[Any]):
    invite_code = serializers.CharField(
        required=False, help_text="The code of an invitation link (optional for open games)."
    )


SUN_SCHEMA = {
    "type": "string",
    "pattern": "^[NESW]$",
    "description": "A Sun position: N, E, S or W.",
}


@extend_schema_field(SUN_SCHEMA)
class SunField(serializers.CharField):
    """A Sun position in a response (N, E, S, W)."""


class OutcomeSerializer(serializers.Serializer[Any]):
    scores = serializers.ListField(child=serializers.IntegerField())
    ranking = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField()
    title = serializers.CharField(allow_null=True)


# --- Games -------------------------------------------------------------------------------


class SeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    name = serializers.CharField()
    bot = serializers.CharField(
        help_text='The computer player ("strong", "greedy", ...) playing the seat, else "".'
    )
    is_open = serializers.BooleanField()
    is_you = serializers.BooleanField()
    score = serializers.IntegerField()
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When this seat must have moved; null when it need not act."
    )
    handed_to_bot = serializers.BooleanField(
        help_text="True when a computer player took the seat over after missed deadlines."
    )
    on_vacation_until = serializers.DateTimeField(
        allow_null=True, help_text="The player's clocks are paused until then."
    )


def seat_json(seat: Seat, me: Seat | None) -> dict[str, Any]:
    player = getattr(seat.user, "player", None) if seat.user_id else None
    vacation = getattr(player, "vacation_until", None)
    if vacation is not None and vacation <= timezone.now():
        vacation = None
    return {
        "position": seat.position,
        "name": seat.name,
        "bot": seat.bot,
        "is_open": seat.is_open,
        "is_you": me is not None and seat.pk == me.pk,
        "score": seat.score,
        "deadline": _when(seat.deadline),
        "handed_to_bot": seat.handed_to_bot,
        "on_vacation_until": _when(vacation),
    }


class RankingSerializer(serializers.Serializer[Any]):
    cards = serializers.ListField(
        child=serializers.CharField(),
        help_text="Cards of this round's pool, most wanted first; [] clears the ranking.",
    )


class RankingResponseSerializer(serializers.Serializer[Any]):
    cards = serializers.ListField(child=serializers.CharField())
    round = serializers.CharField(help_text='The round it applies to, e.g. "s1r3"; "" if none.')


class VacationSerializer(serializers.Serializer[Any]):
    days = serializers.IntegerField(help_text="1 to 30 days; at most 30 days a year in all.")


class VacationResponseSerializer(serializers.Serializer[Any]):
    vacation_until = serializers.DateTimeField(allow_null=True)
    days_used_this_year = serializers.IntegerField()


class GameSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=list(STATUS_BY_NAME))
    version = serializers.IntegerField(
        help_text="Bumped by every change; send it back as `If-Match` to refuse stale moves."
    )
    edition = serializers.CharField()
    players = serializers.IntegerField()
    solo = serializers.BooleanField()
    sun_start = SunField()
    rated = serializers.BooleanField()
    days_per_move = serializers.IntegerField(allow_null=True)
    hours_per_move = serializers.IntegerField(allow_null=True)
    time_bank_hours = serializers.IntegerField()
    timeout_policy = serializers.CharField()
    phase = serializers.CharField(help_text='"draft", "action", "over"; "" before the start.')
    season = serializers.IntegerField()
    round = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    seats = SeatSerializer(many=True)
    my_seat = serializers.IntegerField(
        allow_null=True, help_text="Your seat; null if you have none."
    )
    awaiting = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats that must move now."
    )
    my_move = serializers.BooleanField(help_text="True when the game waits for you.")
    url = serializers.CharField(help_text="This game in the API.")


class GamePageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.CharField(allow_null=True)
    previous = serializers.CharField(allow_null=True)
    results = GameSummarySerializer(many=True)


def _view_schema() -> Any:
    """The serializer documenting the default game's player view (JSON for a kind without)."""
    path = kinds.get(kinds.default_name()).view_schema
    return import_string(path) if path else serializers.JSONField


class DetailSeatSerializer(SeatSerializer):
    hints_used = serializers.IntegerField(
        help_text='Hints this seat took ("what would the computer do?"; unrated games '
        "outside events only), told to every player and spectator."
    )


class GameDetailSerializer(GameSummarySerializer):
    seats = DetailSeatSerializer(many=True)
    invite_url = serializers.CharField(
        allow_null=True,
        help_text="The invitation link, shown to the players of the game while it waits for players.",
    )
    view = _view_schema()(
        allow_null=True,
        help_text="The game as you see it (a spectator's view if you have no seat); "
        "null before the game starts.",
    )


class MoveSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text='What the move is: "pick" or "turn" in Evergreen.')
    payload = serializers.JSONField(help_text="The move as recorded (docs/game-record.md).")
    version = serializers.IntegerField(help_text="The game version this move produced.")


class MoveResultSerializer(GameDetailSerializer):
    move = MoveSerializer()


class RecordSerializer(serializers.Serializer[Any]):
    format = serializers.CharField()
    version = serializers.IntegerField()
    edition = serializers.CharField()
    seed = serializers.IntegerField(
        required=False,
        help_text="Only once the game is over: the seed and the moves reveal the deck order.",
    )
    players = serializers.ListField(child=serializers.CharField())
    options = serializers.DictField()
    moves = serializers.ListField(
        child=serializers.JSONField(),
        help_text="Picks and turns in order; turns not yet revealed to you are left out.",
    )
    in_progress = serializers.BooleanField(
        required=False,
        help_text="Present (true) while the game runs: the record is then partial, without the seed.",
    )
    unrevealed_turns = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="The seats whose turn this round is in but not yet revealed to you.",
    )
    result = OutcomeSerializer(required=False)


def game_summary(
    request: Any,
    game: Game,
    me: Seat | None,
    awaiting: list[int],
    seats: list[Seat] | None = None,
) -> dict[str, Any]:
    """The fields every game listing shows; ``awaiting`` comes from the engine state,
    ``seats`` (in seat order) are the game's (``Game.seats_in_order``) unless given."""
    return {
        "id": game.pk,
        "status": game.status_name,
        "version": game.version,
        "edition": game.edition,
        "players": game.players,
        "solo": game.solo,
        "sun_start": game.sun_start,
        "rated": game.rated,
        "days_per_move": game.days_per_move,
        "hours_per_move": game.hours_per_move,
        "time_bank_hours": game.time_bank_hours,
        "timeout_policy": game.timeout_policy,
        "phase": game.phase,
        "season": game.season,
        "round": game.round,
        "created_at": _when(game.created_at),
        "started_at": _when(game.started_at),
        "finished_at": _when(game.finished_at),
        "seats": [
            seat_json(seat, me) for seat in (game.seats_in_order() if seats is None else seats)
        ],
        "my_seat": me.position if me else None,
        "awaiting": awaiting,
        "my_move": me is not None and me.position in awaiting,
        "url": request.build_absolute_uri(links.url("api:game", game.pk)),
    }


# One field for every moment written: its output reads the settings and the current time
# zone at each call, nothing of its own (a new field each time was ten per game shown).
_MOMENT = serializers.DateTimeField()


def _when(value: Any) -> str | None:
    return None if value is None else _MOMENT.to_representation(value)
