"""Games written in before ``Game.last_message_at`` existed get it from their newest
chat message, so their page still shows the chat."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps

from conversations import services as chat
from games.models import Game

pytestmark = pytest.mark.django_db

backfill = importlib.import_module(
    "conversations.migrations.0003_backfill_game_last_message_at"
).backfill


def test_a_game_with_old_messages_gets_its_newest_message_time(
    game: Game, alice: Any, bob: Any
) -> None:
    chat.post_to_game(alice, game, "Hello")
    newest = chat.post_to_game(bob, game, "Hi!")
    Game.objects.filter(pk=game.pk).update(last_message_at=None)  # as before 0011

    backfill(apps, None)

    game.refresh_from_db()
    assert game.last_message_at == newest.created_at


def test_a_game_nobody_wrote_in_keeps_no_time(game: Game) -> None:
    backfill(apps, None)

    game.refresh_from_db()
    assert game.last_message_at is None
