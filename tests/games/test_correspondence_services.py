"""Services for correspondence play: closing, standing orders, deadlines, vacations."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, timeouts
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Move, Seat
from tests.games.gamehelpers import committed, play_until, submit, user_at


def timed_game(alice, bob, **options) -> Game:
    game = services.create_game(alice, players=2, days_per_move=1, **options)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


class TestClosing:
    def test_the_last_turn_leaves_a_complete_round_that_closing_reveals_once(self, two_player_game):
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        state = game.engine_state()
        first, second = state.awaiting
        bot = RandomBot(5)
        submit(game.pk, user_at(game, first), bot.choose(state, first))
        game.refresh_from_db()
        state = game.engine_state()
        # The last turn leaves the round to close after the commit (the task, run eagerly
        # here); closing it again changes nothing.
        with committed():
            result = services.submit_move(game.pk, user_at(game, second), bot.choose(state, second))
            assert result.game.needs_closing and result.game.round == 1
        game.refresh_from_db()
        assert not game.needs_closing and game.round == 2
        version = game.version
        assert services.close_game_round(game.pk) is False
        game.refresh_from_db()
        assert game.version == version

    def test_closing_a_complete_round_left_by_a_lost_task(self, two_player_game, settings):
        settings.CELERY_TASK_ALWAYS_EAGER = False  # the task is queued, never run here
        game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
        state = game.engine_state()
        bot = RandomBot(6)
        for seat in state.awaiting:
            game.refresh_from_db()
            services.submit_move(
                game.pk, user_at(game, seat), bot.choose(game.engine_state(), seat)
            )
        game.refresh_from_db()
        assert game.needs_closing and rules.round_complete(game.engine_state())
        assert services.close_game_round(game.pk) is True
        game.refresh_from_db()
        assert not game.needs_closing and game.round == 2 and game.phase == "draft"
        assert services.rebuild_state(game) == game.engine_state()
        assert services.close_game_round(game.pk) is False


class TestStandingOrders:
    def test_a_ranking_picks_at_once_when_the_turn_comes(self, two_player_game):
        game = two_player_game
        state = game.engine_state()
        waiting = 1 - state.awaiting[0]
        wanted = list(reversed(state.pool))
        services.set_standing_order(game.pk, user_at(game, waiting), wanted)
        picker = state.awaiting[0]
        services.submit_move(game.pk, user_at(game, picker), {"type": "pick", "card": wanted[0]})
        game.refresh_from_db()
        after = game.engine_state()
        assert after.seats[waiting].card == wanted[1]  # the first still in the pool
        assert after.phase is rules.Phase.ACTION
        assert Move.objects.filter(game=game, seat=waiting, kind="pick").count() == 1

    def test_a_ranking_made_when_it_is_already_my_pick_is_used_now(self, two_player_game):
        game = two_player_game
        state = game.engine_state()
        picker = state.awaiting[0]
        services.set_standing_order(game.pk, user_at(game, picker), [state.pool[2]])
        game.refresh_from_db()
        assert game.engine_state().seats[picker].card == state.pool[2]

    def test_rankings_are_refused_outside_the_draft_and_for_cards_not_in_the_pool(
        self, two_player_game, carol
    ):
        game = two_player_game
        state = game.engine_state()
        waiting = 1 - state.awaiting[0]
        with pytest.raises(services.ServiceError) as exc:
            services.set_standing_order(game.pk, user_at(game, waiting), ["wild/nothing"])
        assert exc.value.code == "card_not_in_pool"
        with pytest.raises(services.ServiceError) as exc:
            services.set_standing_order(game.pk, user_at(game, waiting), [state.pool[0]] * 2)
        assert exc.value.code == "duplicate_card"
        with pytest.raises(services.NotAPlayer):
            services.set_standing_order(game.pk, carol, [])
        game = play_until(game, lambda s: s.phase is rules.Phase.ACTION)
        with pytest.raises(services.Conflict) as exc2:
            services.set_standing_order(game.pk, user_at(game, 0), [])
        assert exc2.value.code == "not_drafting"

    def test_a_ranking_from_an_earlier_round_is_not_used(self, two_player_game):
        game = two_player_game
        state = game.engine_state()
        waiting = 1 - state.awaiting[0]
        seat = game.seats.get(position=waiting)
        seat.standing_order, seat.standing_order_round = list(state.pool), "s9r9"
        seat.save()
        services.submit_move(
            game.pk, user_at(game, state.awaiting[0]), {"type": "pick", "card": state.pool[0]}
        )
        game.refresh_from_db()
        assert game.engine_state().awaiting == (waiting,)


class TestDeadlines:
    def test_the_seat_that_must_act_has_a_deadline_and_the_others_none(self, alice, bob):
        game = timed_game(alice, bob)
        state = game.engine_state()
        seats = {s.position: s for s in game.seats.all()}
        picker = state.awaiting[0]
        assert seats[picker].deadline is not None
        assert timedelta(hours=23) < seats[picker].deadline - timezone.now() <= timedelta(hours=24)
        assert seats[1 - picker].deadline is None

    def test_a_game_without_time_control_has_no_deadlines(self, two_player_game):
        assert not Seat.objects.filter(game=two_player_game, deadline__isnull=False).exists()

    def test_a_timeout_makes_the_minimal_move_and_three_hand_the_seat_to_the_bot(self, alice, bob):
        game = timed_game(alice, bob, timeout_policy="minimal")
        late = game.engine_state().awaiting[0]
        for expected in (1, 2, 3):
            # the opponent plays whenever it is their move; the late player never does
            game = play_until(game, lambda s: late in s.awaiting)
            seat = game.seats.get(position=late)
            assert seat.deadline is not None
            outcome = timeouts.time_out(
                seat.pk, seat.deadline, seat.deadline + timedelta(seconds=1)
            )
            seat.refresh_from_db()
            assert seat.timeouts_in_row == expected
            assert outcome == ("handed to bot" if expected == 3 else "timed out")
        assert seat.handed_to_bot and seat.bot == "strong" and seat.user is not None
        assert Move.objects.filter(game=game, seat=late, user__isnull=True).count() >= 3

    def test_the_time_bank_is_spent_once_before_any_timeout(self, alice, bob):
        game = timed_game(alice, bob, time_bank_hours=48)
        state = game.engine_state()
        seat = game.seats.get(position=state.awaiting[0])
        assert seat.time_bank_seconds == 48 * 3600
        deadline = seat.deadline
        assert timeouts.sweep(deadline + timedelta(seconds=1)) == {"time bank": 1}
        seat.refresh_from_db()
        assert seat.time_bank_seconds == 0 and seat.deadline == deadline + timedelta(hours=48)
        assert timeouts.sweep(deadline + timedelta(hours=1)) == {}
        assert timeouts.sweep(seat.deadline + timedelta(seconds=1)) == {"timed out": 1}

    def test_a_claimed_deadline_is_not_timed_out_twice(self, alice, bob):
        game = timed_game(alice, bob)
        seat = game.seats.get(position=game.engine_state().awaiting[0])
        deadline = seat.deadline
        assert timeouts.time_out(seat.pk, deadline, deadline + timedelta(seconds=1)) == "timed out"
        assert (
            timeouts.time_out(seat.pk, deadline, deadline + timedelta(seconds=2))
            == "already handled"
        )
        assert Move.objects.filter(game=game).count() == 1

    def test_the_minimal_move_uses_the_ranking_first(self, alice, bob):
        game = timed_game(alice, bob, timeout_policy="minimal")
        state = game.engine_state()
        seat = game.seats.get(position=state.awaiting[0])
        seat.standing_order, seat.standing_order_round = (
            [state.pool[-1]],
            services.round_key(game, state),
        )
        assert timeouts.minimal_move(game, state, seat) == rules.Pick(seat.position, state.pool[-1])
        seat.standing_order = []
        assert timeouts.minimal_move(game, state, seat) == rules.Pick(seat.position, state.pool[0])


class TestVacation:
    def test_a_vacation_pushes_deadlines_and_counts_against_the_year(self, alice, bob):
        game = timed_game(alice, bob)
        seat = game.seats.get(position=game.engine_state().awaiting[0])
        user, before = seat.user, seat.deadline
        now = timezone.now()
        player = services.start_vacation(user, 10, now=now)
        seat.refresh_from_db()
        assert player.vacation_until == now + timedelta(days=10)
        assert abs((seat.deadline - before) - timedelta(days=10)) < timedelta(seconds=5)
        with pytest.raises(services.Conflict):
            services.start_vacation(user, 1, now=now)
        services.end_vacation(user, now=now + timedelta(days=2))
        user.player.refresh_from_db()
        assert user.player.vacation_days_used == 2
        with pytest.raises(services.ServiceError) as exc:
            services.start_vacation(user, 29, now=now + timedelta(days=3))
        assert exc.value.code == "vacation_exhausted"
