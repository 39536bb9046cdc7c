"""The page refreshes itself cheaply while waiting: unchanged → 204, changed → the region."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.urls import reverse

from games import pollcache, services
from games.models import Game
from tests.games.gamehelpers import client_for, user_at

HTMX = {"HTTP_HX_REQUEST": "true"}


def poll(user: Any, game: Game, version: Any, query: str = "", **headers: str) -> Any:
    url = reverse("games:poll", args=[game.pk]) + f"?version={version}{query}"
    return client_for(user).get(url, **headers)


def make_a_move(game: Game) -> None:
    state = game.engine_state()
    services.submit_move(
        game.pk, user_at(game, state.to_pick), {"type": "pick", "card": state.pool[0]}
    )


class TestPolling:
    def test_the_page_polls_every_15_seconds_with_its_version(self, two_player_game, alice):
        html = client_for(alice).get(reverse("games:detail", args=[two_player_game.pk])).content
        html = html.decode()
        assert 'hx-trigger="every 15s"' in html
        assert f"/poll/?version={two_player_game.version}" in html

    def test_an_unchanged_game_answers_204_with_at_most_one_query(
        self, two_player_game, django_assert_num_queries
    ):
        client = client_for(None)
        url = reverse("games:poll", args=[two_player_game.pk])
        cache.clear()  # the version is read from the database once, then from the cache
        with django_assert_num_queries(1):
            response = client.get(f"{url}?version={two_player_game.version}", **HTMX)
        assert response.status_code == 204
        assert response.content == b""

    def test_a_game_that_moved_on_returns_the_refreshed_region(self, two_player_game, bob):
        game = two_player_game
        old = game.version
        make_a_move(game)
        game.refresh_from_db()
        response = poll(bob, game, old, **HTMX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.lstrip().startswith('<div id="play"')
        assert f"?version={game.version}" in html

    def test_the_refreshed_region_keeps_the_turn_in_progress_and_the_focus(
        self, two_player_game, alice
    ):
        game = two_player_game
        response = poll(alice, game, game.version - 1, "&focus=1", **HTMX)
        assert 'id="planet-1"' in response.content.decode()
        assert "focus=1" in response.content.decode()

    def test_without_htmx_it_sends_you_to_the_page(self, two_player_game, alice):
        response = poll(alice, two_player_game, "old")
        assert response.status_code == 303
        assert response["Location"] == reverse("games:detail", args=[two_player_game.pk])

    def test_an_unknown_game_is_404(self, db):
        assert client_for(None).get(reverse("games:poll", args=[999999])).status_code == 404

    def test_a_finished_game_stops_polling(self, two_player_game):
        from tests.games.gamehelpers import play_until

        game = play_until(two_player_game, lambda s: s.is_over)
        response = poll(None, game, game.version - 1, **HTMX)
        assert "hx-trigger" not in response.content.decode()


class TestPollFromTheCache:
    """The 204 comes from the cache: no session, no user, no query, once the version is known."""

    def test_a_game_saved_with_its_version_is_polled_without_a_query(
        self, two_player_game, django_assert_num_queries
    ):
        game = two_player_game  # created and started through the services: published
        with django_assert_num_queries(0):
            response = poll(None, game, game.version, **HTMX)
        assert response.status_code == 204
        assert "no-store" in response["Cache-Control"]

    def test_a_move_publishes_the_new_version_so_the_next_poll_gets_the_region(
        self, two_player_game, bob
    ):
        game = two_player_game
        old = game.version
        assert poll(bob, game, old, **HTMX).status_code == 204
        make_a_move(game)
        assert pollcache.cached_version(game.pk) == old + 1
        response = poll(bob, game, old, **HTMX)
        assert response.status_code == 200
        assert f"?version={old + 1}" in response.content.decode()

    def test_without_a_cache_the_poll_asks_the_database(self, two_player_game, settings):
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
        game = two_player_game
        assert poll(None, game, game.version, **HTMX).status_code == 204
        assert poll(None, game, game.version - 1, **HTMX).status_code == 200

    def test_a_deleted_game_is_forgotten(self, two_player_game):
        game = two_player_game
        assert poll(None, game, game.version, **HTMX).status_code == 204
        version, pk = game.version, game.pk
        game.delete()
        assert (
            client_for(None)
            .get(reverse("games:poll", args=[pk]) + f"?version={version}")
            .status_code
            == 404
        )


class TestPollThatFindsAChange:
    """When the cache says the game moved on, the view reads the game once, with its
    seats, and compares the version there: no query for the version alone."""

    def test_the_region_after_a_move_reads_the_game_and_its_seats_once(
        self, two_player_game, bob, django_assert_num_queries
    ):
        game = two_player_game
        old = game.version
        make_a_move(game)
        client = client_for(bob)
        with django_assert_num_queries(REGION_QUERIES) as captured:
            response = poll_with(client, game, old)
        assert response.status_code == 200
        reads = [q["sql"] for q in captured.captured_queries]
        assert not [sql for sql in reads if sql.startswith('SELECT "games_game"."version"')]

    def test_a_cache_that_dropped_a_published_version_still_gets_a_204(self, two_player_game, bob):
        game = two_player_game
        make_a_move(game)
        game.refresh_from_db()
        # Redis missed the move's publication: it still holds the version before.
        cache.set(pollcache.version_key(game.pk), game.version - 1, pollcache.TTL_SECONDS)
        response = poll(bob, game, game.version, **HTMX)
        assert response.status_code == 204


# What the region after a change reads in the tests' settings: the session and the user,
# the game, its seats, the moves since the version shown (is it a quiet poll?) and the
# moves the log is told from. One more (the version alone) before it was read with the game.
REGION_QUERIES = 6


def poll_with(client: Any, game: Game, version: int) -> Any:
    url = reverse("games:poll", args=[game.pk]) + f"?version={version}"
    return client.get(url, **HTMX)
