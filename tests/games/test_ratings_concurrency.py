"""Ratings under concurrency, on PostgreSQL with real row locks and threads.

Each test holds the shared player's Rating row locked until every thread is waiting on
a lock, so the work really overlaps, then lets go and checks that nothing was lost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.db import connections, transaction

from games import services, tasks
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Rating, RatingChange
from games.ratings import NEW_PLAYER, Skill, rate_table
from tests.games.gamehelpers import make_user, user_at
from tests.games.racehelpers import wait_for, waiting_on_locks
from tests.games.ratinghelpers import (  # noqa: F401 - fixtures
    finished_game,
    fixed_seeds,
    start_game,
    unrated_on_finish,
)

pytestmark = [
    pytest.mark.slow,  # threads racing on PostgreSQL
    pytest.mark.skipif(
        getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
        reason="row locks need PostgreSQL",
    ),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fixed_seeds"),
]


def run_at_once(jobs: list[Callable[[], Any]], held_user: Any) -> list[Any]:
    """Run the jobs in threads while ``held_user``'s Rating row is locked here; let go
    once every job waits on a lock. Returns their results (or exceptions), in order."""
    results: list[Any] = [None] * len(jobs)

    def run(index: int) -> None:
        try:
            results[index] = jobs[index]()
        except BaseException as exc:  # pragma: no cover - reported by the caller
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    with transaction.atomic():
        Rating.objects.select_for_update().get(user=held_user)
        for thread in threads:
            thread.start()
        wait_for(
            lambda: waiting_on_locks() >= len(jobs) or not all(t.is_alive() for t in threads),
            "every job to wait on a lock",
            timeout=120,
        )
        overlapped = all(t.is_alive() for t in threads)
    for thread in threads:
        thread.join(120)
    assert not any(isinstance(r, BaseException) for r in results), results
    assert overlapped, f"a job finished without waiting for the others: {results}"
    return results


def assert_chained(user: Any, games: list[Game]) -> None:
    """The user's changes follow one another, each from the rating the last one left."""
    found = list(
        RatingChange.objects.filter(user=user, game__in=games).order_by("pk").select_related("game")
    )
    assert sorted(c.game_id for c in found) == sorted(g.pk for g in games)
    skill = NEW_PLAYER
    for change in found:
        assert (change.mu_before, change.sigma_before) == (skill.mu, skill.sigma)
        skill = Skill(change.mu_after, change.sigma_after)
    rating = Rating.objects.get(user=user)
    assert (rating.mu, rating.sigma, rating.games) == (skill.mu, skill.sigma, len(games))


@pytest.mark.usefixtures("unrated_on_finish")
def test_two_games_rated_at_once_for_a_shared_player_lose_nothing() -> None:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    first = finished_game([alice, bob])
    second = finished_game([carol, alice], bot_seed=1)
    Rating.objects.create(user=alice)

    run_at_once([lambda: tasks.rate_game(first.pk), lambda: tasks.rate_game(second.pk)], alice)

    assert_chained(alice, [first, second])
    for other in (bob, carol):
        assert Rating.objects.get(user=other).games == 1
    assert RatingChange.objects.count() == 4


@pytest.mark.usefixtures("unrated_on_finish")
def test_the_same_game_rated_twice_at_once_is_rated_once() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = finished_game([alice, bob])
    Rating.objects.create(user=alice)

    results = run_at_once([lambda: tasks.rate_game(game.pk)] * 2, alice)

    assert sorted(results) == [False, True]
    assert RatingChange.objects.filter(game=game).count() == 2
    assert_chained(alice, [game])


def play_to_last_move(game: Game) -> tuple[Any, rules.Move]:
    """Play the game through the services up to its very last move; return who makes it
    and the move (not yet sent)."""
    bot = RandomBot(0)
    while True:
        game.refresh_from_db()
        state = game.engine_state()
        seat = state.awaiting[0]
        move = bot.choose(state, seat)
        if rules.advance(rules.apply(state, move, advance_state=False)).is_over:
            return user_at(game, seat), move
        services.submit_move(game.pk, user_at(game, seat), move)


def test_two_games_finishing_at_once_for_a_shared_player_are_both_rated() -> None:
    alice, bob, carol, dave = (make_user(n) for n in ("alice", "bob", "carol", "dave"))
    first = start_game([alice, bob])
    second = start_game([carol, alice, dave])
    last_moves = [play_to_last_move(game) for game in (first, second)]
    Rating.objects.create(user=alice)

    # Each last move ends its game; the rating task runs at once (eager Celery) inside
    # that move's transaction, so the two games' transactions meet on alice's row.
    run_at_once(
        [
            lambda game=game, user=user, move=move: services.submit_move(game.pk, user, move)
            for game, (user, move) in zip((first, second), last_moves, strict=True)
        ],
        alice,
    )

    for game in (first, second):
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
    assert_chained(alice, [first, second])
    assert RatingChange.objects.count() == 5
    order = list(RatingChange.objects.filter(user=alice).order_by("pk"))
    first_game = Game.objects.get(pk=order[0].game_id)
    table = list(first_game.seats.order_by("position").values_list("user_id", "score"))
    expected = rate_table([NEW_PLAYER] * len(table), [score for _u, score in table])
    mine = expected[[u for u, _s in table].index(alice.pk)]
    assert (order[0].mu_after, order[0].sigma_after) == (mine.mu, mine.sigma)
