"""Replaying a game move by move, and downloading its record."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse

from games import services
from games.evergreen import rules
from games.evergreen.rules.record import GameRecord
from games.models import Game
from tests.games.gamehelpers import client_for, play_until


def replay(user: Any, game: Game, query: str = "") -> Any:
    return client_for(user).get(reverse("games:replay", args=[game.pk]) + query)


def record(user: Any, game: Game) -> Any:
    return client_for(user).get(reverse("games:record", args=[game.pk]))


class TestReplay:
    def test_move_zero_is_the_setup(self, two_player_game):
        html = replay(None, two_player_game, "?move=0").content.decode()
        assert "The game is set up." in html
        assert "Move 0 of" in html
        assert html.count('<li class="pool-card') == 3

    def test_each_step_shows_the_state_after_that_move(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.round == 2)
        moves = game.moves.count()
        html = replay(alice, game, "?move=1").content.decode()
        assert f"Move 1 of {moves}" in html
        assert html.count('<li class="pool-card') == 2  # one card picked
        assert "picked" in html
        assert 'href="?move=0" rel="prev"' in html
        assert 'href="?move=2" rel="next"' in html
        assert f'href="?move={moves}" rel="last"' in html

    def test_the_last_step_is_now_and_it_goes_no_further(self, two_player_game):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        moves = game.moves.count()
        for query in ("", "?move=999", f"?move={moves}"):
            html = replay(None, game, query).content.decode()
            assert f"Move {moves} of {moves}" in html
        assert "Move 0 of" in replay(None, game, "?move=-3").content.decode()
        assert replay(None, game, "?move=abc").status_code == 200

    def test_every_step_can_be_reached_with_links(self, two_player_game):
        game = play_until(two_player_game, lambda s: s.round == 2)
        html = replay(None, game, "?move=2").content.decode()
        for k in range(game.moves.count() + 1):
            assert f'href="?move={k}"' in html or k == 2
        assert '<strong aria-current="step">' in html

    def test_a_game_not_started_has_nothing_to_replay(self, alice):
        game = services.create_game(alice, players=2)
        response = replay(None, game)
        assert response.status_code == 200
        assert "nothing to replay" in response.content.decode()

    def test_an_unknown_game_is_404(self, db):
        assert client_for(None).get(reverse("games:replay", args=[999999])).status_code == 404


class TestRecord:
    def test_a_running_game_is_downloaded_without_its_seed(self, two_player_game, alice):
        game = play_until(two_player_game, lambda s: s.round == 2)
        response = record(alice, game)
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        assert response["Content-Disposition"] == (
            f'attachment; filename="evergreen-game-{game.pk}.json"'
        )
        data = json.loads(response.content)
        assert "seed" not in data
        assert str(game.seed) not in response.content.decode()
        assert data["in_progress"] is True
        assert len(data["moves"]) == game.moves.count()

    def test_a_finished_game_has_its_seed_and_replays_to_its_result(self, two_player_game):
        game = play_until(two_player_game, lambda s: s.is_over)
        data = json.loads(record(None, game).content)
        assert data["seed"] == game.seed
        final = GameRecord.from_json(data).replay()
        assert final.outcome is not None
        assert data["result"]["scores"] == list(final.outcome.scores)
        assert list(final.outcome.scores) == [s.score for s in game.engine_state().seats]

    def test_a_game_not_started_has_no_record(self, alice):
        game = services.create_game(alice, players=2)
        assert record(alice, game).status_code == 404
