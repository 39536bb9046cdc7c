"""The game page of a player whose turn is submitted shows their planet as that turn will
leave it, even when the turn took the last pieces of the shared supply (they left the
supply when the turn was submitted)."""

from __future__ import annotations

import re
from dataclasses import replace

from django.urls import reverse

from games import services
from games.evergreen import rules
from games.evergreen.rules import PowerUse, Turn
from games.models import Game
from tests.games.gamehelpers import client_for, user_at
from tests.games.turnhelpers import set_position


def test_a_turn_that_took_the_last_bush_is_shown_on_its_players_planet(two_player_game):
    game = set_position(two_player_game, {0: "rock/bush", 1: "wild/bud"})
    game.state = rules.state_to_json(replace(game.engine_state(), supply=(1, 20)))
    game.save(update_fields=["state"])
    game = Game.objects.get(pk=game.pk)
    player = user_at(game, 0)
    page = reverse("games:detail", args=[game.pk])

    services.submit_move(game.pk, player, Turn(0, "D", (), PowerUse("bush", targets=((1, 0),))))

    game.refresh_from_db()
    assert game.engine_state().supply == (0, 20)
    answer = client_for(player).get(page)
    assert answer.status_code == 200
    planet = re.search(
        r'<svg[^>]*aria-labelledby="planet-0-title".*?</svg>', answer.content.decode(), re.S
    )
    assert planet and planet.group(0).count('<use href="#piece-bush"') == 1  # the planned Bush
