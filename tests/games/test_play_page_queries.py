"""What a fresh render of the game page costs in queries, once the parts kept per version
of the game (``games.fragments``) are there: a player's and a spectator's, with and
without a chat. The page cache is off (the test settings), so every view renders."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from conversations import services as chat
from games.models import Game
from tests.games.gamehelpers import client_for, play_until

# A player: session, user, game, seats. Kept in the cache under stamps that the writes
# changing them replace (games.fragments.stamped): the hints each seat took with whether
# the game is an event's (games.analysis.hints), the player's mute/block/mail choices
# (conversations.shields.kept_choices_of).
PLAYER_QUERIES = 4
# A signed-in spectator: the same (the creator's spectators choice is kept until changed).
SPECTATOR_QUERIES = 4
# A visitor: the game and its seats.
VISITOR_QUERIES = 2


@pytest.fixture
def carol(db: Any) -> Any:
    return get_user_model().objects.create_user("carol", "carol@example.com", "pw")


def warm_client(user: Any, game: Game) -> tuple[Any, str]:
    """A client whose session exists and whose first view filled the kept parts."""
    client = client_for(user)
    url = reverse("games:detail", args=[game.pk])
    assert client.get(url).status_code == 200
    return client, url


@pytest.fixture
def game(kept_parts: Any, two_player_game: Game) -> Game:
    return play_until(two_player_game, lambda s: s.season == 1 and s.round == 3)


def test_a_player_s_fresh_page_costs_four_queries(game, alice, django_assert_max_num_queries):
    client, url = warm_client(alice, game)
    with django_assert_max_num_queries(PLAYER_QUERIES):
        assert client.get(url).status_code == 200


def test_a_spectator_s_fresh_page_costs_as_much(game, carol, django_assert_max_num_queries):
    client, url = warm_client(carol, game)
    with django_assert_max_num_queries(SPECTATOR_QUERIES):
        assert client.get(url).status_code == 200


def test_a_visitor_s_fresh_page_reads_only_the_game(game, django_assert_max_num_queries):
    client, url = warm_client(None, game)
    with django_assert_max_num_queries(VISITOR_QUERIES):
        assert client.get(url).status_code == 200


def test_a_game_with_a_chat_reads_its_messages_once_more(
    game, alice, bob, django_assert_max_num_queries
):
    chat.post_to_game(bob, game, "Good luck, Alice!")
    client, url = warm_client(alice, game)
    with django_assert_max_num_queries(PLAYER_QUERIES + 1):
        html = client.get(url).content.decode()
    assert "Good luck, Alice!" in html
