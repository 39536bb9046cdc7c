"""The analysis on the replay and the hint on the game page, with and without htmx."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils.html import escape

from games import services
from games.analysis.models import Analysis
from games.analysis.summary import reviews
from tests.games.analysishelpers import finished_solo
from tests.games.gamehelpers import client_for, committed
from tests.tournaments.tourhelpers import current_tables, event_with, make_players
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def replay(client: Any, game_id: int, move: int) -> str:
    response = client.get(reverse("games:replay", args=[game_id]), {"move": move})
    assert response.status_code == 200
    return str(response.content.decode())


class TestReplay:
    def test_a_player_of_a_finished_game_is_offered_the_analysis(self, alice: Any) -> None:
        game = finished_solo(alice)
        page = replay(client_for(alice), game.pk, 3)
        assert "Analyse my play" in page
        assert "You may ask for 5 more analyses today." in page

    def test_spectators_and_running_games_are_offered_nothing(self, alice: Any, bob: Any) -> None:
        finished = finished_solo(alice)
        assert 'id="analysis-panel"' not in replay(client_for(bob), finished.pk, 3)
        running = services.create_game(alice, players=1)
        assert 'id="analysis-panel"' not in replay(client_for(alice), running.pk, 0)

    def test_without_javascript_asking_leads_back_to_the_replay_with_the_review(
        self, alice: Any
    ) -> None:
        game = finished_solo(alice)
        client = client_for(alice)
        with committed():  # the worker runs it after the commit
            response = client.post(reverse("analysis:ask", args=[game.pk]), {"move": "2"})
        assert response.status_code == 303
        assert response["Location"].endswith(f"/games/{game.pk}/replay/?move=2#analysis-panel")
        analysis = Analysis.objects.get(game=game)
        [review] = [r for r in reviews(analysis, ["Alice"]) if r["move"] == 2]
        page = replay(client, game.pk, 2)
        assert escape(review["comment"]) in page
        assert "Points lost by round" in page and "The biggest mistakes" in page
        assert "Expected points to the end of the game" in page

    def test_with_htmx_the_panel_shows_the_progress_and_polls_until_it_is_done(
        self, alice: Any
    ) -> None:
        game = finished_solo(alice)
        client = client_for(alice)
        fragment = client.post(reverse("analysis:ask", args=[game.pk]), {"move": "1"}, headers=HTMX)
        body = fragment.content.decode()
        assert '<progress id="analysis-progress" value="0" max="28">' in body
        assert 'hx-trigger="every 1s"' in body
        analysis = Analysis.objects.get(game=game)
        services_run(analysis.pk, 4)
        polled = client.get(reverse("analysis:panel", args=[game.pk]), {"move": "1"}, headers=HTMX)
        assert 'value="4" max="28"' in polled.content.decode()
        services_run(analysis.pk, None)
        done = client.get(reverse("analysis:panel", args=[game.pk]), {"move": "1"}, headers=HTMX)
        assert "hx-trigger" not in done.content.decode()
        assert "The biggest mistakes" in done.content.decode()

    def test_a_refusal_is_shown_in_the_panel_with_its_code(self, alice: Any, settings: Any) -> None:
        settings.ANALYSIS_DAILY_LIMIT = 0
        game = finished_solo(alice)
        client = client_for(alice)
        fragment = client.post(reverse("analysis:ask", args=[game.pk]), headers=HTMX)
        assert 'data-code="analysis_daily_limit"' in fragment.content.decode()
        page = client.post(reverse("analysis:ask", args=[game.pk]))
        assert page.status_code == 429
        assert not Analysis.objects.exists()


def services_run(analysis_id: int, limit: int | None) -> None:
    from games.analysis import services as analysis_services

    analysis_services.run(analysis_id, limit=limit)


class TestHint:
    def test_the_game_page_offers_the_hint_in_an_unrated_game(self, alice: Any) -> None:
        game = services.create_game(alice, players=1)
        page = client_for(alice).get(reverse("games:detail", args=[game.pk])).content.decode()
        assert "What would the computer do?" in page

    def test_asking_shows_the_strong_players_move_to_the_asking_player(self, alice: Any) -> None:
        game = services.create_game(alice, players=1)
        client = client_for(alice)
        fragment = client.post(reverse("analysis:hint", args=[game.pk]), headers=HTMX)
        assert "The computer would do this: Taking " in fragment.content.decode()
        page = client.post(reverse("analysis:hint", args=[game.pk]))
        assert page.status_code == 200 and "Back to the game" in page.content.decode()

    def test_a_rated_game_offers_no_hint_and_refuses_one(self, alice: Any, bob: Any) -> None:
        game = services.create_game(alice, players=2, rated=True)
        services.join_game(game.pk, bob)
        client = client_for(alice)
        page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
        assert "What would the computer do?" not in page
        refused = client.post(reverse("analysis:hint", args=[game.pk]))
        assert refused.status_code == 403
        assert 'data-code="hint_not_allowed"' in refused.content.decode()

    def test_an_event_game_refuses_the_hint(self, alice: Any) -> None:
        players = make_players(2)
        event = event_with(alice, players, rounds=1, table_size=2, min_table_size=2, rated=False)
        tournament_services.start_event(event, alice)
        [table] = current_tables(event)
        assert not table.game.rated
        player = table.game.seats.get(position=table.game.engine_state().awaiting[0]).user
        page = client_for(player).get(reverse("games:detail", args=[table.game.pk]))
        assert "What would the computer do?" not in page.content.decode()
        refused = client_for(player).post(reverse("analysis:hint", args=[table.game.pk]))
        assert refused.status_code == 403
        assert 'data-code="hint_not_allowed"' in refused.content.decode()

    def test_a_daily_challenge_game_refuses_the_hint(self, alice: Any) -> None:
        from challenges import services as challenges

        entry, _ = challenges.start(alice, "evergreen")
        assert not entry.game.rated
        page = client_for(alice).get(reverse("games:detail", args=[entry.game.pk]))
        assert "What would the computer do?" not in page.content.decode()
        refused = client_for(alice).post(reverse("analysis:hint", args=[entry.game.pk]))
        assert refused.status_code == 403
        assert 'data-code="hint_not_allowed"' in refused.content.decode()
