"""The game page is reused while nothing it shows can have changed."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from tests.games.gamehelpers import client_for, user_at


@pytest.fixture
def page_cache(settings):
    settings.GAME_PAGE_CACHE_SECONDS = 60
    cache.clear()
    yield
    cache.clear()


def fetch(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def test_a_second_view_of_an_unchanged_game_is_served_from_the_cache(page_cache, two_player_game):
    game = two_player_game
    picker = user_at(game, game.engine_state().awaiting[0])
    client = client_for(picker)
    url = f"/games/{game.pk}/"
    fetch(client, url)  # sets the CSRF cookie the cached page's token belongs to
    first, rendered_queries = fetch(client, url)
    again, cached_queries = fetch(client, url)
    assert again == first
    assert cached_queries < rendered_queries and cached_queries <= 3


def test_a_move_changes_the_page_at_once(page_cache, two_player_game):
    game = two_player_game
    state = game.engine_state()
    picker = user_at(game, state.awaiting[0])
    client = client_for(picker)
    url = f"/games/{game.pk}/"
    fetch(client, url)
    before, _ = fetch(client, url)
    services.submit_move(game.pk, picker, {"type": "pick", "card": state.pool[0]})
    after, _ = fetch(client, url)
    assert after != before


def test_each_viewer_gets_their_own_page(page_cache, two_player_game, carol):
    game = two_player_game
    url = f"/games/{game.pk}/"
    pages = {}
    for user in (user_at(game, 0), user_at(game, 1), carol):
        client = client_for(user)
        fetch(client, url)
        pages[user.pk], _ = fetch(client, url)
    assert len(set(pages.values())) == 3


def test_a_page_with_a_flash_message_is_not_cached(page_cache, alice, carol):
    game = services.create_game(alice, players=3)
    client = client_for(carol)
    url = f"/games/{game.pk}/"
    fetch(client, url)
    fetch(client, url)  # cached, without any message
    joined = client.post(f"/games/{game.pk}/join/", follow=True).content.decode()
    assert "You have joined" in joined
    later, _ = fetch(client, url)
    assert "You have joined" not in later
    assert fetch(client, url)[0] == later
