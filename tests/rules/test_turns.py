"""A player's turn: the rulebook's two worked turns, then every refusal with its code.

Rulebook "2. Actions and Powers"; each refusal also leaves the state it was given as it was.
"""

from __future__ import annotations

from typing import ClassVar

import pytest

from games.evergreen.rules import Effect, LakePlacement, Phase, Pick, PowerUse, Turn, apply
from games.evergreen.rules.edition import POWERS
from tests.rules.builders import (
    PLANET,
    action_state,
    assert_refused,
    draft_state,
    last_round,
    pieces_of,
    submit_all,
)


def plant(*spaces):
    return tuple(Effect("plant", s) for s in spaces)


def grow(*spaces):
    return tuple(Effect("grow", s) for s in spaces)


def played(state, turn):
    """Seat ``turn.seat``'s board (as pieces) and tracks once the round is revealed."""
    after = submit_all(state, {turn.seat: turn})
    seat = after.seats[turn.seat]
    return pieces_of(PLANET, seat.board), dict(zip(POWERS, seat.powers, strict=True)), after


def one_seat(card, pieces=None, tracks=None, **kwargs):
    """Seat 0 holds ``card`` (seat 1 holds a Wild card); seat 0's planet has ``pieces``."""
    return action_state(
        {0: card, 1: "wild/bud"},
        boards={0: pieces or {}},
        tracks={0: tracks or {}},
        **kwargs,
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


class TestItRefusesSpacesWherePiecesCannotGo:
    @pytest.mark.parametrize("space", [(7, 0), (0, 7), (-1, 3), (3, -1), (0, 0), (6, 6)])
    def test_it_refuses_a_space_off_the_planet_with_off_planet(self, space):
        assert_refused(one_seat("swamp/sprout"), Turn(0, "D", plant(space)), "off_planet")

    def test_it_refuses_a_power_target_off_the_planet_with_off_planet(self):
        turn = Turn(0, "D", (), PowerUse("sprout", "after", ((0, 6),)))
        assert_refused(one_seat("swamp/sprout"), turn, "off_planet")

    def test_it_refuses_a_lake_off_the_planet_with_off_planet(self):
        turn = Turn(0, "D", (), PowerUse("lake", "after", (LakePlacement((6, 0)),)))
        assert_refused(one_seat("wheat/lake"), turn, "off_planet")

    @pytest.mark.parametrize("space", [(1, 3), (3, 5), (4, 1), (6, 3)])
    def test_it_refuses_planting_on_a_crevice_with_crevice(self, space):
        assert_refused(one_seat("wild/sprout"), Turn(0, "D", plant(space)), "crevice")

    def test_it_refuses_a_bush_on_a_crevice_with_crevice(self):
        turn = Turn(0, "D", (), PowerUse("bush", "after", ((3, 5),)))
        assert_refused(one_seat("rock/bush"), turn, "crevice")

    def test_it_refuses_a_lake_growth_on_a_crevice_with_crevice(self):
        turn = Turn(0, "D", (), PowerUse("lake", "after", (LakePlacement((0, 3), ((1, 3),)),)))
        assert_refused(one_seat("wheat/lake"), turn, "crevice")

    def test_it_refuses_a_sprout_on_an_occupied_space_with_occupied(self):
        state = one_seat("snow/lake", {(1, 0): "sprout"})
        assert_refused(state, Turn(0, "A", plant((1, 1), (1, 0))), "occupied")

    def test_it_refuses_a_sprout_power_on_a_tree_with_occupied(self):
        state = one_seat("snow/sprout", {(2, 3): "big"})
        assert_refused(state, Turn(0, "D", (), PowerUse("sprout", targets=((2, 3),))), "occupied")

    def test_it_refuses_a_bush_on_a_lake_with_occupied(self):
        state = one_seat("rock/bush", {(2, 3): "lake"})
        assert_refused(state, Turn(0, "D", (), PowerUse("bush", targets=((2, 3),))), "occupied")

    def test_it_refuses_a_lake_on_a_bush_with_occupied(self):
        state = one_seat("wheat/lake", {(2, 3): "bush"})
        turn = Turn(0, "D", (), PowerUse("lake", targets=(LakePlacement((2, 3)),)))
        assert_refused(state, turn, "occupied")

    def test_it_refuses_planting_where_the_power_planted_just_before_with_occupied(self):
        state = one_seat("snow/sprout")
        turn = Turn(0, "A", plant((1, 0)), PowerUse("sprout", "before", ((1, 0),)))
        assert_refused(state, turn, "occupied")


class TestItRefusesGrowthThatIsNotPossible:
    def test_it_refuses_to_grow_an_empty_space_with_nothing_to_grow(self):
        assert_refused(one_seat("snow/lake"), Turn(0, "B", grow((1, 0))), "nothing_to_grow")

    def test_it_refuses_small_tree_growth_on_an_empty_space_with_nothing_to_grow(self):
        turn = Turn(0, "D", (), PowerUse("small", targets=((1, 0),)))
        assert_refused(one_seat("snow/small"), turn, "nothing_to_grow")

    def test_it_refuses_a_lake_growth_on_an_empty_space_with_nothing_to_grow(self):
        turn = Turn(0, "D", (), PowerUse("lake", targets=(LakePlacement((2, 3), ((2, 4),)),)))
        assert_refused(one_seat("wheat/lake"), turn, "nothing_to_grow")

    def test_it_refuses_to_grow_a_big_tree_with_big_tree_cannot_grow(self):
        state = one_seat("snow/lake", {(1, 0): "big"})
        assert_refused(state, Turn(0, "C", grow((1, 0))), "big_tree_cannot_grow")

    def test_it_refuses_big_tree_growth_on_a_big_tree_with_big_tree_cannot_grow(self):
        state = one_seat("snow/big", {(1, 0): "big"})
        turn = Turn(0, "D", (), PowerUse("big", targets=((1, 0),)))
        assert_refused(state, turn, "big_tree_cannot_grow")

    def test_it_refuses_a_lake_growth_on_a_big_tree_with_big_tree_cannot_grow(self):
        state = one_seat("wheat/lake", {(2, 4): "big"})
        turn = Turn(0, "D", (), PowerUse("lake", targets=(LakePlacement((2, 3), ((2, 4),)),)))
        assert_refused(state, turn, "big_tree_cannot_grow")

    @pytest.mark.parametrize("piece", ["bush", "lake"])
    def test_it_refuses_to_grow_a_bush_or_a_lake_with_cannot_grow_piece(self, piece):
        state = one_seat("snow/lake", {(1, 0): piece})
        assert_refused(state, Turn(0, "D", grow((1, 0))), "cannot_grow_piece")

    def test_it_refuses_small_tree_growth_on_a_bush_with_cannot_grow_piece(self):
        state = one_seat("snow/small", {(1, 0): "bush"})
        turn = Turn(0, "D", (), PowerUse("small", targets=((1, 0),)))
        assert_refused(state, turn, "cannot_grow_piece")

    def test_it_refuses_big_tree_growth_on_a_sprout_with_sprout_to_big_tree(self):
        state = one_seat("snow/big", {(1, 0): "sprout"})
        turn = Turn(0, "D", (), PowerUse("big", targets=((1, 0),)))
        assert_refused(state, turn, "sprout_to_big_tree")

    @pytest.mark.parametrize("piece", ["small", "big"])
    def test_it_refuses_small_tree_growth_on_a_tree_with_needs_sprout(self, piece):
        state = one_seat("snow/small", {(1, 0): piece})
        turn = Turn(0, "D", (), PowerUse("small", targets=((1, 0),)))
        assert_refused(state, turn, "needs_sprout")

    def test_small_tree_growth_turns_a_sprout_into_a_small_tree(self):
        state = one_seat("snow/small", {(1, 0): "sprout"})
        pieces, _, _ = played(state, Turn(0, "D", (), PowerUse("small", targets=((1, 0),))))
        assert pieces == {(1, 0): "small"}

    def test_big_tree_growth_turns_a_small_tree_into_a_big_tree(self):
        state = one_seat("snow/big", {(1, 0): "small"})
        pieces, _, _ = played(state, Turn(0, "D", (), PowerUse("big", targets=((1, 0),))))
        assert pieces == {(1, 0): "big"}


class TestItRefusesActionsOutsideTheCardsBiome:
    def test_it_refuses_a_sprout_outside_the_biome_with_wrong_biome(self):
        # Swamp card, second Sprout in the Snow.
        state = one_seat("swamp/sprout")
        assert_refused(state, Turn(0, "A", plant((2, 0), (1, 0))), "wrong_biome")

    def test_it_refuses_a_growth_outside_the_biome_with_wrong_biome(self):
        state = one_seat("swamp/sprout", {(1, 0): "sprout"})
        assert_refused(state, Turn(0, "C", grow((1, 0))), "wrong_biome")

    def test_the_message_names_the_card_and_the_space_biome(self):
        state = one_seat("swamp/sprout")
        exc = assert_refused(state, Turn(0, "A", plant((1, 0))), "wrong_biome")
        assert "Swamp" in exc.message and "Snow" in exc.message

    def test_a_wild_card_lets_each_effect_go_anywhere(self):
        state = one_seat("wild/sprout", {(3, 2): "sprout", (5, 5): "small"})
        pieces, _, _ = played(state, Turn(0, "A", plant((1, 0), (0, 4), (6, 1))))
        assert set(pieces) == {(1, 0), (0, 4), (6, 1), (3, 2), (5, 5)}
        pieces, _, _ = played(state, Turn(0, "B", grow((3, 2), (5, 5))))
        assert pieces == {(3, 2): "small", (5, 5): "big"}

    def test_action_d_ignores_the_biome_of_the_card(self):
        state = one_seat("swamp/sprout", {(0, 4): "small"})
        assert played(state, Turn(0, "D", plant((1, 0))))[0] == {
            (0, 4): "small",
            (1, 0): "sprout",
        }
        assert played(state, Turn(0, "D", grow((0, 4))))[0] == {(0, 4): "big"}

    def test_power_effects_ignore_the_biome_of_the_card(self):
        state = one_seat("swamp/sprout", {}, {"sprout": 2})
        turn = Turn(0, "A", (), PowerUse("sprout", "after", ((0, 1), (3, 6), (6, 2))))
        pieces, _, _ = played(state, turn)
        assert set(pieces) == {(0, 1), (3, 6), (6, 2)}


class TestItRefusesTheSameSpaceTwice:
    def test_it_refuses_action_b_growing_one_space_twice_with_same_space_twice(self):
        state = one_seat("snow/lake", {(1, 0): "sprout"})
        assert_refused(state, Turn(0, "B", grow((1, 0), (1, 0))), "same_space_twice")

    def test_it_refuses_action_c_planting_then_growing_one_space_with_same_space_twice(self):
        state = one_seat("snow/lake")
        turn = Turn(0, "C", (Effect("plant", (1, 0)), Effect("grow", (1, 0))))
        assert_refused(state, turn, "same_space_twice")

    def test_it_refuses_action_a_planting_one_space_twice_with_same_space_twice(self):
        state = one_seat("snow/lake")
        assert_refused(state, Turn(0, "A", plant((1, 0), (1, 0))), "same_space_twice")

    def test_it_refuses_a_lake_growing_one_space_twice_with_same_space_twice(self):
        state = one_seat("wheat/lake", {(2, 4): "sprout"})
        turn = Turn(
            0, "D", (), PowerUse("lake", targets=(LakePlacement((2, 3), ((2, 4), (2, 4))),))
        )
        assert_refused(state, turn, "same_space_twice")


class TestItRefusesTooManyEffects:
    @pytest.mark.parametrize(
        ("action", "effects"),
        [
            ("A", plant((1, 0), (1, 1), (1, 2), (2, 2))),
            ("B", grow((1, 0), (1, 1), (1, 2))),
            ("C", plant((1, 0), (1, 1))),
            ("C", grow((1, 0), (1, 1))),
            ("C", (Effect("plant", (1, 0)), Effect("grow", (1, 1)), Effect("plant", (1, 2)))),
            ("D", plant((1, 0), (1, 1))),
            ("D", grow((1, 0), (1, 1))),
            ("D", (Effect("plant", (1, 0)), Effect("grow", (1, 1)))),
        ],
        ids=["A4", "B3", "C2plant", "C2grow", "C3", "D2plant", "D2grow", "Dplant+grow"],
    )
    def test_it_refuses_more_effects_than_the_action_allows_with_too_many_effects(
        self, action, effects
    ):
        state = one_seat("snow/lake", {(1, 0): "sprout", (1, 1): "sprout", (1, 2): "sprout"})
        assert_refused(state, Turn(0, action, effects), "too_many_effects")

    def test_each_action_allows_exactly_its_limit(self):
        pieces = {(1, 1): "sprout", (1, 2): "small"}
        for turn in (
            Turn(0, "A", plant((1, 0), (2, 2), (0, 1))),
            Turn(0, "B", grow((1, 1), (1, 2))),
            Turn(0, "C", (Effect("plant", (1, 0)), Effect("grow", (1, 2)))),
            Turn(0, "D", grow((1, 2))),
        ):
            played(one_seat("snow/lake", pieces), turn)

    def test_it_refuses_a_power_used_beyond_its_level_with_too_many_effects(self):
        state = one_seat("snow/sprout")  # track at 0: level 1 after the upgrade
        turn = Turn(0, "D", (), PowerUse("sprout", targets=((1, 0), (1, 1))))
        exc = assert_refused(state, turn, "too_many_effects")
        assert "level 1" in exc.message

    def test_it_refuses_a_power_beyond_its_last_level_with_too_many_effects(self):
        state = one_seat("snow/sprout", {}, {"sprout": 4})  # last space: level 4
        five = ((1, 0), (1, 1), (1, 2), (2, 2), (0, 1))
        assert_refused(
            state, Turn(0, "D", (), PowerUse("sprout", targets=five)), "too_many_effects"
        )
        played(state, Turn(0, "D", (), PowerUse("sprout", targets=five[:4])))

    def test_it_refuses_a_second_lake_at_level_1_with_too_many_effects(self):
        turn = Turn(
            0, "D", (), PowerUse("lake", targets=(LakePlacement((2, 3)), LakePlacement((5, 3))))
        )
        assert_refused(one_seat("wheat/lake"), turn, "too_many_effects")

    def test_it_refuses_a_lake_with_three_growths_with_too_many_effects(self):
        state = one_seat("wheat/lake", {(4, 3): "sprout", (5, 2): "sprout", (5, 4): "sprout"})
        lake = LakePlacement((5, 3), ((4, 3), (5, 2), (5, 4)))
        assert_refused(
            state, Turn(0, "D", (), PowerUse("lake", targets=(lake,))), "too_many_effects"
        )


class TestItRefusesEffectsAnActionDoesNotHave:
    def test_it_refuses_a_growth_in_action_a_with_effect_not_allowed(self):
        state = one_seat("snow/lake", {(1, 0): "sprout"})
        assert_refused(state, Turn(0, "A", grow((1, 0))), "effect_not_allowed")

    def test_it_refuses_a_sprout_in_action_b_with_effect_not_allowed(self):
        state = one_seat("snow/lake")
        assert_refused(state, Turn(0, "B", plant((1, 0))), "effect_not_allowed")


class TestItRefusesPowersThatCannotBeUsed:
    def test_it_refuses_a_power_that_is_not_on_the_card_with_wrong_power(self):
        state = one_seat("swamp/sprout")
        exc = assert_refused(
            state, Turn(0, "D", (), PowerUse("bush", targets=((1, 0),))), "wrong_power"
        )
        assert "Sprout" in exc.message

    def test_it_refuses_a_wild_cards_power_used_as_another_with_wrong_power(self):
        state = one_seat("wild/bud")
        assert_refused(
            state, Turn(0, "D", (), PowerUse("sprout", targets=((1, 0),))), "wrong_power"
        )

    @pytest.mark.parametrize("growth", [(4, 4), (5, 5), (3, 3)])
    def test_it_refuses_a_lake_growth_away_from_the_lake_with_lake_not_adjacent(self, growth):
        state = one_seat("wheat/lake", {(4, 4): "sprout", (5, 5): "sprout", (3, 3): "sprout"})
        turn = Turn(0, "D", (), PowerUse("lake", targets=(LakePlacement((5, 3), (growth,)),)))
        assert_refused(state, turn, "lake_not_adjacent")

    def test_it_refuses_a_power_applied_zero_times_with_power_needs_effect(self):
        assert_refused(
            one_seat("swamp/sprout"), Turn(0, "D", (), PowerUse("sprout")), "power_needs_effect"
        )
        assert_refused(
            one_seat("wheat/lake"), Turn(0, "D", (), PowerUse("lake")), "power_needs_effect"
        )

    def test_it_refuses_a_bud_with_a_target_with_bud_takes_no_target(self):
        turn = Turn(0, "D", (), PowerUse("bud", targets=((1, 0),)))
        assert_refused(one_seat("wild/bud"), turn, "bud_takes_no_target")


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
