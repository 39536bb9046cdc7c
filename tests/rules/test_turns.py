"""A player's turn: the rulebook's two worked turns, refusals of moves out of place, and the
shared supply of Bushes and Lakes.

Rulebook "2. Actions and Powers"; each refusal also leaves the state it was given as it was.
Where pieces may go is in test_turn_places.py, how many effects a turn has and which
Powers it may use in test_turn_effects.py.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from games.evergreen.rules import LakePlacement, Phase, Pick, PowerUse, Turn, apply
from games.evergreen.rules.targets import planned_board
from tests.rules.builders import (
    PLANET,
    action_state,
    assert_refused,
    draft_state,
    last_round,
    pieces_of,
    submit_all,
)
from tests.rules.turnhelpers import (
    grow,
    one_seat,
    plant,
    played,
)


class TestDaisysTurn:
    """Swamp card with Plant Sprout; the Power first, then Action B in the Swamp."""

    BEFORE: ClassVar = {(3, 0): "sprout", (4, 0): "small"}  # both in the Swamp
    TURN = Turn(
        0,
        "B",
        grow((3, 0), (4, 0)),
        PowerUse("sprout", "before", ((1, 0), (3, 4))),
    )

    def test_daisy_plants_two_sprouts_anywhere_then_grows_two_swamp_spaces(self):
        state = one_seat("swamp/sprout", self.BEFORE, {"sprout": 1})
        pieces, tracks, _ = played(state, self.TURN)
        assert pieces == {
            (1, 0): "sprout",  # A, in the Snow
            (3, 4): "sprout",  # B, in the Grassland
            (3, 0): "small",  # C, a Sprout grown into a Small Tree
            (4, 0): "big",  # D, a Small Tree grown into a Big Tree
        }
        assert tracks["sprout"] == 2

    def test_her_plant_sprout_power_at_level_2_allows_exactly_two_sprouts(self):
        state = one_seat("swamp/sprout", self.BEFORE, {"sprout": 1})
        three = Turn(
            0, "B", self.TURN.effects, PowerUse("sprout", "before", ((1, 0), (3, 4), (0, 1)))
        )
        assert_refused(state, three, "too_many_effects")

    def test_her_turn_is_checked_when_submitted_and_carried_out_when_revealed(self):
        state = one_seat("swamp/sprout", self.BEFORE, {"sprout": 1})
        submitted = apply(state, self.TURN)
        assert submitted.seats[0].board == state.seats[0].board
        assert submitted.seats[0].turn == self.TURN
        assert submitted.awaiting == (1,)


class TestOliversTurn:
    """Wheat card with Place Lake; Action A first, then the Lake between two Sprouts."""

    TURN = Turn(
        0,
        "A",
        plant((5, 2), (5, 4), (4, 3)),
        PowerUse("lake", "after", (LakePlacement((5, 3), ((5, 2), (5, 4))),)),
    )

    def test_oliver_plants_three_wheat_sprouts_then_a_lake_grows_two_of_them(self):
        state = one_seat("wheat/lake")
        pieces, tracks, after = played(state, self.TURN)
        assert pieces == {
            (5, 2): "small",
            (5, 4): "small",
            (4, 3): "sprout",
            (5, 3): "lake",
        }
        assert tracks["lake"] == 1
        assert after.supply == (20, 19)

    def test_the_lake_cannot_grow_sprouts_that_are_only_planted_after_it(self):
        state = one_seat("wheat/lake")
        before = Turn(
            0, "A", self.TURN.effects, PowerUse("lake", "before", self.TURN.power.targets)
        )
        assert_refused(state, before, "nothing_to_grow")

    def test_lake_growths_may_be_in_another_biome_than_the_card(self):
        state = one_seat("wheat/lake", {(4, 4): "sprout", (4, 5): "small"})
        turn = Turn(0, "A", (), PowerUse("lake", "after", (LakePlacement((5, 5), ((4, 5),)),)))
        pieces, _, _ = played(state, turn)
        assert pieces[(4, 5)] == "big"  # Flowers, grown by a Wheat card's Lake


# --- refusals ------------------------------------------------------------------------------


class TestItRefusesMovesOutOfPlace:
    def test_it_refuses_a_pick_during_the_action_phase_with_wrong_phase(self):
        state = one_seat("swamp/sprout")
        assert_refused(state, Pick(0, "snow/lake"), "wrong_phase")

    def test_it_refuses_a_turn_during_the_draft_with_wrong_phase(self):
        state = draft_state(2, ("snow/lake", "rock/small", "wild/bud"))
        assert_refused(state, Turn(0, "D"), "wrong_phase")

    @pytest.mark.parametrize("seat", [2, 5, -1])
    def test_it_refuses_a_pick_for_a_seat_not_in_the_game_with_unknown_seat(self, seat):
        state = draft_state(2, ("snow/lake", "rock/small", "wild/bud"))
        assert_refused(state, Pick(seat, "snow/lake"), "unknown_seat")

    @pytest.mark.parametrize("seat", [2, -1])
    def test_it_refuses_a_turn_for_a_seat_not_in_the_game_with_unknown_seat(self, seat):
        assert_refused(one_seat("swamp/sprout"), Turn(seat, "D"), "unknown_seat")

    def test_it_refuses_the_ai_drafters_index_as_a_seat_in_solo_mode(self):
        state = draft_state(1, ("snow/lake", "rock/small", "wild/bud"), first=0)
        assert_refused(state, Pick(1, "snow/lake"), "unknown_seat")

    def test_it_refuses_a_pick_out_of_turn_with_not_your_turn(self):
        state = draft_state(3, ("snow/lake", "rock/small", "wild/bud", "wheat/big"), first=1)
        assert_refused(state, Pick(0, "snow/lake"), "not_your_turn")
        assert_refused(state, Pick(2, "snow/lake"), "not_your_turn")

    def test_it_refuses_a_second_pick_by_the_same_player_with_not_your_turn(self):
        state = draft_state(3, ("snow/lake", "rock/small", "wild/bud", "wheat/big"), first=0)
        state = apply(state, Pick(0, "wild/bud"))
        assert_refused(state, Pick(0, "snow/lake"), "not_your_turn")

    def test_it_refuses_a_card_that_is_not_in_the_pool_with_card_not_in_pool(self):
        state = draft_state(2, ("snow/lake", "rock/small", "wild/bud"))
        assert_refused(state, Pick(0, "snow/sprout"), "card_not_in_pool")
        assert_refused(state, Pick(0, "moon/sprout"), "card_not_in_pool")

    def test_it_refuses_a_card_another_player_already_took_with_card_not_in_pool(self):
        state = draft_state(2, ("snow/lake", "rock/small", "wild/bud"))
        state = apply(state, Pick(0, "wild/bud"))
        assert_refused(state, Pick(1, "wild/bud"), "card_not_in_pool")

    def test_it_refuses_a_second_turn_in_a_round_with_turn_already_submitted(self):
        state = apply(one_seat("swamp/sprout"), Turn(0, "D"))
        assert state.awaiting == (1,)
        assert_refused(state, Turn(0, "D"), "turn_already_submitted")

    def test_it_refuses_a_turn_from_a_seat_without_a_card_with_no_card(self):
        state = action_state({0: "swamp/sprout"})
        assert state.seats[1].card is None
        assert_refused(state, Turn(1, "D"), "no_card")

    def test_it_refuses_any_move_once_the_game_is_over_with_game_over(self):
        end = submit_all(last_round({0: "wild/bud", 1: "wild/lake"}))
        assert end.phase is Phase.OVER
        assert_refused(end, Turn(0, "D"), "game_over")
        assert_refused(end, Pick(0, "snow/lake"), "game_over")


class TestTheSharedSupply:
    def test_it_refuses_a_bush_when_the_supply_is_empty_with_bush_supply_empty(self):
        state = one_seat("rock/bush", supply=(0, 20))
        assert_refused(
            state, Turn(0, "D", (), PowerUse("bush", targets=((1, 0),))), "bush_supply_empty"
        )

    def test_it_refuses_more_bushes_than_are_left_with_bush_supply_empty(self):
        state = one_seat("rock/bush", {}, {"bush": 1}, supply=(1, 20))
        turn = Turn(0, "D", (), PowerUse("bush", targets=((1, 0), (1, 1))))
        assert_refused(state, turn, "bush_supply_empty")

    def test_it_refuses_a_lake_when_the_supply_is_empty_with_lake_supply_empty(self):
        state = one_seat("wheat/lake", supply=(20, 0))
        turn = Turn(0, "D", (), PowerUse("lake", targets=(LakePlacement((1, 0)),)))
        assert_refused(state, turn, "lake_supply_empty")

    def test_the_last_bush_goes_to_the_turn_submitted_first(self):
        state = action_state({0: "rock/bush", 1: "swamp/bush"}, supply=(1, 20))
        bush = {seat: Turn(seat, "D", (), PowerUse("bush", targets=((1, 0),))) for seat in (0, 1)}
        state = apply(state, bush[1])
        assert state.supply == (0, 20)
        assert_refused(state, bush[0], "bush_supply_empty")
        after = apply(state, Turn(0, "D"))
        assert pieces_of(PLANET, after.seats[1].board) == {(1, 0): "bush"}
        assert pieces_of(PLANET, after.seats[0].board) == {}
        assert after.supply == (0, 20)

    def test_the_last_lake_goes_to_the_turn_submitted_first(self):
        state = action_state({0: "wheat/lake", 1: "rock/lake"}, supply=(20, 1))
        lake = {
            seat: Turn(seat, "D", (), PowerUse("lake", targets=(LakePlacement((1, 0)),)))
            for seat in (0, 1)
        }
        state = apply(state, lake[0])
        assert state.supply == (20, 0)
        assert_refused(state, lake[1], "lake_supply_empty")

    def test_a_submitted_turn_is_shown_with_the_pieces_it_took_from_the_supply(self):
        # The turn takes both Bushes left: the supply is empty once it is submitted, and
        # the board the turn will make is still shown (not refused for an empty supply).
        state = one_seat("rock/bush", {}, {"bush": 1}, supply=(2, 20))
        state = apply(state, Turn(0, "D", (), PowerUse("bush", targets=((1, 0), (1, 1)))))
        assert state.supply == (0, 20) and state.phase is Phase.ACTION
        planned = pieces_of(PLANET, planned_board(state, 0))
        assert planned == {(1, 0): "bush", (1, 1): "bush"}
        assert pieces_of(PLANET, planned_board(state, 1)) == pieces_of(
            PLANET, state.seats[1].board
        )  # no turn submitted: the board as it is

    def test_pieces_left_in_the_supply_can_still_be_taken(self):
        state = one_seat("rock/bush", {}, {"bush": 1}, supply=(2, 20))
        pieces, _, after = played(
            state, Turn(0, "D", (), PowerUse("bush", targets=((1, 0), (1, 1))))
        )
        assert pieces == {(1, 0): "bush", (1, 1): "bush"}
        assert after.supply == (0, 20)

    def test_a_refused_turn_takes_nothing_from_the_supply(self):
        state = one_seat("rock/bush", {(1, 0): "sprout"})
        turn = Turn(0, "D", plant((1, 0)), PowerUse("bush", targets=((1, 1),)))
        assert_refused(state, turn, "occupied")
        assert state.supply == (20, 20)
