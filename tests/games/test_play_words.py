"""What the game page says, in a player's words: no "(1 of 1)" with nothing left, no
"up to 1 times", no "Waiting for ." while the round is revealed, no "Then:" as a step,
and a turn played in another tab explained."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from games.evergreen.status import status_text
from games.models import Game
from tests.games.gamehelpers import client_for, turn_text
from tests.games.turnhelpers import HTMX, set_position, step, steps_of


def play_region(user: Any, game: Game, steps: str) -> str:
    url = reverse("games:detail", args=[game.pk]) + "?" + urlencode({"turn": steps})
    return client_for(user).get(url).content.decode()


def test_a_power_of_level_one_can_be_applied_once(two_player_game: Game, alice: Any) -> None:
    game = set_position(two_player_game, {0: "snow/bush", 1: "wild/bud"})
    html = play_region(alice, game, turn_text("A", "before"))
    assert "Plant Bush can be applied once this round." in html
    assert "up to 1 times" not in html


def test_with_nothing_left_to_apply_the_prompt_says_so(two_player_game: Game, alice: Any) -> None:
    game = set_position(two_player_game, {0: "snow/bush", 1: "wild/bud"})
    response = step(client_for(alice), game, turn_text("A", "before"), "4,4", **HTMX)
    html = response.content.decode()
    assert "Plant Bush can do nothing more this round." in html
    assert "(1 of 1)" not in html


def test_moving_on_to_the_other_part_is_not_listed_as_a_step(
    two_player_game: Game, alice: Any
) -> None:
    game = set_position(two_player_game, {0: "snow/bush", 1: "wild/bud"}, {0: {(1, 1): "sprout"}})
    response = step(
        client_for(alice), game, turn_text("B", "before", ("bush", (4, 4))), "next", **HTMX
    )
    assert steps_of(response) == turn_text("B", "before", ("bush", (4, 4)), "next")
    steps = response.content.decode().split('class="turn-steps"')[1].split("</ol>")[0]
    assert "Then:" not in steps
    assert steps.count("<li>") == 3  # the Action, the Power's timing, the Bush


def test_submitting_with_nothing_placed_says_what_it_means(
    two_player_game: Game, alice: Any
) -> None:
    game = set_position(two_player_game, {0: "snow/bush", 1: "wild/bud"}, {0: {(1, 1): "sprout"}})
    note = "submitting now plays your turn without any effect"
    assert note in play_region(alice, game, turn_text("A", "none"))
    assert note not in play_region(alice, game, turn_text("A", "none", ("plant", (0, 2))))


def test_a_turn_already_played_in_another_tab_is_explained(
    two_player_game: Game, alice: Any
) -> None:
    game = set_position(two_player_game, {0: "snow/bush", 1: "wild/bud"}, {0: {(1, 1): "sprout"}})
    client = client_for(alice)
    url = reverse("games:submit_turn", args=[game.pk])
    assert client.post(url, {"steps": turn_text("A", "none"), "key": "tab-1"}).status_code == 303
    response = step(client, game, turn_text("A"), "none", **HTMX)  # the other tab builds on
    html = response.content.decode()
    assert response.status_code == 409
    assert "You have already played your turn this round." in html
    assert "Your turn is in" in html  # and the region shows the game as it is


def test_while_the_round_is_revealed_nobody_is_waited_for_by_name() -> None:
    view = {"viewer": 0, "phase": "action", "awaiting": [], "seats": [{"submitted": True}] * 2}
    assert status_text(view, ["Alice", "Bob"], "active") == "Revealing the round…"
    view = {**view, "viewer": None}
    assert status_text(view, ["Alice", "Bob"], "active") == "Revealing the round…"
