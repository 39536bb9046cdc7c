"""Asking for an analysis: refused while the game runs, to outsiders and past the daily
limit; stored once per game and player; a run again or a race changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games import kinds
from games import services as game_services
from games.analysis import services, tasks
from games.analysis.models import Analysis
from games.models import Game
from tests.games.analysishelpers import finished_duel, finished_solo
from tests.games.gamehelpers import committed

pytestmark = pytest.mark.django_db


def refusal(call: Any, *args: Any) -> game_services.ServiceError:
    with pytest.raises(game_services.ServiceError) as caught:
        call(*args)
    return caught.value


class TestRefusals:
    def test_it_refuses_a_game_still_being_played(self, alice: Any) -> None:
        game = game_services.create_game(alice, players=1)
        error = refusal(services.request_analysis, game.pk, alice)
        assert (error.code, error.status) == ("game_not_over", 409)
        assert not Analysis.objects.exists()

    def test_it_refuses_someone_without_a_seat(self, alice: Any, bob: Any) -> None:
        game = finished_solo(alice)
        error = refusal(services.request_analysis, game.pk, bob)
        assert (error.code, error.status) == ("not_a_player", 403)
        assert not Analysis.objects.exists()

    def test_a_game_kind_without_an_analyst_offers_none(self, alice: Any) -> None:
        game = game_services.create_game(alice, kind="verdant", players=1)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        error = refusal(services.request_analysis, game.pk, alice)
        assert (error.code, error.status) == ("no_analysis", 400)

    def test_past_the_daily_limit_it_refuses_clearly(self, alice: Any, settings: Any) -> None:
        settings.ANALYSIS_DAILY_LIMIT = 1
        first, second = finished_solo(alice), finished_solo(alice)
        services.request_analysis(first.pk, alice)
        error = refusal(services.request_analysis, second.pk, alice)
        assert (error.code, error.status) == ("analysis_daily_limit", 429)
        assert "1 analysis a day" in error.message
        assert not Analysis.objects.filter(game=second).exists()

    def test_asking_again_for_a_stored_one_does_not_count(self, alice: Any, settings: Any) -> None:
        settings.ANALYSIS_DAILY_LIMIT = 1
        game = finished_solo(alice)
        first, created = services.request_analysis(game.pk, alice)
        again, created_again = services.request_analysis(game.pk, alice)
        assert created and not created_again and again.pk == first.pk


class TestStorage:
    def test_it_reviews_every_pick_and_turn_of_the_player(self, alice: Any) -> None:
        game = finished_solo(alice)
        with committed():  # the worker runs it after the commit
            analysis, _ = services.request_analysis(game.pk, alice)
        analysis.refresh_from_db()
        assert analysis.status == Analysis.Status.DONE
        assert analysis.done == analysis.total == 28
        kinds = [review["kind"] for review in analysis.reviews]
        assert kinds.count("pick") == kinds.count("turn") == 14
        assert all(r["best_points"] >= r["played_points"] for r in analysis.reviews)
        assert all(
            r["loss"] == max(0, round(r["best_points"] - r["played_points"]))
            for r in analysis.reviews
        )

    def test_each_player_of_a_game_gets_their_own_analysis_once(self, alice: Any, bob: Any) -> None:
        game = finished_duel(alice, bob)
        with committed():
            mine, _ = services.request_analysis(game.pk, alice)
            theirs, _ = services.request_analysis(game.pk, bob)
        mine.refresh_from_db()
        theirs.refresh_from_db()
        assert (mine.seat, theirs.seat) == (0, 1)
        assert {r["played"]["seat"] for r in mine.reviews} == {0}
        assert {r["played"]["seat"] for r in theirs.reviews} == {1}
        assert Analysis.objects.filter(game=game).count() == 2

    def test_running_the_task_again_changes_nothing(self, alice: Any) -> None:
        game = finished_solo(alice)
        with committed():
            analysis, _ = services.request_analysis(game.pk, alice)
        analysis.refresh_from_db()
        stored = (analysis.reviews, analysis.done, analysis.finished_at)
        assert services.run(analysis.pk) == "done"
        analysis.refresh_from_db()
        assert (analysis.reviews, analysis.done, analysis.finished_at) == stored

    def test_a_run_resumes_where_the_last_one_stopped_and_a_stale_one_gives_way(
        self, alice: Any, monkeypatch: Any
    ) -> None:
        game = finished_solo(alice)
        analysis, _ = services.request_analysis(game.pk, alice)  # not committed: not run
        assert services.run(analysis.pk, limit=5) == "paused"
        analysis.refresh_from_db()
        assert analysis.status == Analysis.Status.RUNNING
        assert analysis.done == len(analysis.reviews) == 5
        # Another worker stores the next review while this one is still making it:
        analyst = kinds.get("evergreen").analyst
        assert analyst is not None
        review, raced = analyst.review, list[str]()

        def another_worker_first(state: Any, move: Any, budget: str) -> Any:
            if not raced:
                raced.append("started")
                raced.append(services.run(analysis.pk, limit=1))
            return review(state, move, budget)

        monkeypatch.setattr(analyst, "review", another_worker_first)
        assert services.run(analysis.pk, limit=1) == "raced"
        assert raced == ["started", "paused"]
        monkeypatch.undo()
        assert services.run(analysis.pk) == "done"
        analysis.refresh_from_db()
        assert [r["move"] for r in analysis.reviews] == sorted(
            {r["move"] for r in analysis.reviews}
        )
        assert analysis.done == len(analysis.reviews) == 28


class TestFailure:
    def test_a_run_that_breaks_is_marked_failed_and_asking_again_resumes_it_uncounted(
        self, alice: Any, settings: Any, monkeypatch: Any
    ) -> None:
        settings.ANALYSIS_DAILY_LIMIT = 1
        game = finished_solo(alice)
        analyst = kinds.get("evergreen").analyst
        assert analyst is not None
        review, calls = analyst.review, list[Any]()

        def breaks_at_the_fourth(state: Any, move: Any, budget: str) -> Any:
            calls.append(move)
            if len(calls) == 4:
                raise RuntimeError("the search ran out of memory")
            return review(state, move, budget)

        monkeypatch.setattr(analyst, "review", breaks_at_the_fourth)
        analysis, _ = services.request_analysis(game.pk, alice)  # not committed: not run
        with pytest.raises(RuntimeError):
            tasks.run_analysis(analysis.pk)
        analysis.refresh_from_db()
        assert (analysis.status, analysis.done) == (Analysis.Status.FAILED, 3)

        with committed():  # the worker runs it again after the commit
            again, queued = services.request_analysis(game.pk, alice)  # not over the limit
        again.refresh_from_db()
        assert queued and again.pk == analysis.pk
        assert (again.status, again.done, len(again.reviews)) == (Analysis.Status.DONE, 28, 28)
        assert len(calls) == 29  # the three reviewed before the failure were not made again
