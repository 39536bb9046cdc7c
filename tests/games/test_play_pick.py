"""Picking a card from the drafting pool on the game page."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.models import Game, Move
from tests.games.gamehelpers import client_for, user_at

HTMX = {"HTTP_HX_REQUEST": "true"}


def pick(user: Any, game: Game, card: str, version: Any, key: str = "k1", **headers: str) -> Any:
    return client_for(user).post(
        reverse("games:pick", args=[game.pk]),
        {"card": card, "version": version, "key": key},
        **headers,
    )


def picker(game: Game) -> tuple[Any, Any]:
    state = game.engine_state()
    return user_at(game, state.to_pick), user_at(game, 1 - state.to_pick)


class TestPicking:
    def test_a_pick_is_recorded_and_redirects_to_the_page(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        card = game.engine_state().pool[1]
        response = pick(me, game, card, game.version)
        assert response.status_code == 303
        assert response["Location"] == reverse("games:detail", args=[game.pk])
        move = Move.objects.get(game=game, idempotency_key="k1")
        assert move.payload["card"] == card

    def test_with_htmx_the_region_comes_back(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        response = pick(me, game, game.engine_state().pool[0], game.version, **HTMX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.lstrip().startswith('<div id="play"')
        assert "Waiting for" in html

    def test_the_same_key_twice_picks_once(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        card = game.engine_state().pool[0]
        assert pick(me, game, card, game.version).status_code == 303
        assert pick(me, game, card, game.version).status_code == 303
        assert Move.objects.filter(game=game, idempotency_key="k1").count() == 1


class TestRefusals:
    def test_a_stale_page_gets_a_clear_message_and_a_fresh_page(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        stale = game.version
        state = game.engine_state()
        # The page was loaded, then the game moved on (here: its version was bumped).
        Game.objects.filter(pk=game.pk).update(version=stale + 1)
        response = pick(me, game, state.pool[0], stale)
        html = response.content.decode()
        assert response.status_code == 409
        assert "Someone has moved since this page was loaded" in html
        assert "<html" in html
        assert f'name="version" value="{stale + 1}"' in html
        assert not Move.objects.filter(game=game, idempotency_key="k1").exists()

    def test_a_second_tab_with_the_old_page_is_told_the_game_moved_on(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        pool = game.engine_state().pool
        assert pick(me, game, pool[0], game.version, key="tab-1").status_code == 303
        response = pick(me, game, pool[1], game.version, key="tab-2")
        assert response.status_code == 409
        assert "Someone has moved since this page was loaded" in response.content.decode()
        assert not Move.objects.filter(game=game, idempotency_key="tab-2").exists()

    def test_a_stale_htmx_pick_is_409_with_the_refreshed_region(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        Game.objects.filter(pk=game.pk).update(version=game.version + 1)
        response = pick(me, game, game.engine_state().pool[0], game.version, **HTMX)
        html = response.content.decode()
        assert response.status_code == 409
        assert 'data-code="stale_version"' in html
        assert html.lstrip().startswith('<div id="play"')

    def test_it_is_not_your_pick(self, two_player_game):
        game = two_player_game
        _, other = picker(game)
        response = pick(other, game, game.engine_state().pool[0], game.version)
        assert response.status_code == 409
        assert 'data-code="not_your_turn"' in response.content.decode()

    def test_a_card_not_in_the_pool_is_refused_with_the_engine_message(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        response = pick(me, game, "wild/nothing", game.version)
        assert response.status_code == 400
        assert "The card wild/nothing is not in the drafting pool." in response.content.decode()

    def test_a_key_too_long_to_store_is_refused_as_the_api_refuses_it(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        response = pick(me, game, game.engine_state().pool[0], game.version, key="k" * 81)
        assert response.status_code == 400
        assert 'data-code="bad_idempotency_key"' in response.content.decode()
        assert not Move.objects.filter(game=game).exists()

    def test_a_form_without_its_version_is_refused(self, two_player_game):
        game = two_player_game
        me, _ = picker(game)
        response = pick(me, game, game.engine_state().pool[0], "")
        assert response.status_code == 400
        assert not Move.objects.filter(game=game, seat__isnull=False, user=me).exists()

    def test_anonymous_is_sent_to_log_in(self, two_player_game):
        response = pick(None, two_player_game, "x", two_player_game.version)
        assert response.status_code == 302
        assert reverse("account_login") in response["Location"]

    def test_a_visitor_without_a_seat_gets_403(self, two_player_game, carol, staff):
        game = two_player_game
        for user in (carol, staff):
            response = pick(user, game, game.engine_state().pool[0], game.version)
            assert response.status_code == 403
        assert not Move.objects.filter(game=game).exclude(user=None).exists()

    def test_a_get_is_not_allowed(self, two_player_game, alice):
        url = reverse("games:pick", args=[two_player_game.pk])
        assert client_for(alice).get(url).status_code == 405
