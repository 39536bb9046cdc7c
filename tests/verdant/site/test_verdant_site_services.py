"""Verdant through games.services: creating, joining, playing whole games, secrets."""

from __future__ import annotations

import json

import pytest

from games import kinds, services
from games.models import Game, Move
from games.verdant import rules
from tests.verdant.site.verdant_site_helpers import play_moves, user_at


class TestCreating:
    def test_a_verdant_game_keeps_its_kind_and_options(self, alice):
        game = services.create_game(
            alice, kind="verdant", players=3, options={"variant": "family", "goals": True}
        )
        assert game.kind == "verdant" and game.status == Game.Status.OPEN
        assert game.options == {"variant": "family", "goals": True}
        assert game.edition == rules.DEFAULT_EDITION

    def test_five_players_are_welcome_and_six_are_refused(self, alice):
        assert services.create_game(alice, kind="verdant", players=5).players == 5
        with pytest.raises(services.ServiceError) as refused:
            services.create_game(alice, kind="verdant", players=6)
        assert refused.value.code == "bad_player_count"

    def test_an_unknown_variant_is_refused_and_nothing_is_created(self, alice):
        with pytest.raises(services.ServiceError) as refused:
            services.create_game(alice, kind="verdant", options={"variant": "speedy"})
        assert refused.value.code == "bad_variant"
        assert not Game.objects.exists()

    def test_goal_cards_must_be_on_or_off(self, alice):
        with pytest.raises(services.ServiceError) as refused:
            services.create_game(alice, kind="verdant", options={"goals": "yes"})
        assert refused.value.code == "bad_goals"

    def test_joining_starts_the_game_with_both_start_placements_awaited(self, verdant_game):
        state = verdant_game.engine_state()
        assert verdant_game.status == Game.Status.ACTIVE
        assert state.phase is rules.Phase.START and state.awaiting == (0, 1)
        assert verdant_game.phase == "start"


class TestPlaying:
    def test_two_people_play_a_whole_game(self, verdant_game):
        game = play_moves(verdant_game, seed=3)
        state = game.engine_state()
        assert game.status == Game.Status.FINISHED and state.is_over
        assert all(s.turns == 13 for s in state.seats)
        scores = {s.position: s.score for s in game.seats.all()}
        assert [scores[0], scores[1]] == list(state.outcome.scores)
        assert services.rebuild_state(game) == state

    def test_a_solo_game_reaches_its_title(self, alice):
        game = services.create_game(alice, kind="verdant", players=1)
        game = play_moves(game, seed=1)
        state = game.engine_state()
        assert state.is_over and state.outcome.scores[0] > 0
        assert state.outcome.title == rules.load_edition().solo_title(state.outcome.scores[0])

    def test_computer_players_play_their_turns_at_once(self, alice):
        game = services.create_game(
            alice, kind="verdant", players=3, computer_seats=2, bot="random"
        )
        game.refresh_from_db()
        state = game.engine_state()
        # The bots chose their start placements already; alice's is the one awaited.
        assert state.awaiting == (0,)
        game = play_moves(game, seed=2)
        assert game.status == Game.Status.FINISHED
        assert Move.objects.filter(game=game, seat=0).count() >= 14

    def test_a_turn_out_of_turn_is_refused_with_its_code_and_changes_nothing(self, verdant_game):
        game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY)
        state = game.engine_state()
        waiting = 1 - state.to_play
        move = rules.make_bot("greedy").choose(state, state.to_play)
        version = game.version
        with pytest.raises(services.ServiceError) as refused:
            services.submit_move(
                game.pk, user_at(game, waiting), {**move.to_json(), "seat": waiting}
            )
        assert refused.value.code == "not_your_turn" and refused.value.status == 409
        game.refresh_from_db()
        assert game.version == version and game.engine_state() == state

    def test_a_refusal_reads_in_the_players_language(self, verdant_game):
        from django.utils import translation

        with translation.override("de"), pytest.raises(services.ServiceError) as refused:
            services.submit_move(
                verdant_game.pk, user_at(verdant_game, 0), {"type": "start", "side": "up"}
            )
        assert refused.value.code == "bad_side"
        assert refused.value.message.startswith("Die Startpflanze")

    def test_the_minimal_timeout_move_is_legal(self, verdant_game):
        kind = kinds.get("verdant")
        state = verdant_game.engine_state()
        for _ in range(12):
            seat = state.awaiting[0]
            state = kind.apply(state, kind.timeout_move(state, seat, "minimal", 0))
        assert state.phase is rules.Phase.PLAY and state.turn == 10


