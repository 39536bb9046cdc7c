"""A turn's refusals of where its pieces go: off the planet or on a crevice, on an occupied
space, growth that is not possible, outside the card's biome, the same space twice.

Rulebook "2. Actions and Powers"; each refusal also leaves the state it was given as it was.
"""

from __future__ import annotations

import pytest

from games.evergreen.rules import Effect, LakePlacement, PowerUse, Turn
from tests.rules.builders import (
    assert_refused,
)
from tests.rules.turnhelpers import (
    grow,
    one_seat,
    plant,
    played,
)


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
