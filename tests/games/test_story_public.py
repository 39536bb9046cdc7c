"""Evergreen's game log is alike for every seat and a spectator (``public_story``): picks
are public and a turn is told only once its round is revealed. So the page tells it once
for all its viewers, as a spectator's, not once per seat after every move."""

from __future__ import annotations

from typing import Any

import pytest

from games.evergreen import rules
from games.evergreen import story as evergreen_story
from games.evergreen.kind import Evergreen
from games.evergreen.rules.bots import RandomBot
from games.evergreen.rules.record import GameRecord
from tests.games.gamehelpers import play_until, tellings, user_at
from tests.games.test_story_log import log_of, words


def logs_at_every_step(players: int, seed: int) -> list[dict[int | None, Any]]:
    """The log as each seat and a spectator would be told it, after every move of a game of
    random moves and after every reveal."""
    names = [f"P{k}" for k in range(players)]
    record = GameRecord(tuple(names), seed)
    state, moves = record.start(), []
    bots = [RandomBot(seed * 10 + k) for k in range(players)]
    told = []
    while state.phase is not rules.Phase.OVER:
        if rules.round_complete(state):
            state = rules.advance(state)  # the reveal, as the worker makes it
        else:
            seat = state.awaiting[0]
            moves.append(bots[seat].choose(state, seat))
            state = rules.advance(
                rules.apply(state, moves[-1], advance_state=False), close_round=False
            )
        played = GameRecord(tuple(names), seed, moves=tuple(moves))
        told.append(
            {v: evergreen_story.story(played, state, v, names) for v in (None, *range(players))}
        )
    return told


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_seat_is_told_the_spectators_log_at_every_step(settings, players):
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0  # each telling from the first move
    for step in logs_at_every_step(players, seed=players):
        spectators = step[None]
        assert all(step[seat] == spectators for seat in range(players))


def test_the_page_tells_the_log_once_for_both_players_and_a_spectator(
    kept_parts, monkeypatch, two_player_game, bob
):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
    alice = user_at(game, 0)
    told = tellings(monkeypatch, Evergreen)
    logs = [words(log_of(viewer, game)) for viewer in (alice, bob, None)]
    assert told == [None]  # as a spectator's, once
    assert logs[0] == logs[1] == logs[2]
