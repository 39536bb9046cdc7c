"""An open game's page: the seated players keep the invitation link at hand; and no
dynamic page is kept by the browser to be shown again on Back."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games import services, signed_links
from tests.games.gamehelpers import client_for


def page(user: Any, game_pk: int) -> str:
    return client_for(user).get(reverse("games:detail", args=[game_pk])).content.decode()


def test_the_creator_of_an_open_game_sees_the_invitation_link_and_a_copy_button(
    alice: Any,
) -> None:
    game = services.create_game(alice, players=3)
    html = page(alice, game.pk)
    assert "http://testserver" + reverse("games:invite", args=[game.invite_code]) in html
    assert 'data-copy="#invite-url"' in html
    assert "js/copy.js" in html


def test_a_player_who_joined_sees_the_link_until_every_seat_is_taken(
    alice: Any, bob: Any, carol: Any
) -> None:
    game = services.create_game(alice, players=3)
    services.join_game(game.pk, bob)
    assert game.invite_code in page(bob, game.pk)
    services.join_game(game.pk, carol)
    assert game.invite_code not in page(bob, game.pk)
    assert game.invite_code not in page(alice, game.pk)


def test_visitors_without_a_seat_get_the_join_button_not_the_link(alice: Any, bob: Any) -> None:
    game = services.create_game(alice, players=2)
    assert game.invite_code not in page(bob, game.pk)
    assert game.invite_code not in page(None, game.pk)
    assert "Join this game" in page(bob, game.pk)


def test_pages_are_not_kept_by_the_browser_for_back(alice: Any) -> None:
    client = client_for(alice)
    for url in (reverse("games:my_games"), reverse("games:lobby"), reverse("games:home")):
        cache_control = client.get(url)["Cache-Control"]
        assert "no-store" in cache_control and "no-cache" in cache_control


def test_the_calendar_feed_keeps_its_own_caching(alice: Any) -> None:
    token = signed_links.calendar_token(alice)
    response = client_for(None).get(reverse("games:calendar", args=[token]))
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, max-age=300"
