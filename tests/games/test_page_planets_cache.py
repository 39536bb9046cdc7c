"""The opponents' planets drawn once per version and language (games.fragments): never
with a seat's unrevealed turn, and drawn again once a move changes the game."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.evergreen import rules
from games.models import Game
from tests.games.gamehelpers import client_for, play_until, submit
from tests.games.test_play_secrets import planet_of

SPROUT_AT_3_3 = 'data-space="3,3" data-piece="sprout"'


@pytest.fixture
def bob_has_played(two_player_game: Game, bob: Any) -> Game:
    """Round 1's Action phase: Bob has planned a Sprout at (3, 3); Alice has not played."""
    game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
    turn = {"type": "turn", "action": "D", "effects": [{"plant": [3, 3]}], "power": None}
    services.submit_move(game.pk, bob, turn)
    game.refresh_from_db()
    return game


def page(user: Any, game: Game, query: str = "") -> str:
    url = reverse("games:detail", args=[game.pk]) + query
    return client_for(user).get(url).content.decode()


def test_bobs_planet_with_his_turn_is_never_the_one_kept_for_everyone(
    kept_parts, bob_has_played, alice, bob, carol
):
    game = bob_has_played
    # Bob looks at Alice's planet: his own, with his turn, is in the row beside it.
    mine = planet_of(page(bob, game, "?focus=0"), 1)
    assert SPROUT_AT_3_3 in mine and "with your submitted turn" in mine
    for viewer in (alice, carol, None, alice):  # the second time from the cache
        assert SPROUT_AT_3_3 not in planet_of(page(viewer, game), 1)


def test_a_planet_kept_for_one_version_is_drawn_again_after_the_reveal(
    kept_parts, bob_has_played, alice, carol
):
    game = bob_has_played
    assert SPROUT_AT_3_3 not in planet_of(page(alice, game), 1)
    submit(game.pk, alice, {"type": "turn", "action": "D"})
    assert SPROUT_AT_3_3 in planet_of(page(alice, game), 1)
    assert SPROUT_AT_3_3 in planet_of(page(carol, game, "?focus=0"), 1)


def test_a_kept_planet_is_the_planet_drawn_afresh(kept_parts, bob_has_played, carol, settings):
    game = bob_has_played
    page(carol, game)
    kept = planet_of(page(carol, game), 1)
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0
    assert planet_of(page(carol, game), 1) == kept
