"""Tables that sit down part-way through their game, for the realistic load run
(``capacity.py``).

On a club night the tables are at every stage of their games, and a late game costs the
site more than a new one: its log is longer, its state and its kept parts are bigger.
Tables whose people all arrive at a brand-new game would leave that out of the curve.
So a share of each step's tables (``--ahead-share``) is first played on to a point drawn
uniformly from the first nine tenths of a game, before its people sit down:

* in this process, through the services, as the seated people themselves, each move
  with an idempotency key as a client sends one (the keys join the accepted ones, so the
  run's checks hold the moves to the same account: replayed, stored once, each complete
  round closed once);
* each complete round closed at once, as the worker would (the tasks these moves hand
  off go to this process's own ``memory://`` broker, which no worker reads);
* with the players' mails off meanwhile (a thousand moves a step would otherwise become
  a burst of mails for the worker in the measured window), on again before they sit
  down: the mails of the run are those of its people's own moves.

A game's length is found once per number of players by playing one random game in the
rules engine (through the registry): a four-player game of Evergreen is 112 moves.
"""

from __future__ import annotations

import functools
import random
from typing import Any

AHEAD_AT_MOST = 0.9  # of a game's moves: the table never sits down at a finished game


@functools.cache
def game_length(kind_name: str, players: int) -> int:
    """The moves of a whole game of ``players`` played by random bots (the engine alone)."""
    from games import kinds

    kind = kinds.get(kind_name)
    options = kind.check_setup(players, {})
    state = kind.advance(kind.new_game(kinds.Setup(players, 1, options)))
    moves = 0
    while not kind.is_over(state):
        seat = kind.awaiting(state)[0]
        state = kind.advance(kind.apply(state, kind.bot_move("random", state, seat, moves)))
        if kind.needs_resolution(state):
            state = kind.resolve(state)
        moves += 1
    return moves


def moves_ahead(rng: random.Random, kind_name: str, players: int) -> int:
    """How far to play a table on: uniform over the first ``AHEAD_AT_MOST`` of a game."""
    return rng.randint(0, int(game_length(kind_name, players) * AHEAD_AT_MOST))


def play_ahead(game_id: int, moves: int, seed: int) -> list[str]:
    """Play ``moves`` random moves of game ``game_id`` as its seated people (see the module's
    docstring); the idempotency keys of the moves made, in order."""
    from games import kinds, services
    from games.models import Game, Player

    game = Game.objects.get(pk=game_id)
    kind = kinds.of(game)
    people = {seat.position: seat.user for seat in game.seats.select_related("user")}
    players = list(Player.objects.filter(user__in=list(people.values())))
    modes = {player.pk: player.email_mode for player in players}
    _set_mail(players, dict.fromkeys(modes, Player.EmailMode.OFF))
    keys: list[str] = []
    try:
        for number in range(moves):
            state = game.engine_state()
            if kind.is_over(state):
                break
            seat = kind.awaiting(state)[0]
            key = f"ahead-{game_id}-{number}"
            move = kind.bot_move("random", state, seat, seed + number)
            result = services.submit_move(game_id, people[seat], move, idempotency_key=key)
            keys.append(key)
            game = result.game
            if game.needs_closing:
                services.close_game_round(game_id)
                game = Game.objects.get(pk=game_id)
    finally:
        _set_mail(players, modes)
    return keys


def _set_mail(players: list[Any], modes: dict[int, str]) -> None:
    """Each player's mail mode (``modes``, by the player's id), saved as the profile page
    saves it (the site's cache of its users hears of it)."""
    for player in players:
        player.email_mode = modes[player.pk]
        player.save(update_fields=["email_mode"])
