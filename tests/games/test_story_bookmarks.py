"""Evergreen's game log told on from a bookmark (``story_on``, games/evergreen/story.py):
after any move, with the round revealed or not, for a player or a spectator, the log told
on from where an earlier telling stood, with only the moves since, is the log told from
the first move; the chapters it calls final are never told otherwise later."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.evergreen import recap, rules
from games.evergreen.rules.bots import RandomBot
from games.evergreen.rules.record import GameRecord
from games.evergreen.story import story, story_on

NAMES = ("Alice", "Bob")
FOUR = ("Alice", "Bob", "Carol", "Dan")


def played(moves: int, seed: int = 7, names: tuple[str, ...] = NAMES) -> GameRecord:
    """A record of ``moves`` random legal moves (or fewer, if the game ends first)."""
    record = GameRecord(names, seed=seed)
    state, bot, made = record.start(), RandomBot(seed), []
    while len(made) < moves and not state.is_over:
        move = bot.choose(state, state.awaiting[0])
        made.append(move)
        state = rules.apply(state, move)
    return replace(record, moves=tuple(made))


def snapshot(record: GameRecord, revealed: bool) -> rules.GameState:
    """The game's state as the services store it, the last round revealed or not yet."""
    return recap.steps(record.start(), record.moves, closed=revealed)[-1].state


@pytest.mark.parametrize("viewer", [None, 0])
def test_a_log_told_on_from_a_bookmark_is_the_log_told_from_the_start(viewer):
    record = played(40)
    for earlier in range(0, len(record.moves) + 1, 3):
        head = replace(record, moves=record.moves[:earlier])
        before = story_on(head, None, snapshot(head, earlier % 2 == 0), viewer, NAMES)
        for k in range(earlier, min(earlier + 4, len(record.moves) + 1)):
            since = replace(record, moves=record.moves[earlier:k])
            so_far = replace(record, moves=record.moves[:k])
            for revealed in (False, True):
                state = snapshot(so_far, revealed)
                on = story_on(since, before.bookmark, state, viewer, NAMES)
                told = [*before.final, *on.final, *on.rest]
                assert told == story(so_far, state, viewer, NAMES), (earlier, k, revealed)


def test_the_final_chapters_stay_as_told_after_every_later_move_and_reveal():
    record = played(60)
    final: list = []
    bookmark = None
    for k in range(len(record.moves) + 1):
        since = replace(record, moves=record.moves[k - 1 : k] if k else ())
        so_far = replace(record, moves=record.moves[:k])
        for revealed in (False, True):
            whole = story(so_far, snapshot(so_far, revealed), None, NAMES)
            assert whole[: len(final)] == final, k
        on = story_on(since, bookmark, snapshot(so_far, False), None, NAMES)
        final, bookmark = final + list(on.final), on.bookmark
    assert len(final) > 5  # rounds closed on the way


def test_a_telling_with_no_move_since_keeps_its_bookmark_and_closes_nothing():
    record = played(20)
    first = story_on(record, None, snapshot(record, False), None, NAMES)
    again = story_on(replace(record, moves=()), first.bookmark, snapshot(record, True), None, NAMES)
    assert again.bookmark is first.bookmark and again.final == ()
    assert [*first.final, *again.rest] == story(record, snapshot(record, True), None, NAMES)


@pytest.mark.parametrize(("names", "viewer"), [(NAMES, None), (NAMES, 1), (FOUR, 2)])
def test_a_log_told_from_the_deal_for_its_newest_rounds_ends_as_the_whole_log(names, viewer):
    record = played(200, seed=11, names=names)  # to the end of the game
    for k in range(0, len(record.moves) + 1, 2):
        so_far = replace(record, moves=record.moves[:k])
        for revealed in (False, True):
            state = snapshot(so_far, revealed)
            whole = story_on(so_far, None, state, viewer, names)
            for newest in (1, 3):
                short = story_on(so_far, None, state, viewer, names, newest)
                assert short.left_out == max(0, len(whole.final) - newest), (k, revealed)
                assert short.final == whole.final[short.left_out :], (k, revealed, newest)
                assert short.rest == whole.rest and short.bookmark == whole.bookmark
    assert len(whole.final) > 3 and whole.rest  # rounds closed, and the game's end told
