"""A turn's refusals of how much it does: more effects than the Action or the Power's level
allows, effects an Action does not have, Powers the card does not allow.

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
