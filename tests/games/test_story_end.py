"""The end of a game: rank, the score chart, and the rematch (page and API)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.rematches.models import Rematch
from games.scorechart import chart_svg
from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for, client_for, make_user, play_until


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


@pytest.fixture
def finished_game(alice: Any, bob: Any) -> Game:
    """A whole 2-player game, played to its end (a day per move, a time bank, N sun)."""
    game = services.create_game(alice, players=2, days_per_move=2, time_bank_hours=24)
    services.join_game(game.pk, bob)
    game = play_until(Game.objects.get(pk=game.pk), lambda s: s.is_over, limit=1000)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def page(user: Any, game: Game) -> str:
    return client_for(user).get(reverse("games:detail", args=[game.pk])).content.decode()


def rematch(user: Any, game: Game) -> Any:
    return client_for(user).post(reverse("games:rematch", args=[game.pk]))


class TestTheEndOfAGame:
    def test_it_ranks_the_players_with_their_scores(self, finished_game, alice):
        state = finished_game.engine_state()
        html = page(alice, finished_game)
        ranks = re.findall(r'<li class="rank rank-(\d)">.*?</svg> (\d)\. (\w+): (\d+) points', html)
        first = state.outcome.ranking[0]
        assert ranks[0][2] == ("Alice", "Bob")[first]
        assert int(ranks[0][3]) == state.seats[first].score
        assert [int(r[3]) for r in ranks] == sorted((s.score for s in state.seats), reverse=True)

    def test_it_draws_each_players_score_round_by_round(self, finished_game, alice):
        html = page(alice, finished_game)
        chart = re.search(r'<svg class="score-chart".*?</svg>', html, re.S)
        assert chart
        lines = re.findall(
            r'<polyline class="series series-(\d)" fill="none" points="([^"]+)"', chart.group(0)
        )
        assert [seat for seat, _points in lines] == ["0", "1"]
        # the rounds the page shows and those it leaves out (``?rounds=N`` on its link)
        shown = sum(1 for _ in re.finditer(r'<details class="story-round"', html))
        earlier = re.search(r"/log/earlier/\?rounds=(\d+)", html)
        rounds = shown + (int(earlier.group(1)) if earlier else 0)
        assert all(len(points.split()) == rounds + 1 for _seat, points in lines)
        assert "At the end: Alice" in chart.group(0)

    def test_the_score_table_by_season_stays(self, finished_game, alice):
        html = page(alice, finished_game)
        for season in ("Spring", "Summer", "Autumn", "Winter"):
            assert f'<th scope="col">{season}<br>' in html

    def test_a_spectator_sees_the_end_but_no_rematch_button(self, finished_game, carol):
        html = page(carol, finished_game)
        assert "The end of the game" in html
        assert reverse("games:rematch", args=[finished_game.pk]) not in html


class TestTheScoreChart:
    def test_names_are_escaped(self):
        svg = chart_svg([("Spring, round 1", (3, 1))], ["<b>Eve</b>", "Bob & co"])
        assert "<b>" not in svg and "&lt;b&gt;Eve&lt;/b&gt;" in svg and "Bob &amp; co" in svg

    def test_a_game_with_no_round_yet_draws_flat_lines_from_the_setup(self):
        svg = chart_svg([], ["Ann", "Bob"])
        assert svg.count("<polyline") == 2


class TestRematch:
    def test_it_starts_once_every_player_accepted_with_the_same_players_and_settings(
        self, finished_game, alice, bob
    ):
        answer = rematch(alice, finished_game)
        assert answer.status_code == 302
        assert answer["Location"] == reverse("games:detail", args=[finished_game.pk])
        assert Rematch.objects.get(game=finished_game).new_game is None
        html = page(bob, finished_game)
        assert "Accepted by: Alice." in html and "Waiting for: Bob." in html
        assert "Accept the rematch" in html
        assert "Offer a rematch" not in page(alice, finished_game)

        answer = rematch(bob, finished_game)
        new = Rematch.objects.get(game=finished_game).new_game
        assert new is not None
        assert answer["Location"] == reverse("games:detail", args=[new.pk])
        assert new.status == Game.Status.ACTIVE
        assert [(s.position, s.user_id) for s in new.seats.order_by("position")] == [
            (0, alice.pk),
            (1, bob.pk),
        ]
        for field in ("kind", "players", "edition", "sun_start", "options", "rated"):
            assert getattr(new, field) == getattr(finished_game, field)
        assert (new.days_per_move, new.time_bank_hours) == (2, 24)
        assert "Go to the rematch" in page(alice, finished_game)

    def test_accepting_twice_changes_nothing(self, finished_game, alice, bob):
        rematch(alice, finished_game)
        version = Game.objects.get(pk=finished_game.pk).version
        rematch(alice, finished_game)
        assert Game.objects.get(pk=finished_game.pk).version == version
        rematch(bob, finished_game)
        rematch(bob, finished_game)
        assert Game.objects.filter(seats__user=alice).count() == 2

    def test_a_game_against_the_computer_restarts_at_one_click(self, alice):
        game = services.create_game(alice, players=2, computer_seats=1, bot="random")
        game = play_until(game, lambda s: s.is_over, limit=1000)
        rematch(alice, game)
        new = Rematch.objects.get(game=game).new_game
        assert new is not None and new.seats.get(position=1).bot == "random"

    def test_a_solo_game_tells_the_ai_drafters_picks_and_restarts_at_one_click(self, alice):
        game = services.create_game(alice, players=1)
        game = play_until(game, lambda s: s.is_over, limit=1000)
        html = page(alice, game)
        assert "The A.I. drafter took" in html
        assert len(re.findall(r'<li class="rank rank-1">', html)) == 1
        rematch(alice, game)
        new = Rematch.objects.get(game=game).new_game
        assert new is not None and new.solo and new.status == Game.Status.ACTIVE

    def test_a_game_not_over_is_refused_and_nothing_changes(self, two_player_game, alice):
        answer = rematch(alice, two_player_game)
        assert answer.status_code == 409
        assert 'data-code="game_not_over"' in answer.content.decode()
        assert not Rematch.objects.exists()

    def test_someone_without_a_seat_is_refused(self, finished_game, carol):
        answer = rematch(carol, finished_game)
        assert answer.status_code == 403
        assert not Rematch.objects.exists()

    def test_the_page_polls_while_a_rematch_waits(self, finished_game, alice, bob):
        assert 'class="poller"' not in page(bob, finished_game)
        rematch(alice, finished_game)
        assert 'class="poller"' in page(bob, finished_game)


class TestRematchInTheApi:
    def test_offer_accept_and_find_the_new_game(self, finished_game, alice, bob, schema):
        url = reverse("api:rematch", args=[finished_game.pk])
        path = "/api/games/{id}/rematch/"
        schema.check(path, "get", 200, api_client_for(bob).get(url).json())
        assert api_client_for(bob).get(url).json() == {
            "offered": False,
            "accepted": [],
            "waiting_for": [],
            "game": None,
            "url": None,
        }
        first = api_client_for(alice).post(url).json()
        schema.check(path, "post", 200, first)
        assert (first["accepted"], first["waiting_for"], first["game"]) == ([0], [1], None)
        second = api_client_for(bob).post(url).json()
        schema.check(path, "post", 200, second)
        new = Rematch.objects.get(game=finished_game).new_game
        assert second["game"] == new.pk
        assert second["url"].endswith(reverse("api:game", args=[new.pk]))

    def test_refusals_have_codes(self, two_player_game, finished_game, alice, db):
        stranger = make_user("dora")
        answer = api_client_for(alice).post(reverse("api:rematch", args=[two_player_game.pk]))
        assert (answer.status_code, answer.json()["code"]) == (409, "game_not_over")
        assert answer.json()["message"] == "A rematch can be offered once the game is over."
        malformed = api_client_for(alice).post(
            reverse("api:rematch", args=[finished_game.pk]), "{", content_type="application/json"
        )
        assert malformed.status_code == 400 and not Rematch.objects.exists()
        answer = api_client_for(stranger).post(reverse("api:rematch", args=[finished_game.pk]))
        assert (answer.status_code, answer.json()["code"]) == (403, "not_a_player")
        assert (
            api_client_for(None).post(reverse("api:rematch", args=[finished_game.pk])).status_code
            == 401
        )

    def test_the_schema_documents_it(self, db):
        schema = client_for(None).get("/api/schema/").content.decode()
        assert "games_rematch_accept" in schema and "games_rematch_retrieve" in schema
