"""Building a turn on the game page step by step, then submitting it."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.urls import reverse

from games.models import Game, Move
from tests.games.gamehelpers import client_for, turn_text
from tests.games.turnhelpers import HTMX, set_position, step, steps_of

# A turn submitted from the page with htmx, in SQL queries (raise it only knowingly):
# with the users kept (production, Redis), one less.
HTMX_TURN_QUERIES = 11


@pytest.fixture
def snow_game(two_player_game: Game) -> Game:
    """Alice holds Snow / Plant Bush with a Sprout at (1, 1); Bob holds Wild / Bud."""
    return set_position(two_player_game, {0: "snow/bush", 1: "wild/bud"}, {0: {(1, 1): "sprout"}})


class TestBuildingSteps:
    def test_choosing_an_action_without_javascript_redirects_to_the_page_with_the_steps(
        self, snow_game, alice
    ):
        response = step(client_for(alice), snow_game, "", "C")
        assert response.status_code == 303
        assert response["Location"] == reverse(
            "games:detail", args=[snow_game.pk]
        ) + "?" + urlencode({"turn": turn_text("C")})
        page = client_for(alice).get(response["Location"])
        assert "Action C" in page.content.decode()
        assert steps_of(page) == turn_text("C")

    def test_with_htmx_each_step_returns_the_play_region(self, snow_game, alice):
        response = step(client_for(alice), snow_game, turn_text("C"), "none", **HTMX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.lstrip().startswith('<div id="play"')
        assert "<html" not in html
        assert steps_of(response) == turn_text("C", "none")
        assert response["HX-Replace-Url"].endswith(
            "?" + urlencode({"turn": turn_text("C", "none")})
        )

    def test_the_legal_spaces_are_buttons(self, snow_game, alice):
        html = step(client_for(alice), snow_game, turn_text("C"), "none", **HTMX).content.decode()
        # The Sprout in Snow can grow; the empty Snow spaces can be planted; nothing else.
        assert 'id="sp-1-1"' in html
        assert 'id="sp-0-2"' in html
        assert 'id="sp-5-3"' not in html
        assert html.count('class="space-button ') == 7

    def test_a_space_applies_its_effect_and_shows_the_change(self, snow_game, alice):
        response = step(client_for(alice), snow_game, turn_text("C", "none"), "1,1", **HTMX)
        html = response.content.decode()
        assert steps_of(response) == turn_text("C", "none", ("grow", (1, 1)))
        assert 'data-space="1,1" data-piece="small"' in html
        assert "with the turn you are building" in html

    def test_an_illegal_space_is_refused_with_the_engine_message(self, snow_game, alice):
        response = step(client_for(alice), snow_game, turn_text("C", "none"), "5,3", **HTMX)
        html = response.content.decode()
        assert response.status_code == 400
        assert 'data-code="wrong_biome"' in html
        assert "Your card is Snow" in html
        assert steps_of(response) == turn_text("C", "none")

    def test_an_illegal_space_without_javascript_shows_the_whole_page(self, snow_game, alice):
        response = step(client_for(alice), snow_game, turn_text("C", "none"), "5,3")
        assert response.status_code == 400
        assert "<html" in response.content.decode()
        assert "Your card is Snow" in response.content.decode()

    def test_undo_removes_the_last_step(self, snow_game, alice):
        response = step(
            client_for(alice), snow_game, turn_text("C", "none", ("grow", (1, 1))), "undo", **HTMX
        )
        assert steps_of(response) == turn_text("C", "none")
        assert 'data-space="1,1" data-piece="sprout"' in response.content.decode()

    def test_start_over_clears_the_turn(self, snow_game, alice):
        response = step(
            client_for(alice), snow_game, turn_text("C", "none", ("grow", (1, 1))), "reset", **HTMX
        )
        assert steps_of(response) == ""
        assert 'id="act-A"' in response.content.decode()

    def test_tampered_steps_are_refused(self, snow_game, alice):
        response = step(
            client_for(alice), snow_game, turn_text("C", "none", ("plant", (5, 3))), "0,1", **HTMX
        )
        assert response.status_code == 400
        assert 'data-code="wrong_biome"' in response.content.decode()
        assert steps_of(response) == ""

    def test_the_power_before_the_action(self, snow_game, alice):
        client = client_for(alice)
        steps = ""
        for value in ("B", "before", "4,4", "next", "1,1"):
            response = step(client, snow_game, steps, value, **HTMX)
            assert response.status_code == 200, response.content.decode()
            steps = steps_of(response)
        assert steps == turn_text("B", "before", ("bush", (4, 4)), "next", ("grow", (1, 1)))
        html = response.content.decode()
        assert "Plant Bush before the Action" in html
        assert 'data-space="4,4" data-piece="bush"' in html

    def test_the_power_after_the_action(self, snow_game, alice):
        client = client_for(alice)
        response = step(
            client, snow_game, turn_text("C", "after", ("grow", (1, 1))), "next", **HTMX
        )
        assert "Done with the Action" not in response.content.decode()
        response = step(client, snow_game, steps_of(response), "2,3", **HTMX)
        assert steps_of(response) == turn_text(
            "C", "after", ("grow", (1, 1)), "next", ("bush", (2, 3))
        )

    def test_the_power_cannot_be_applied_beyond_its_level(self, snow_game, alice):
        response = step(
            client_for(alice), snow_game, turn_text("C", "before", ("bush", (4, 4))), "4,3", **HTMX
        )
        assert response.status_code == 400
        assert 'data-code="too_many_effects"' in response.content.decode()

    def test_the_preview_scores_light_and_forest_with_the_sun_now(self, two_player_game, alice):
        game = set_position(two_player_game, {0: "snow/big", 1: "wild/bud"}, {0: {(1, 1): "small"}})
        response = step(client_for(alice), game, turn_text("B", "none"), "1,1", **HTMX)
        html = response.content.decode()
        # Season 1, Sun in the north: a Big Tree alone in its column is lit (2), Forest 1.
        assert game.engine_state().sun == "N"
        assert "Light 2 + biggest Forest 1 = 3 points" in html


class TestLake:
    @pytest.fixture
    def lake_game(self, two_player_game: Game) -> Game:
        pieces = {(2, 3): "sprout", (3, 2): "small", (4, 3): "sprout"}
        return set_position(two_player_game, {0: "wheat/lake", 1: "wild/bud"}, {0: pieces})

    def test_a_lake_and_its_two_growths(self, lake_game, alice):
        client = client_for(alice)
        steps = turn_text("D", "before")
        response = step(client, lake_game, steps, "3,3", **HTMX)
        html = response.content.decode()
        assert 'id="sp-2-3"' in html and 'id="sp-3-2"' in html and 'id="sp-4-3"' in html
        for value in ("3,2", "2,3"):
            response = step(client, lake_game, steps_of(response), value, **HTMX)
            assert response.status_code == 200
        assert steps_of(response) == turn_text(
            "D", "before", ("lake", (3, 3)), ("lake_grow", (3, 2)), ("lake_grow", (2, 3))
        )
        html = response.content.decode()
        assert 'data-space="3,2" data-piece="big"' in html
        assert 'data-space="3,3" data-piece="lake"' in html
        response = step(client, lake_game, steps_of(response), "4,3", **HTMX)
        assert response.status_code == 400

    def test_the_whole_turn_is_submitted(self, lake_game, alice):
        client = client_for(alice)
        response = client.post(
            reverse("games:submit_turn", args=[lake_game.pk]),
            {
                "steps": turn_text(
                    "D", "before", ("lake", (3, 3)), ("lake_grow", (3, 2)), "next", ("grow", (4, 3))
                ),
                "key": "k-lake",
            },
        )
        assert response.status_code == 303
        move = Move.objects.get(game=lake_game, idempotency_key="k-lake")
        assert move.payload == {
            "type": "turn",
            "seat": 0,
            "action": "D",
            "effects": [{"grow": [4, 3]}],
            "power": {
                "power": "lake",
                "timing": "before",
                "targets": [{"lake": [3, 3], "grow": [[3, 2]]}],
            },
        }


class TestSubmitting:
    def test_a_submitted_turn_is_recorded_and_the_page_says_so(self, snow_game, alice):
        client = client_for(alice)
        response = client.post(
            reverse("games:submit_turn", args=[snow_game.pk]),
            {"steps": turn_text("C", "none", ("grow", (1, 1)), ("plant", (0, 2))), "key": "k1"},
            **HTMX,
        )
        assert response.status_code == 200
        html = response.content.decode()
        assert "Your turn is in" in html
        assert 'id="turn-form"' not in html
        assert "with your submitted turn" in html
        move = Move.objects.get(game=snow_game, seat=0, kind="turn")
        assert move.payload["effects"] == [{"grow": [1, 1]}, {"plant": [0, 2]}]

    def test_the_region_after_a_turn_is_drawn_from_the_game_the_write_left(
        self, snow_game, alice, django_assert_max_num_queries
    ):
        # The session and its user; the game and seats the page's steps are read from;
        # the write (savepoint, game and seats locked in one round trip, their users (not
        # kept in the test settings), the Move row, the game and the seat in one
        # statement, savepoint released); the seats the page reads, once; the game log's
        # moves. Not the game again.
        client = client_for(alice)
        turn = turn_text("C", "none", ("grow", (1, 1)), ("plant", (0, 2)))
        url = reverse("games:submit_turn", args=[snow_game.pk])
        with django_assert_max_num_queries(HTMX_TURN_QUERIES) as captured:
            response = client.post(url, {"steps": turn, "key": "k1"}, **HTMX)
        assert response.status_code == 200
        assert "Your turn is in" in response.content.decode()
        game_reads = [q for q in captured.captured_queries if 'FROM "games_game"' in q["sql"]]
        assert len(game_reads) == 2  # the page's steps, then the write (locked)

    def test_the_same_submission_twice_records_one_move(self, snow_game, alice):
        client = client_for(alice)
        data = {"steps": turn_text("A", "none", ("plant", (0, 2))), "key": "same-key"}
        url = reverse("games:submit_turn", args=[snow_game.pk])
        assert client.post(url, data).status_code == 303
        assert client.post(url, data).status_code == 303
        assert Move.objects.filter(game=snow_game, kind="turn", seat=0).count() == 1

    def test_a_second_turn_is_refused_as_a_conflict(self, snow_game, alice):
        client = client_for(alice)
        url = reverse("games:submit_turn", args=[snow_game.pk])
        client.post(url, {"steps": turn_text("A", "none"), "key": "first"})
        response = client.post(url, {"steps": turn_text("A", "none"), "key": "second"}, **HTMX)
        assert response.status_code == 409
        assert 'data-code="turn_already_submitted"' in response.content.decode()

    def test_submitting_without_an_action_is_refused(self, snow_game, alice):
        response = client_for(alice).post(
            reverse("games:submit_turn", args=[snow_game.pk]), {"steps": "", "key": "k"}
        )
        assert response.status_code == 400
        assert "Choose your Action first" in response.content.decode()
        assert not Move.objects.filter(game=snow_game, kind="turn").exists()

    def test_a_power_chosen_but_not_applied_is_left_out(self, snow_game, alice):
        client_for(alice).post(
            reverse("games:submit_turn", args=[snow_game.pk]),
            {"steps": turn_text("A", "after", "next"), "key": "k"},
        )
        assert Move.objects.get(game=snow_game, kind="turn").payload["power"] is None


class TestWhoMayBuild:
    def test_anonymous_is_sent_to_log_in(self, snow_game):
        for name in ("games:turn", "games:submit_turn"):
            response = client_for(None).post(reverse(name, args=[snow_game.pk]), {"step": "A"})
            assert response.status_code == 302
            assert reverse("account_login") in response["Location"]

    def test_someone_without_a_seat_is_refused(self, snow_game, carol, staff):
        for user in (carol, staff):
            for name in ("games:turn", "games:submit_turn"):
                response = client_for(user).post(reverse(name, args=[snow_game.pk]), {"step": "A"})
                assert response.status_code == 403
        assert not Move.objects.filter(game=snow_game, kind="turn").exists()

    def test_there_is_nothing_to_build_during_the_draft(self, two_player_game, alice):
        response = step(client_for(alice), two_player_game, "", "A", **HTMX)
        assert response.status_code == 409
        assert 'data-code="wrong_phase"' in response.content.decode()
        assert "Turns are played after the Draft" in response.content.decode()

    def test_submitting_during_the_draft_is_a_conflict(self, two_player_game, alice):
        response = client_for(alice).post(
            reverse("games:submit_turn", args=[two_player_game.pk]),
            {"steps": turn_text("A", "none")},
        )
        assert response.status_code == 409

    def test_a_get_is_not_allowed(self, snow_game, alice):
        assert client_for(alice).get(reverse("games:turn", args=[snow_game.pk])).status_code == 405


class TestAStepReadsTheGameOnce:
    def test_a_step_with_htmx_reads_the_game_and_its_seats_once(
        self, snow_game, alice, django_assert_max_num_queries
    ):
        client = client_for(alice)
        with django_assert_max_num_queries(HTMX_TURN_QUERIES) as captured:
            response = step(client, snow_game, turn_text("C"), "none", **HTMX)
        assert response.status_code == 200
        assert steps_of(response) == turn_text("C", "none")
        reads = [q["sql"] for q in captured.captured_queries]
        assert len([sql for sql in reads if 'FROM "games_game"' in sql]) == 1
        assert len([sql for sql in reads if 'FROM "games_seat"' in sql]) == 1
