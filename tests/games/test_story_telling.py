"""The game log told on from the telling kept for the game (games/telling.py): after a
move only that move is read and told, what one seat is told is never found by another
seat or a spectator, and a game row read before the last move neither finds a telling of
moves it does not have nor spoils the one kept."""

from __future__ import annotations

import pickle
from dataclasses import replace
from typing import Any

from django.core.cache import cache

from games import fragments, nearcache, telling
from games import story as story_module
from games.evergreen import rules
from games.evergreen.kind import Evergreen
from games.evergreen.rules.bots import RandomBot
from games.kinds import Chapter, StoryLine
from games.models import Game
from tests.games.gamehelpers import play_until, submit, user_at
from tests.games.test_story_log import log_of, words

NAMES = ["Alice", "Bob"]


def one_move(game: Game) -> Game:
    state = game.engine_state()
    seat = state.awaiting[0]
    submit(game.pk, user_at(game, seat), RandomBot(0).choose(state, seat))
    game.refresh_from_db()
    return game


def told_afresh(game: Game, settings: Any) -> list[Chapter]:
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0
    try:
        return story_module.told(game, None, NAMES).chapters
    finally:
        settings.GAME_FRAGMENT_CACHE_SECONDS = 3600


def test_after_a_move_only_that_move_is_read_and_told(
    kept_parts, settings, monkeypatch, two_player_game, django_assert_num_queries
):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 3))
    story_module.told(game, None, NAMES)
    game = one_move(game)
    game.ordered_seats()  # the seats, as the page has them already
    told_on: list[Any] = []
    kind_story_on = Evergreen.story_on

    def counting(self: Any, record: Any, *args: Any) -> Any:
        told_on.append(record.moves)
        return kind_story_on(self, record, *args)

    monkeypatch.setattr(Evergreen, "story_on", counting)
    with django_assert_num_queries(1):  # the move since: one query
        kept = story_module.told(game, None, NAMES)
    assert told_on == [game.record().moves[-1:]]
    assert kept.chapters == told_afresh(game, settings)


def test_what_one_seat_is_told_is_never_found_by_another(
    kept_parts, monkeypatch, two_player_game, bob
):
    # A kind whose log differs by seat: each seat's first telling holds a line for it alone.
    monkeypatch.setattr(Evergreen, "public_story", False)
    kind_story_on = Evergreen.story_on

    def with_a_secret(self: Any, record: Any, bookmark: Any, state: Any, viewer: Any, *rest: Any):
        told = kind_story_on(self, record, bookmark, state, viewer, *rest)
        if bookmark is not None:
            return told
        secret = Chapter("Secret", 0, (StoryLine("turn", f"for seat {viewer} alone"),))
        return replace(told, final=(secret, *told.final))

    monkeypatch.setattr(Evergreen, "story_on", with_a_secret)
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
    alice = user_at(game, 0)
    for _ in range(2):  # told first, then told on from what was kept
        for viewer, seat in ((alice, 0), (bob, 1), (None, None)):
            text = words(log_of(viewer, game))
            secrets = [s for s in (0, 1, None) if f"for seat {s} alone" in text]
            assert secrets == [seat], (viewer, text[:200])
        game = one_move(game)


def test_a_game_row_read_before_the_last_move_is_told_its_own_moves(
    kept_parts, settings, two_player_game
):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
    stale = Game.objects.get(pk=game.pk)
    as_it_was = told_afresh(stale, settings)
    game = one_move(game)
    newer = story_module.told(game, None, NAMES)
    assert story_module.told(stale, None, NAMES).chapters == as_it_was != newer.chapters
    where = telling._key(game, fragments.EVERYONE, NAMES)
    assert cache.get(where).moves == game.moves_count  # the newer telling is kept


def test_a_log_told_on_after_every_move_reads_as_told_afresh(kept_parts, settings, two_player_game):
    game = two_player_game
    while game.engine_state().season < 2:
        assert story_module.told(game, None, NAMES).chapters == told_afresh(game, settings)
        game = one_move(game)
        if game.engine_state().phase is rules.Phase.OVER:
            break


