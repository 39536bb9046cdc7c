"""Evergreen's game log kept in the cache (games.fragments): for the game's moves and
snapshot, seat and language; a planned turn stays "planned" for the others until the
round is revealed; a closed round is drawn once; a new version without a move tells
nothing anew."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from games import story as story_module
from games import telling
from games.evergreen import rules
from games.evergreen.kind import Evergreen
from games.evergreen.rules.bots import RandomBot
from games.models import Game
from tests.games.gamehelpers import play_until, submit, user_at
from tests.games.test_story_log import log_of, words


def test_each_language_gets_its_own_log_of_the_same_version(kept_parts, two_player_game):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
    assert "Game log" in log_of(None, game)
    german = words(log_of(None, game, language="de"))
    assert "Spielverlauf" in german and "Frühling, Runde 1" in german


def test_a_planned_turn_is_told_once_the_round_is_revealed(kept_parts, two_player_game, bob):
    game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
    alice = user_at(game, 0)
    submit(game.pk, alice, rules.Turn(0, "D"))
    for viewer in (alice, bob, None):
        text = words(log_of(viewer, game))
        assert "Alice planned their turn." in text and "Action D" not in text
    game = play_until(game, lambda s: s.phase is not rules.Phase.ACTION or s.round > 1)
    game.refresh_from_db()
    for viewer in (alice, bob, None):
        text = words(log_of(viewer, game))
        assert "Alice planned their turn." not in text and "Action D" in text


def test_a_closed_round_is_drawn_once_and_the_log_reads_as_if_drawn_afresh(
    kept_parts, settings, monkeypatch, two_player_game, bob
):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 3))
    first = words(log_of(bob, game))
    game = play_until(game, lambda s: (s.season, s.round) == (1, 4))
    drawn = []
    real_render = story_module.render_to_string

    def counting(name: str, context: Any) -> str:
        drawn.append(name)
        return real_render(name, context)

    monkeypatch.setattr(story_module, "render_to_string", counting)
    kept = words(log_of(bob, game))
    # The rounds told the first time were closed since: only the newest two are drawn.
    assert drawn.count("games/_story_round.html") <= 2
    assert "Spring, round 2" in first and "Spring, round 2" in kept
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0
    assert kept == words(log_of(bob, game))


def test_a_new_version_without_a_move_tells_the_log_no_more(
    kept_parts, monkeypatch, two_player_game, bob
):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
    first = log_of(bob, game)
    told = []
    kind_story_on = Evergreen.story_on

    def counting(self: Any, *args: Any) -> Any:
        told.append(args)
        return kind_story_on(self, *args)

    monkeypatch.setattr(Evergreen, "story_on", counting)
    # What a join, a deadline or a rematch offer does: the version moves, the moves do not.
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    assert log_of(bob, game) == first and told == []
    state = game.engine_state()
    seat = state.awaiting[0]
    submit(game.pk, user_at(game, seat), RandomBot(0).choose(state, seat))
    log_of(bob, game)
    assert len(told) == 1  # a move is told
    assert len(told[0][0].moves) == 1  # on from where the last telling stood: that move


def test_the_log_reads_only_the_moves_it_has_not_read_before(
    kept_parts, two_player_game, django_assert_num_queries
):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
    assert telling.record(game) == game.record()
    game = play_until(game, lambda s: (s.season, s.round) == (1, 3))
    game.ordered_seats()  # the seats, as the page has them already
    with django_assert_num_queries(1):  # the moves since: one query
        kept = telling.record(game)
    assert kept == game.record()
    stale = Game.objects.get(pk=game.pk)
    stale.moves_count -= 1  # a game row read just before the last move
    assert telling.record(stale).moves == game.record().moves[:-1]


def test_the_moves_read_are_kept_in_chunks_and_a_full_chunk_is_not_kept_again(
    kept_parts, two_player_game, monkeypatch
):
    monkeypatch.setattr(telling, "CHUNK", 4)
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 2))
    assert telling.record(game) == game.record()
    full = game.moves_count // 4  # the chunks filled up by then
    kept: list[str] = []
    keep = telling.fragments.keep
    monkeypatch.setattr(
        telling.fragments,
        "keep",
        lambda where, value: kept.append(where) or keep(where, value),
    )
    game = play_until(game, lambda s: s.round == 3 or s.season > 1)
    assert telling.record(game) == game.record()
    assert kept and all(int(where.rsplit(":", 1)[1]) >= full for where in kept)
    assert telling.record(game) == game.record()  # all found in the chunks
