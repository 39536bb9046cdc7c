"""Verdant's game log told on from a bookmark (``story_on``, games/verdant/story.py): after
any move, for a player or a spectator, the log told on from where an earlier telling stood,
with only the moves since, is the log told from the first move, hidden start placements
included; the chapters it calls final are never told otherwise later."""

from __future__ import annotations

import pickle
from dataclasses import replace

import pytest

from games.verdant import rules
from games.verdant.rules.record import GameRecord
from games.verdant.story import story, story_on

TWO = ("Alice", "Bob")
FOUR = ("Alice", "Bob", "Carol", "Dan")


def played(names: tuple[str, ...], seed: int = 5, moves: int = 500) -> GameRecord:
    """A record of ``moves`` random legal moves (or fewer: the game's end)."""
    record = GameRecord(names, seed)
    state, bot, made = record.start(), rules.make_bot("random", seed), []
    while len(made) < moves and not state.is_over:
        move = bot.choose(state, state.awaiting[0])
        made.append(move)
        state = rules.apply(state, move)
    return replace(record, moves=tuple(made))


def snapshot(record: GameRecord) -> rules.GameState:
    return list(record.states(checked=False))[-1]


@pytest.mark.parametrize(("names", "viewer"), [(TWO, None), (TWO, 1), (FOUR, 2)])
def test_a_log_told_on_from_a_bookmark_is_the_log_told_from_the_first_move(names, viewer):
    record = played(names)
    assert snapshot(record).is_over
    for earlier in [*range(0, 8), *range(8, len(record.moves) + 1, 5)]:
        head = replace(record, moves=record.moves[:earlier])
        before = story_on(head, None, snapshot(head), viewer, names)
        for k in range(earlier, min(earlier + 6, len(record.moves) + 1)):
            since = replace(record, moves=record.moves[earlier:k])
            so_far = replace(record, moves=record.moves[:k])
            on = story_on(since, before.bookmark, snapshot(so_far), viewer, names)
            told = [*before.final, *on.final, *on.rest]
            assert told == story(so_far, snapshot(so_far), viewer, names), (earlier, k)


def test_another_seats_start_is_told_only_once_every_start_is_placed():
    record = played(TWO)
    first = replace(record, moves=record.moves[:1])
    mover = record.moves[0].seat
    for viewer, told in ((mover, True), (1 - mover, False), (None, False)):
        on = story_on(first, None, snapshot(first), viewer, TWO)
        assert bool(on.rest) is told, viewer
        both = replace(record, moves=record.moves[:2])
        later = story_on(
            replace(record, moves=record.moves[1:2]), on.bookmark, snapshot(both), viewer, TWO
        )
        whole = [*on.final, *later.final, *later.rest]
        assert len(whole[0].lines) == 2 and whole[0].title == "Starting plants", viewer


def test_the_final_chapters_stay_as_told_after_every_later_move():
    record = played(FOUR, seed=9)
    final: list = []
    bookmark = None
    for k in range(len(record.moves) + 1):
        so_far = replace(record, moves=record.moves[:k])
        assert story(so_far, snapshot(so_far), 0, FOUR)[: len(final)] == final, k
        since = replace(record, moves=record.moves[k - 1 : k] if k else ())
        on = story_on(since, bookmark, snapshot(so_far), 0, FOUR)
        final, bookmark = final + list(on.final), pickle.loads(pickle.dumps(on.bookmark))
    assert len(final) > 5 and final[-1].scored  # rounds closed, and the game's end told


def test_a_telling_with_no_move_since_keeps_its_bookmark_and_closes_nothing():
    record = replace(played(TWO), moves=played(TWO).moves[:15])
    first = story_on(record, None, snapshot(record), None, TWO)
    again = story_on(replace(record, moves=()), first.bookmark, snapshot(record), None, TWO)
    assert again.bookmark is first.bookmark and again.final == ()
    assert [*first.final, *again.rest] == story(record, snapshot(record), None, TWO)


@pytest.mark.parametrize(("names", "viewer"), [(TWO, None), (FOUR, 3)])
def test_a_log_told_from_the_first_move_for_its_newest_rounds_ends_as_the_whole_log(names, viewer):
    record = played(names, seed=3)
    for k in range(0, len(record.moves) + 1, 3):
        so_far = replace(record, moves=record.moves[:k])
        whole = story_on(so_far, None, snapshot(so_far), viewer, names)
        for newest in (1, 3):
            short = story_on(so_far, None, snapshot(so_far), viewer, names, newest)
            assert short.left_out == max(0, len(whole.final) - newest), (k, newest)
            assert short.final == whole.final[short.left_out :], (k, newest)
            assert short.rest == whole.rest and short.bookmark == whole.bookmark
    assert len(whole.final) > 3


@pytest.mark.parametrize("names", [TWO, ("Alice", "Bob", "Carol"), (*FOUR, "Eve")])
def test_once_the_start_is_over_every_seat_is_told_the_spectators_log(names):
    # What lets the platform tell the log once for all its viewers from then on
    # (``VerdantKind.story_public_at``).
    record = played(names, seed=len(names))
    checked = 0
    for k in range(len(record.moves) + 1):
        so_far = replace(record, moves=record.moves[:k])
        state = snapshot(so_far)
        if state.phase is rules.Phase.START:
            continue
        spectators = story(so_far, state, None, names)
        assert all(story(so_far, state, seat, names) == spectators for seat in range(len(names)))
        checked += 1
    assert checked > 20 and snapshot(record).is_over