class TestSecrets:
    def test_no_view_shows_the_decks_the_bag_or_a_hidden_start(self, verdant_game):
        services.submit_move(
            verdant_game.pk, user_at(verdant_game, 0), {"type": "start", "side": "left"}
        )
        verdant_game.refresh_from_db()
        state = verdant_game.engine_state()
        kind = kinds.of(verdant_game)
        for viewer in (None, 1):
            text = json.dumps(kind.player_view(state, viewer))
            hidden_cards = state.plant_deck + state.room_deck
            assert not [card for card in hidden_cards if f'"{card}"' in text]
            assert '"bag"' not in text and str(state.rng) not in text
            assert '"left"' not in text
        assert kind.player_view(state, 0)["seats"][0]["start"]["side"] == "left"

    def test_a_running_games_record_hides_the_seed_and_others_start(self, verdant_game):
        services.submit_move(
            verdant_game.pk, user_at(verdant_game, 0), {"type": "start", "side": "left"}
        )
        verdant_game.refresh_from_db()
        kind = kinds.of(verdant_game)
        data = kind.record_for_viewer(
            verdant_game.record(), verdant_game.engine_state(), 1, finished=False
        )
        assert "seed" not in data and data["moves"] == []
        assert kind.hidden_moves(verdant_game.engine_state(), verdant_game.record().moves, 1) == {0}


class TestSimultaneousStartAndVersions:
    """The start placements are chosen at once and hidden: another player's choice is
    no change this player could have seen, so it does not make their page stale."""

    def test_a_start_choice_made_on_a_page_from_before_the_others_choice_is_accepted(
        self, verdant_game
    ):
        shown = verdant_game.version  # both pages show this version
        services.submit_move(
            verdant_game.pk,
            user_at(verdant_game, 0),
            {"type": "start", "side": "left"},
            expected_version=shown,
        )
        services.submit_move(
            verdant_game.pk,
            user_at(verdant_game, 1),
            {"type": "start", "side": "bottom"},
            expected_version=shown,
        )
        verdant_game.refresh_from_db()
        assert verdant_game.engine_state().phase is rules.Phase.PLAY

    def test_a_page_from_before_a_visible_change_is_still_stale(self, verdant_game):
        shown = verdant_game.version
        for seat, side in ((0, "left"), (1, "bottom")):
            services.submit_move(
                verdant_game.pk, user_at(verdant_game, seat), {"type": "start", "side": side}
            )
        verdant_game.refresh_from_db()
        state = verdant_game.engine_state()
        to_play = state.to_play
        move = kinds.of(verdant_game).bot_move("greedy", state, to_play, 0)
        before = verdant_game.version
        with pytest.raises(services.Conflict) as refused:  # the placements were revealed
            services.submit_move(
                verdant_game.pk,
                user_at(verdant_game, to_play),
                kinds.of(verdant_game).move_to_json(move),
                expected_version=shown,
            )
        assert refused.value.code == "stale_version"
        verdant_game.refresh_from_db()
        assert verdant_game.version == before

    def test_a_second_choice_of_ones_own_on_an_old_page_is_refused_as_stale(self, verdant_game):
        shown = verdant_game.version
        alice = user_at(verdant_game, 0)
        services.submit_move(verdant_game.pk, alice, {"type": "start", "side": "left"})
        with pytest.raises(services.Conflict) as refused:
            services.submit_move(
                verdant_game.pk, alice, {"type": "start", "side": "up"}, expected_version=shown
            )
        assert refused.value.code == "stale_version"
