"""Selection and green thumbs (rulings 6, 15), refill (8), the end and the tie-break (9)."""

from __future__ import annotations

from dataclasses import replace

from games.verdant.rules import Phase, Wipe, apply
from games.verdant.rules.bots import RandomBot, play_game
from games.verdant.rules.engine import outcome_of
from games.verdant.rules.home import Home
from games.verdant.rules.state import SeatState
from tests.verdant.verdant_builders import (
    ED,
    assert_refused,
    started,
    thumb,
    turn,
    with_home,
    with_market,
    with_thumbs,
)

HOME = {(0, 0): "R102", (0, 1): "P100"}


def game(players=3, thumbs=0):
    state = started(players, seed=2)
    seat = state.to_play
    state = with_thumbs(with_home(state, seat, HOME), seat, thumbs)
    return state, seat


def test_a_card_and_a_token_come_from_the_same_column():
    state, seat = game()
    assert_refused(state, turn(seat, "room", 1, (0, 2), token=2), "different_columns")


def test_action_b_takes_any_card_with_any_token_for_two_green_thumbs():
    state, seat = game(thumbs=3)
    token = state.market_tokens[2]
    after = apply(state, turn(seat, "room", 1, (0, 2), token=2, free=True, store=token))
    assert after.seats[seat].storage == token
    assert after.seats[seat].thumbs == 1
    assert after.seats[seat].home.cards.count(state.market_rooms[1]) == 1


def test_action_b_cannot_be_paid_with_the_green_thumbs_on_the_card_it_takes():
    state, seat = game(thumbs=1)
    state = replace(state, thumbs_rooms=(0, 4, 0, 0))
    assert_refused(state, turn(seat, "room", 1, (0, 2), token=2, free=True), "not_enough_thumbs")


def test_the_green_thumbs_on_a_taken_card_go_to_the_player_and_may_pay_for_action_c():
    # Ruling 15.
    state, seat = game(thumbs=0)
    state = replace(state, thumbs_rooms=(3, 0, 0, 0))
    state = with_market(state, 0, room="R103")  # no light for Aloe Vera from its bottom edge
    after = apply(state, turn(seat, "room", 0, (-1, 1), thumb((0, 1))))
    assert after.seats[seat].thumbs == 1
    assert after.seats[seat].home.verdancy[after.seats[seat].home.cards.index("P100")] == 1


def test_action_a_replaces_the_chosen_tokens_and_returns_them_to_the_bag():
    state, seat = game(thumbs=2)
    after = apply(state, Wipe(seat, (0, 3)))
    assert after.seats[seat].thumbs == 0
    assert after.to_play == seat  # the turn goes on: now the selection
    assert after.market_tokens[1:3] == state.market_tokens[1:3]
    assert sorted(after.bag) == sorted(
        [*state.bag[:-2], state.market_tokens[0], state.market_tokens[3]]
    )
    assert after.bag != state.bag


def test_action_a_may_be_repeated_while_green_thumbs_last():
    state, seat = game(thumbs=4)
    state = apply(apply(state, Wipe(seat, (1,))), Wipe(seat, (2,)))
    assert state.seats[seat].thumbs == 0
    assert_refused(state, Wipe(seat, (0,)), "not_enough_thumbs")


def test_action_a_sets_aside_one_to_four_different_tokens():
    state, seat = game(thumbs=2)
    assert_refused(state, Wipe(seat, ()), "bad_wipe")
    assert_refused(state, Wipe(seat, (1, 1)), "bad_wipe")
    assert_refused(state, Wipe(seat, (4,)), "empty_slot")


def test_the_taken_slots_are_refilled_from_the_deck_and_the_bag():
    state, seat = game()
    after = apply(state, turn(seat, "room", 2, (0, 2)))
    assert after.market_rooms[2] == state.room_deck[-1]
    assert after.market_tokens[2] == state.bag[-1]
    assert after.market_plants == state.market_plants


def test_a_green_thumb_goes_on_the_card_left_in_the_column_of_the_taken_card():
    state, seat = game(thumbs=2)
    after = apply(state, turn(seat, "room", 2, (0, 2), token=0, free=True))
    assert after.thumbs_plants == (0, 0, 1, 0)
    assert after.thumbs_rooms == (0, 0, 0, 0)


def test_green_thumbs_on_market_cards_pile_up_without_limit():
    state, seat = game()
    state = replace(state, thumbs_plants=(0, 7, 0, 0))
    after = apply(state, turn(seat, "room", 1, (0, 2)))
    assert after.thumbs_plants == (0, 8, 0, 0)


def test_a_player_keeps_at_most_five_green_thumbs_from_one_turn_to_the_next():
    state, seat = game(thumbs=4)
    state = replace(state, thumbs_rooms=(0, 0, 4, 0))
    after = apply(state, turn(seat, "room", 2, (0, 2)))
    assert after.seats[seat].thumbs == ED.max_thumbs


def test_turns_follow_seat_order_from_the_starting_player():
    state = started(3, seed=2)
    first = state.to_play
    bot = RandomBot(1)
    order = []
    for _ in range(6):
        order.append(state.to_play)
        state = apply(state, bot.choose(state, state.to_play))
    assert order == [(first + k) % 3 for k in range(6)]


def test_the_game_ends_after_every_players_thirteenth_turn():
    state = started(2, seed=3)
    final, moves = play_game(state, [RandomBot(1), RandomBot(2)])
    assert final.phase is Phase.OVER and len(moves) == 26
    assert [s.turns for s in final.seats] == [13, 13]
    assert all(s.home.card_count == 15 for s in final.seats)
    assert_refused(final, turn(0, "room", 0, (0, 2)), "game_over")


def _ended(thumbs):
    state = started(len(thumbs), seed=1)
    seats = tuple(
        SeatState(Home.empty(), t, s.start_plant, s.start_room, "top", None, 13)
        for s, t in zip(state.seats, thumbs, strict=True)
    )
    return replace(state, seats=seats, phase=Phase.OVER)


def test_a_tie_goes_to_the_player_with_the_most_green_thumbs():
    outcome = outcome_of(_ended([1, 4, 2]), ED)
    assert outcome.scores == (0, 0, 0)
    assert outcome.winners == (1,) and outcome.ranking[0] == 1


def test_a_tie_in_green_thumbs_too_is_a_shared_victory():
    outcome = outcome_of(_ended([3, 1, 3]), ED)
    assert set(outcome.winners) == {0, 2}
