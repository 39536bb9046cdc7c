"""The REST API of conversations: read and post a game's chat and a club's channels, with
the rules of the pages (``conversations.services``, ``conversations.access``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from games.access import game_for_viewer
from games.api.serializers import ErrorSerializer
from games.services import ServiceError
from tournaments.access import club_or_404

from . import access, editing, reading, services
from .models import EDIT_WINDOW_MINUTES, MAX_LENGTH, Message


class MessageSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The message's number.")
    author_id = serializers.IntegerField(help_text="The user who wrote it.")
    author = serializers.CharField(help_text="Their public name.")
    text = serializers.CharField(help_text="As written (plain text: escape it when showing it).")
    created_at = serializers.DateTimeField(help_text="When it was written (ISO 8601, UTC).")
    edited = serializers.BooleanField(help_text="Whether its author changed it.")
    deleted = serializers.BooleanField(
        help_text="Whether its author deleted it (then `text` is empty: show “message deleted”)."
    )


class PostSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(
        max_length=MAX_LENGTH,
        trim_whitespace=True,
        help_text=f"Plain text, 1 to {MAX_LENGTH} characters.",
    )


class ListSerializer(serializers.Serializer[Any]):
    messages = MessageSerializer(many=True)


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    descriptions = {
        400: "Empty or too long (message_empty, message_too_long), or a malformed body.",
        401: "No credentials, or a bad token.",
        403: "Not allowed: not a player of the game (not_a_player), the chat is private "
        "(chat_private), not a member (not_a_member), not an organizer (not_an_organizer) "
        "or not the message's author (not_your_message).",
        404: "There is no such game, club, channel or message.",
        409: "The message is deleted (message_deleted) or hidden (message_hidden), or the "
        f"{EDIT_WINDOW_MINUTES} minutes in which it could be changed are over "
        "(edit_window_closed).",
        429: "Writing faster than the site allows (rate_limited): wait the time given.",
    }
    return {
        code: OpenApiResponse(ErrorSerializer, description=descriptions[code]) for code in codes
    }


def _rows(lines: list[reading.Line]) -> dict[str, Any]:
    return {
        "messages": [
            {
                "id": line.pk,
                "author_id": line.author_id,
                "author": line.name,
                "text": line.text,
                "created_at": line.at,
                "edited": line.edited,
                "deleted": line.deleted,
            }
            for line in lines
        ]
    }


def _text(request: Request) -> str:
    data = PostSerializer(data=request.data)
    if not data.is_valid():
        # The services' sentences and codes, not DRF's, for empty and too long texts.
        raw = request.data.get("text") if hasattr(request.data, "get") else None
        return raw if isinstance(raw, str) else ""
    return str(data.validated_data["text"])


GAME_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The game.")
CLUB = OpenApiParameter("slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The club.")
CHANNEL = OpenApiParameter(
    "channel",
    OpenApiTypes.STR,
    OpenApiParameter.PATH,
    enum=["announce", "discuss"],
    description="`announce`: the organizers' announcements; `discuss`: the members' discussion.",
)


@extend_schema(
    methods=["GET"],
    operation_id="games_messages_list",
    summary="Read a game's chat",
    description="The latest 100 messages, oldest first, without hidden ones and without "
    "those of players you blocked. Players read; spectators only if the game allows it.",
    parameters=[GAME_ID],
    responses={200: ListSerializer, **_errors(401, 403, 404)},
)
@extend_schema(
    methods=["POST"],
    operation_id="games_messages_create",
    summary="Write in a game's chat",
    description="Players of the game only; length and rate limited like the page.",
    parameters=[GAME_ID],
    request=PostSerializer,
    responses={201: MessageSerializer, **_errors(400, 401, 403, 404, 429)},
)
@api_view(["GET", "POST"])
def game_messages(request: Request, pk: int) -> Response:
    game, _seat = game_for_viewer(pk, request.user)
    if request.method == "POST":
        message = services.post_to_game(request.user, game, _text(request))
        return Response(_one(message), status=201)
    access.check_read_game(request.user, game)
    return Response(_rows(reading.lines(reading.game_messages(game.pk), request.user)))


@extend_schema(
    methods=["GET"],
    operation_id="clubs_messages_list",
    summary="Read a club's announcements or discussion",
    description="The latest 100 messages, oldest first, without hidden ones and without "
    "those of players you blocked. Announcements: anyone who can see the club; "
    "discussion: its members.",
    parameters=[CLUB, CHANNEL],
    responses={200: ListSerializer, **_errors(401, 403, 404)},
)
@extend_schema(
    methods=["POST"],
    operation_id="clubs_messages_create",
    summary="Write an announcement (organizers) or in the discussion (members)",
    parameters=[CLUB, CHANNEL],
    request=PostSerializer,
    responses={201: MessageSerializer, **_errors(400, 401, 403, 404, 429)},
)
@api_view(["GET", "POST"])
def club_messages(request: Request, slug: str, channel: str) -> Response:
    club = club_or_404(slug)
    if request.method == "POST":
        message = services.post_to_club(request.user, club, channel, _text(request))
        return Response(_one(message), status=201)
    services.check_channel(channel)
    access.check_read_club(request.user, club, channel)
    return Response(_rows(reading.lines(reading.club_messages(club.pk, channel), request.user)))


MESSAGE_ID = OpenApiParameter(
    "id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The message."
)


@extend_schema(
    methods=["PATCH"],
    operation_id="messages_partial_update",
    summary="Change your message",
    description=f"Its author only, within {EDIT_WINDOW_MINUTES} minutes of writing it; the "
    "same length and rate limits as a new message.",
    parameters=[MESSAGE_ID],
    request=PostSerializer,
    responses={200: MessageSerializer, **_errors(400, 401, 403, 404, 409, 429)},
    tags=["messages"],
)
@extend_schema(
    methods=["DELETE"],
    operation_id="messages_destroy",
    summary="Delete your message",
    description="Its author only, at any time: it stays in its place as “message deleted” "
    "(`deleted` true, `text` empty).",
    parameters=[MESSAGE_ID],
    request=None,
    responses={200: MessageSerializer, **_errors(400, 401, 403, 404, 409)},
    tags=["messages"],
)
@api_view(["PATCH", "DELETE"])
def message(request: Request, pk: int) -> Response:
    found = services.message_or_404(pk)
    if not services.may_read(request.user, found):
        raise ServiceError(_("There is no such message."), "no_such_message", status=404)
    if request.method == "DELETE":
        request.data  # noqa: B018 - parsed, so a malformed body is refused (400)
        return Response(_one(editing.delete(request.user, found)))
    return Response(_one(editing.edit(request.user, found, _text(request))))


def _one(message: Message) -> dict[str, Any]:
    line = reading.lines_of([message], message.author, see_hidden=True, shields={})[0]
    return dict(_rows([line])["messages"][0])
