"""Evergreen's game log told on from a kept bookmark (games/evergreen/story.py): after any
move, with the round revealed or not, for a player or a spectator, the log told on from
where the last telling stood is the log told from the first move."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.evergreen import recap, rules
from games.evergreen.rules.bots import RandomBot
from games.evergreen.rules.record import GameRecord
from games.evergreen.story import story

NAMES = ("Alice", "Bob")


def played(moves: int, seed: int = 7) -> GameRecord:
    """A record of ``moves`` random legal moves (or fewer, if the game ends first)."""
    record = GameRecord(NAMES, seed=seed)
    state, bot, made = record.start(), RandomBot(seed), []
    while len(made) < moves and not state.is_over:
        move = bot.choose(state, state.awaiting[0])
        made.append(move)
        state = rules.apply(state, move)
    return replace(record, moves=tuple(made))


def snapshot(record: GameRecord, revealed: bool) -> rules.GameState:
    """The game's state as the services store it, the last round revealed or not yet."""
    return recap.steps(record.start(), record.moves, closed=revealed)[-1].state


def told_afresh(record: GameRecord, state: rules.GameState, viewer: int | None, settings: Any):
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0
    try:
        return story(record, state, viewer, NAMES)
    finally:
        settings.GAME_FRAGMENT_CACHE_SECONDS = 3600


@pytest.mark.parametrize("viewer", [None, 0])
def test_a_log_told_on_from_a_bookmark_is_the_log_told_from_the_start(kept_parts, settings, viewer):
    record = played(40)
    for k in range(len(record.moves) + 1):
        so_far = replace(record, moves=record.moves[:k])
        for revealed in (False, True):
            state = snapshot(so_far, revealed)
            assert story(so_far, state, viewer, NAMES) == told_afresh(
                so_far, state, viewer, settings
            ), (k, revealed)


def test_a_different_history_never_finds_another_s_bookmark(kept_parts, settings):
    one, other = played(30, seed=7), played(30, seed=8)
    story(one, snapshot(one, True), 0, NAMES)
    assert story(other, snapshot(other, True), 0, NAMES) == told_afresh(
        other, snapshot(other, True), 0, settings
    )


def test_a_seat_never_resumes_from_another_seat_s_bookmark(kept_parts, settings):
    record = played(25)
    for viewer in (1, 0, None):
        state = snapshot(record, False)
        assert story(record, state, viewer, NAMES) == told_afresh(record, state, viewer, settings)
