"""Helpers for the ratings tests: games finished through ``games.services`` by bots.

Every game is created, joined and played move by move through the services (the moves
chosen by ``RandomBot``), so it ends exactly as a real game ends: ``_store`` marks it
finished and, once committed (``gamehelpers.committed``), sends ``game_ended``, whose
receiver runs the rating task (inline: Celery is eager in the tests). Game seeds are fixed so the results are the same on every run.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from games import services
from games.models import Game, Seat
from games.signals import game_ended
from tests.games.gamehelpers import committed, play_until


@pytest.fixture
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each new game gets the next seed of a fixed sequence."""
    seeds = itertools.count(1000)
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: next(seeds))
    yield


@pytest.fixture
def unrated_on_finish() -> Iterator[None]:
    """Games end without the rating receiver: as when the task's message was lost."""
    from games.receivers import rate_finished_game

    game_ended.disconnect(rate_finished_game, dispatch_uid="games_rate_finished_game")
    try:
        yield
    finally:
        game_ended.connect(rate_finished_game, dispatch_uid="games_rate_finished_game")


def start_game(users: Sequence[Any], *, rated: bool = True) -> Game:
    game = services.create_game(users[0], players=len(users), rated=rated)
    for user in users[1:]:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game


def finish(game: Game, bot_seed: int = 0) -> Game:
    play_until(game, lambda state: state.is_over, bot_seed=bot_seed, limit=3000)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def finished_game(users: Sequence[Any], *, rated: bool = True, bot_seed: int = 0) -> Game:
    return finish(start_game(users, rated=rated), bot_seed)


def scores_by_user(game: Game) -> dict[int, int]:
    return dict(Seat.objects.filter(game=game).values_list("user_id", "score"))


def adjudicated_game(users: Sequence[Any], *, rounds: int = 2) -> Game:
    """A rated game played a little through the services, then ended by adjudication.

    Faster than playing to the end and just as real for what the pages and the API show:
    the game ends through a service (``adjudicate_game``), ``game_ended`` is sent and the
    rating task rates it on the scores it has, exactly as after a last move.
    """
    game = start_game(users)
    play_until(game, lambda state: state.round > rounds or state.season > 1)
    with committed():
        services.adjudicate_game(game.pk)
    game.refresh_from_db()
    return game
