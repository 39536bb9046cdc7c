"""Integration: ratings computed by a real Celery worker process from a Redis broker.

The game ends in this process (an organizer's adjudication, which ends a game exactly
like a last move: ``game_ended`` after commit); the rating task travels through Redis
to the worker (production settings, not eager), which rates the game on PostgreSQL.
Without Redis these tests are skipped; with ``CI`` set they fail instead.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services, tasks
from games.models import Game, Rating, RatingChange
from tests.games.gamehelpers import play_until
from tests.games.liveworker import Live
from tests.games.ratinghelpers import start_game, unrated_on_finish  # noqa: F401 - fixture

# slow: a real Celery worker process and Redis
pytestmark = pytest.mark.slow


def adjudicate_after_a_few_picks(game: Game) -> None:
    # Picks only: nothing waits for the worker to close a round before the adjudication.
    play_until(game, lambda state: state.picks_done >= 2)
    services.adjudicate_game(game.pk)


def test_a_game_that_ends_is_rated_by_the_worker(
    live: Live,
    alice: Any,
    bob: Any,
    carol: Any,
) -> None:
    game = start_game([alice, bob, carol])
    adjudicate_after_a_few_picks(game)

    live.wait(lambda: RatingChange.objects.filter(game=game).count() == 3, "the rating")
    # the worker logs the task's result just after its transaction commits
    live.wait(lambda: live.task_results("rate_game"), "the rating task's result in the log")
    assert live.task_results("rate_game") == ["True"]
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


@pytest.mark.usefixtures("unrated_on_finish")
def test_the_rating_task_sent_twice_to_a_worker_with_two_threads_rates_once(
    live: Live,
    alice: Any,
    bob: Any,
) -> None:
    game = start_game([alice, bob])
    adjudicate_after_a_few_picks(game)
    live.mark()

    tasks.rate_game.delay(game.pk)
    tasks.rate_game.delay(game.pk)
    live.wait(lambda: len(live.task_results("rate_game")) >= 2, "both rating tasks to run")

    assert sorted(live.task_results("rate_game")) == ["False", "True"]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert Rating.objects.get(user=alice).games == 1


@pytest.mark.usefixtures("unrated_on_finish")
def test_the_safety_net_rates_a_game_whose_task_was_lost(
    live: Live,
    alice: Any,
    bob: Any,
) -> None:
    game = start_game([alice, bob])
    adjudicate_after_a_few_picks(game)  # no task sent: as if the broker had been down
    live.mark()

    tasks.rate_pending_games.delay()
    live.wait(lambda: live.task_results("rate_pending_games"), "the safety net to run")

    assert live.task_results("rate_pending_games") == ["1"]
    assert RatingChange.objects.filter(game=game).count() == 2
