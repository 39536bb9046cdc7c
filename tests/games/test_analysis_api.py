"""The analysis and the hint in the REST API: as the schema says, with stable codes."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.analysis.models import Analysis
from tests.games.analysishelpers import finished_solo, play_to_the_end
from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for, committed

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


def analysis_url(game_id: int) -> str:
    return reverse("analysis_api:analysis", args=[game_id])


def hint_url(game_id: int) -> str:
    return reverse("analysis_api:hint", args=[game_id])


class TestAnalysis:
    def test_asking_answers_202_with_the_analysis_then_200_with_the_stored_one(
        self, schema: ResponseSchema, alice: Any
    ) -> None:
        game = finished_solo(alice)
        client = api_client_for(alice)
        with committed():  # the worker runs it after the commit: the answer says queued
            first = client.post(analysis_url(game.pk))
        assert first.status_code == 202
        schema.check("/api/games/{id}/analysis/", "post", 202, first.json())
        assert first.json()["status"] == "queued" and first.json()["done"] == 0
        again = client.post(analysis_url(game.pk))
        body = again.json()
        assert again.status_code == 200
        assert body["status"] == "done" and body["done"] == body["total"] == 28
        assert len(body["summary"]["mistakes"]) <= 3
        assert (
            sum(r["points_lost"] for r in body["summary"]["by_round"])
            == (body["summary"]["points_lost"])
        )
        read = client.get(analysis_url(game.pk))
        schema.check("/api/games/{id}/analysis/", "get", 200, read.json())
        assert read.json() == body
        assert Analysis.objects.filter(game=game).count() == 1

    def test_each_review_says_what_the_strong_player_would_have_done(self, alice: Any) -> None:
        game = finished_solo(alice)
        client = api_client_for(alice)
        with committed():
            client.post(analysis_url(game.pk))
        body = client.get(analysis_url(game.pk)).json()
        lost = [r for r in body["reviews"] if r["loss"]]
        assert lost, "a greedy player loses points somewhere"
        review = lost[0]
        assert review["comment"].startswith(f"\N{MINUS SIGN}{review['loss']}: ")
        assert f"would have scored {review['loss']} more" in review["comment"]
        assert review["best"] != review["played"]

    def test_it_refuses_while_the_game_runs_with_a_stable_code(
        self, schema: ResponseSchema, alice: Any
    ) -> None:
        game = services.create_game(alice, players=1)
        response = api_client_for(alice).post(analysis_url(game.pk))
        assert response.status_code == 409
        assert response.json()["code"] == "game_not_over"
        schema.check("/api/games/{id}/analysis/", "post", 409, response.json())

    def test_reading_one_never_asked_for_is_404_and_an_outsider_403(
        self, alice: Any, bob: Any
    ) -> None:
        game = finished_solo(alice)
        mine = api_client_for(alice).get(analysis_url(game.pk))
        assert (mine.status_code, mine.json()["code"]) == (404, "no_analysis_yet")
        theirs = api_client_for(bob).post(analysis_url(game.pk))
        assert (theirs.status_code, theirs.json()["code"]) == (403, "not_a_player")
        anonymous = api_client_for(None).get(analysis_url(game.pk))
        assert anonymous.status_code == 401

    def test_the_daily_limit_answers_429(
        self, schema: ResponseSchema, alice: Any, settings: Any
    ) -> None:
        settings.ANALYSIS_DAILY_LIMIT = 0
        game = finished_solo(alice)
        response = api_client_for(alice).post(analysis_url(game.pk))
        assert (response.status_code, response.json()["code"]) == (429, "analysis_daily_limit")
        schema.check("/api/games/{id}/analysis/", "post", 429, response.json())


class TestHint:
    def test_it_suggests_a_move_for_my_current_decision(
        self, schema: ResponseSchema, alice: Any
    ) -> None:
        game = services.create_game(alice, players=1)
        response = api_client_for(alice).post(hint_url(game.pk))
        assert response.status_code == 200
        schema.check("/api/games/{id}/hint/", "post", 200, response.json())
        hint = response.json()
        assert hint["move"]["type"] == "pick"
        assert hint["move"]["card"] in game.engine_state().pool
        assert hint["text"].startswith("Taking ")
        played = services.submit_move(game.pk, alice, hint["move"])  # a legal move as given
        assert played.game.moves_count == 1

    def test_it_is_refused_in_a_rated_game(
        self, schema: ResponseSchema, alice: Any, bob: Any
    ) -> None:
        game = services.create_game(alice, players=2, rated=True)
        services.join_game(game.pk, bob)
        response = api_client_for(alice).post(hint_url(game.pk))
        assert (response.status_code, response.json()["code"]) == (403, "hint_not_allowed")
        schema.check("/api/games/{id}/hint/", "post", 403, response.json())

    def test_it_is_refused_to_a_player_with_nothing_to_decide(self, alice: Any, bob: Any) -> None:
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        waiting = bob if game.engine_state().awaiting == (0,) else alice
        response = api_client_for(waiting).post(hint_url(game.pk))
        assert (response.status_code, response.json()["code"]) == (409, "no_decision")

    def test_it_is_refused_once_the_game_is_over(self, alice: Any) -> None:
        game = finished_solo(alice)
        response = api_client_for(alice).post(hint_url(game.pk))
        assert (response.status_code, response.json()["code"]) == (409, "game_not_active")

    def test_in_the_action_phase_it_suggests_a_whole_turn(self, alice: Any) -> None:
        game = play_to_the_end(
            services.create_game(alice, players=1), until=lambda s: s.phase.value == "action"
        )
        hint = api_client_for(alice).post(hint_url(game.pk)).json()
        assert hint["move"]["type"] == "turn" and hint["text"].startswith("Action ")
        services.submit_move(game.pk, alice, hint["move"])
