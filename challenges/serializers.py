"""The daily challenge in the REST API: what the endpoints answer (and document)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .board import Board
from .presenters import Today


class TargetSerializer(serializers.Serializer[Any]):
    bot = serializers.CharField(help_text="The computer player that set it, e.g. `strong`.")
    score = serializers.IntegerField()
    title = serializers.CharField(help_text="Its solo title, in your language (may be empty).")


class RowSerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    score = serializers.IntegerField()
    title = serializers.CharField(help_text="The solo title of the score, in your language.")
    game = serializers.IntegerField(source="game_id")
    mine = serializers.BooleanField()


class BoardSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(source="challenge.kind")
    day = serializers.DateField(source="challenge.day")
    rows = RowSerializer(many=True, help_text="Games finished within the day, best first.")
    playing = serializers.IntegerField(
        help_text="Games started and not finished within the day (off the board)."
    )


class ChallengeSerializer(serializers.Serializer[Any]):
    kind = serializers.CharField(help_text="The game, e.g. `evergreen`.")
    title = serializers.CharField()
    day = serializers.DateField(help_text="The UTC day.")
    ends_at = serializers.DateTimeField(help_text="Midnight UTC: later finishes are off the board.")
    target = serializers.SerializerMethodField(
        help_text="The computer player's score on today's deal (null: still being computed)."
    )
    game = serializers.SerializerMethodField(help_text="Your game of it (null: not started).")
    finished = serializers.BooleanField(help_text="Whether your game of it is over.")
    streak = serializers.IntegerField(help_text="UTC days in a row you finished it in time.")
    leaderboard_visible = serializers.SerializerMethodField()
    leaderboard_url = serializers.SerializerMethodField()

    @extend_schema_field(TargetSerializer(allow_null=True))
    def get_target(self, today: Today) -> dict[str, Any] | None:
        challenge = today.challenge
        if challenge.target_score is None:
            return None  # still being computed
        return {
            "bot": challenge.target_bot,
            "score": challenge.target_score,
            "title": today.target_title,
        }

    def get_game(self, today: Today) -> int | None:
        return today.game.pk if today.game is not None else None

    def get_leaderboard_visible(self, today: Today) -> bool:
        return today.board.visible

    def get_leaderboard_url(self, today: Today) -> str:
        return reverse("challenges_api:leaderboard", args=[today.kind])


class StartSerializer(serializers.Serializer[Any]):
    challenge = ChallengeSerializer()
    created = serializers.BooleanField(help_text="False: you had started it already.")
    game_url = serializers.CharField(help_text="The game in the API (`/api/games/<id>/`).")


def board_data(board: Board) -> dict[str, Any]:
    return dict(BoardSerializer(board).data)
