"""The status bar of the game page stands out for the player whose move it is."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from tests.games.gamehelpers import client_for, user_at

pytestmark = pytest.mark.django_db


def status_bar(game: Game, user: object) -> str:
    html = client_for(user).get(reverse("games:detail", args=[game.pk])).content.decode()
    start = html.index('<div class="status-bar')
    return html[start : html.index(">", start) + 1]


def test_the_status_bar_stands_out_for_the_player_who_must_pick(two_player_game: Game) -> None:
    picker = two_player_game.engine_state().awaiting[0]
    assert "is-my-move" in status_bar(two_player_game, user_at(two_player_game, picker))


def test_the_status_bar_is_plain_for_the_player_who_waits(two_player_game: Game) -> None:
    waiting = 1 - two_player_game.engine_state().awaiting[0]
    assert "is-my-move" not in status_bar(two_player_game, user_at(two_player_game, waiting))


def test_the_status_bar_is_plain_for_a_spectator(two_player_game: Game) -> None:
    assert "is-my-move" not in status_bar(two_player_game, None)
