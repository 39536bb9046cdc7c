"""Verdant's demo games for ``make run`` (called by the ``demo_data`` command): one in
progress waiting for the demo user's turn, one finished. Every move goes through
``games.services``, played by Verdant's computer players as a person's would be."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import services
from games.models import Game

from . import rules

MOVE_LIMIT = 200


def play(game: Game, stop_for: Any, bot: str, until: Callable[[rules.GameState], bool]) -> Game:
    """Bot moves for every seat until ``until(state)`` holds on ``stop_for``'s turn (or
    the game is over); the others move first whenever they can."""
    seats = {seat.position: seat for seat in game.seats.select_related("user")}
    mine = next(p for p, seat in seats.items() if seat.user_id == stop_for.pk)
    bots = {p: rules.make_bot(bot, seed=game.pk * 10 + p) for p in seats}
    for _ in range(MOVE_LIMIT):
        game.refresh_from_db()
        state = game.engine_state()
        if state.is_over or (state.awaiting == (mine,) and until(state)):
            return game
        position = next((p for p in state.awaiting if p != mine), state.awaiting[0])
        services.submit_move(game.pk, seats[position].user, bots[position].choose(state, position))
    raise RuntimeError(f"Demo game #{game.pk} did not get there in {MOVE_LIMIT} moves.")


def make_games(demo: Any, rowan: Any, hazel: Any, bot: str) -> list[tuple[Game, str]]:
    # In progress: round 6 of a 3-player game with goal cards, the demo user to play.
    game = services.create_game(
        demo, kind="verdant", players=3, days_per_move=3, options={"goals": True}
    )
    services.join_game(game.pk, rowan)
    services.join_game(game.pk, hazel)
    play(game, demo, bot, lambda s: s.round >= 6)
    made = [(game, "Verdant, Demo's turn")]
    # Finished: Rowan and Demo.
    game = services.create_game(rowan, kind="verdant", players=2)
    services.join_game(game.pk, demo)
    play(game, demo, bot, lambda s: False)
    made.append((game, "Verdant, finished"))
    return made
