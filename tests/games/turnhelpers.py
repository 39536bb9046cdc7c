"""Helpers for the turn builder's page tests: a known Action-phase position, one step
posted, the steps a page carries."""

from __future__ import annotations

from dataclasses import replace
from html import unescape
from typing import Any

from django.urls import reverse

from games.evergreen import rules
from games.evergreen.rules.pieces import EMPTY, PIECE_CODES
from games.models import Game
from tests.games.gamehelpers import play_until

PLANET = rules.load_edition().planet
HTMX = {"HTTP_HX_REQUEST": "true"}


def set_position(game: Game, cards: dict[int, str], boards: dict[int, dict] | None = None) -> Game:
    """Put the game in the Action phase with these cards and pieces (a known position)."""
    game = play_until(game, lambda s: s.phase is rules.Phase.ACTION)
    state = game.engine_state()
    seats = list(state.seats)
    for index, card in cards.items():
        board = [EMPTY] * PLANET.size
        for space, name in (boards or {}).get(index, {}).items():
            board[PLANET.index(space)] = PIECE_CODES[name]
        seats[index] = replace(seats[index], card=card, board=tuple(board), turn=None)
    game.state = rules.state_to_json(replace(state, seats=tuple(seats), submitted=()))
    game.save(update_fields=["state"])
    return game


def step(client: Any, game: Game, steps: str, value: str, **headers: str) -> Any:
    return client.post(
        reverse("games:turn", args=[game.pk]), {"steps": steps, "step": value}, **headers
    )


def steps_of(response: Any) -> str:
    """The steps carried by the turn form of a rendered page or region."""
    html = response.content.decode()
    start = html.index('name="steps" value="') + len('name="steps" value="')
    return unescape(html[start : html.index('"', start)])