def a_long_game(two_player_game: Game) -> Game:
    """A game in its third season: eight rounds closed or more."""
    game = play_until(two_player_game, lambda s: s.season == 3)
    assert game.engine_state().season == 3
    return game


def test_what_is_kept_under_the_tellings_key_stays_small_however_long_the_game(
    kept_parts, settings, two_player_game
):
    game = a_long_game(two_player_game)
    kept = story_module.told(game, None, NAMES)
    where = telling._key(game, fragments.EVERYONE, NAMES)
    assert kept.count >= 8 and cache.get(where).count == kept.count
    # Each closed chapter is kept under its own key, with its drawing; what is kept under
    # the telling's key is smaller than one of them.
    closed = [cache.get(telling._closed_key(where, k)) for k in range(kept.count)]
    assert closed == list(zip(kept.final, kept.drawn, strict=True))
    assert len(pickle.dumps(cache.get(where))) < min(len(pickle.dumps(pair)) for pair in closed)
    assert kept.chapters == told_afresh(game, settings)
    for _ in range(6):  # told on, round after round, from the head and the chapters kept
        game = one_move(game)
        assert story_module.told(game, None, NAMES).chapters == told_afresh(game, settings)


def test_the_page_reads_only_the_chapters_of_the_rounds_it_shows(
    kept_parts, settings, monkeypatch, two_player_game
):
    game = a_long_game(two_player_game)
    whole = story_module.told(game, None, NAMES)
    asked: list[str] = []
    find_many = nearcache.find_many

    def counting(keys: Any) -> Any:
        asked.extend(keys)
        return find_many(keys)

    monkeypatch.setattr(nearcache, "find_many", counting)
    shown = story_module.told(game, None, NAMES, newest=story_module.ROUNDS_SHOWN)
    assert len(asked) == story_module.ROUNDS_SHOWN < whole.count
    assert shown.count == whole.count
    assert shown.drawn == whole.drawn[-story_module.ROUNDS_SHOWN :]
    assert shown.final == whole.final[-story_module.ROUNDS_SHOWN :]


def test_a_chapter_the_cache_dropped_has_the_log_told_from_the_first_move(
    kept_parts, settings, two_player_game
):
    game = a_long_game(two_player_game)
    story_module.told(game, None, NAMES)
    dropped = telling._closed_key(telling._key(game, fragments.EVERYONE, NAMES), 1)
    cache.delete(dropped)
    nearcache.forget_all()
    assert story_module.told(game, None, NAMES).chapters == told_afresh(game, settings)
    assert cache.get(dropped) is not None  # kept again


def test_a_first_look_at_a_long_game_tells_only_the_rounds_the_page_shows(
    kept_parts, settings, monkeypatch, two_player_game
):
    game = a_long_game(two_player_game)
    whole = told_afresh(game, settings)
    drawn: list[Chapter] = []
    draw = story_module._round_drawn
    monkeypatch.setattr(story_module, "_round_drawn", lambda c, *a: drawn.append(c) or draw(c, *a))
    shown = story_module.told(game, None, NAMES, newest=story_module.ROUNDS_SHOWN)
    assert [*shown.final, *shown.rest] == whole[shown.count - len(shown.final) :]
    assert len(shown.final) == story_module.ROUNDS_SHOWN < shown.count
    assert shown.count + len(shown.rest) == len(whole)
    assert drawn == list(shown.final)  # the older rounds neither told nor drawn
    where = telling._key(game, fragments.EVERYONE, NAMES)
    assert cache.get(telling._closed_key(where, 0)) is None
    # The earlier rounds, asked for, have the log told whole; told on after that as ever.
    assert story_module.told(game, None, NAMES).chapters == whole
    game = one_move(game)
    assert story_module.told(game, None, NAMES).chapters == told_afresh(game, settings)
