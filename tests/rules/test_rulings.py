"""The edition's rulings (section 6) on turns: an Action with no effect, the Power's timing,
Lakes, Bud, and effects on different spaces.

Rulings 1, 2, 10 and 12 are in test_draft.py, 8 in test_light.py, 9 in test_forest.py,
11 and 13 in test_setup.py, 14 (ties) in test_seasons.py, 15 and 16 in test_solo.py; the
Power tracks (section 4) in test_power_tracks.py.
"""

from __future__ import annotations

import pytest

from games.evergreen.rules import (
    Effect,
    InvalidMove,
    LakePlacement,
    PowerUse,
    Turn,
    apply,
    move_from_json,
)
from tests.rules.builders import (
    PLANET,
    assert_refused,
    deal,
    pieces_of,
)
from tests.rules.turnhelpers import (
    board_after,
    grow,
    one_seat,
    plant,
    reveal,
    track,
)


class TestRuling3AnActionMayApplyNoEffect:
    @pytest.mark.parametrize("action", ["A", "B", "C", "D"])
    def test_ruling_3_a_declared_action_with_no_effect_is_legal(self, action):
        state = one_seat("snow/lake", {(1, 0): "sprout"})
        after = reveal(state, Turn(0, action))
        assert after.seats[0].board == state.seats[0].board
        assert after.round == 2

    def test_ruling_3_an_action_may_use_fewer_effects_than_it_allows(self):
        state = one_seat("snow/lake")
        assert board_after(state, Turn(0, "A", plant((1, 0)))) == {(1, 0): "sprout"}

    def test_ruling_3_the_player_must_still_declare_one_of_the_four_actions(self):
        assert_refused(one_seat("snow/lake"), Turn(0, "E"), "unknown_action")
        with pytest.raises(InvalidMove) as caught:
            move_from_json({"type": "turn", "seat": 0, "effects": []})
        assert caught.value.code == "unknown_action"

    def test_ruling_3_the_power_is_optional_and_its_track_does_not_move_unused(self):
        state = one_seat("snow/sprout", {}, {"sprout": 2})
        after = reveal(state, Turn(0, "A", plant((1, 0))))
        assert after.seats[0].powers == state.seats[0].powers


class TestRuling4PowerTiming:
    def test_ruling_4_power_applies_wholly_before_or_after_the_action(self):
        # Small Tree Growth after Action C can grow the Sprout the Action planted...
        state = one_seat("snow/small")
        after = Turn(0, "C", plant((1, 0)), PowerUse("small", "after", ((1, 0),)))
        assert board_after(state, after) == {(1, 0): "small"}
        # ... but the same Power before the Action finds nothing to grow.
        before = Turn(0, "C", plant((1, 0)), PowerUse("small", "before", ((1, 0),)))
        assert_refused(state, before, "nothing_to_grow")

    def test_ruling_4_every_application_of_the_power_happens_on_the_same_side(self):
        # Two Sprouts from the Power before Action B: the Action grows both of them.
        state = one_seat("snow/sprout", {}, {"sprout": 1})
        turn = Turn(0, "B", grow((1, 0), (1, 1)), PowerUse("sprout", "before", ((1, 0), (1, 1))))
        assert board_after(state, turn) == {(1, 0): "small", (1, 1): "small"}

    def test_ruling_4_the_action_is_never_split_by_the_power(self):
        # Action B grows (1,0) twice only if a Power could grow it in between: refused.
        state = one_seat("snow/small", {(1, 0): "sprout"})
        turn = Turn(0, "B", grow((1, 0), (1, 0)), PowerUse("small", "after", ((1, 1),)))
        assert_refused(state, turn, "same_space_twice")

    def test_ruling_4_a_timing_other_than_before_or_after_is_refused(self):
        state = one_seat("snow/sprout")
        with pytest.raises(InvalidMove) as caught:
            apply(state, Turn(0, "D", (), PowerUse("sprout", "during", ((1, 0),))))
        assert caught.value.code == "bad_timing"
        with pytest.raises(InvalidMove) as caught:
            move_from_json(
                {
                    "type": "turn",
                    "seat": 0,
                    "action": "D",
                    "power": {"power": "sprout", "timing": "during", "targets": [[1, 0]]},
                }
            )
        assert caught.value.code == "bad_timing"


class TestRuling5Lakes:
    def test_ruling_5_at_level_2_two_lakes_each_grow_their_own_neighbours(self):
        state = one_seat(
            "wheat/lake",
            {(5, 2): "sprout", (5, 4): "small", (2, 4): "sprout"},
            {"lake": 1},
        )
        turn = Turn(
            0,
            "D",
            (),
            PowerUse(
                "lake",
                "after",
                (LakePlacement((5, 3), ((5, 2), (5, 4))), LakePlacement((2, 3), ((2, 4),))),
            ),
        )
        after = reveal(state, turn)
        assert pieces_of(PLANET, after.seats[0].board) == {
            (5, 3): "lake",
            (5, 2): "small",
            (5, 4): "big",
            (2, 3): "lake",
            (2, 4): "small",
        }
        assert after.supply == (20, 18)
        assert track(after, 0, "lake") == 2

    def test_ruling_5_a_lake_may_grow_nothing(self):
        state = one_seat("wheat/lake")
        turn = Turn(0, "D", (), PowerUse("lake", "after", (LakePlacement((1, 0)),)))
        assert board_after(state, turn) == {(1, 0): "lake"}

    def test_ruling_5_lake_growths_may_be_in_any_biome(self):
        # Lake in the Grassland; it grows a Snow Sprout and a Grassland Small Tree.
        state = one_seat("wheat/lake", {(2, 2): "sprout", (2, 4): "small"})
        turn = Turn(
            0, "D", (), PowerUse("lake", "after", (LakePlacement((2, 3), ((2, 2), (2, 4))),))
        )
        assert board_after(state, turn) == {(2, 3): "lake", (2, 2): "small", (2, 4): "big"}

    def test_ruling_5_two_lakes_may_each_grow_a_space_between_them(self):
        # Rulings 5 and 7 forbid two growths of one application (one Lake) on a space;
        # the two Lakes of level 2 are two applications.
        state = one_seat("wheat/lake", {(4, 3): "sprout"}, {"lake": 1})
        turn = Turn(
            0,
            "D",
            (),
            PowerUse(
                "lake",
                "after",
                (LakePlacement((5, 3), ((4, 3),)), LakePlacement((3, 3), ((4, 3),))),
            ),
        )
        assert board_after(state, turn)[(4, 3)] == "big"

    def test_ruling_5_the_lake_must_go_on_an_empty_space(self):
        state = one_seat("wheat/lake", {(5, 3): "sprout"})
        turn = Turn(0, "D", (), PowerUse("lake", "after", (LakePlacement((5, 3)),)))
        assert_refused(state, turn, "occupied")


class TestRuling6Bud:
    @pytest.mark.parametrize(
        ("position", "points", "new_position"),
        [(0, 1, 1), (1, 2, 2), (2, 3, 3), (3, 4, 4), (4, 5, 5), (5, 5, 5)],
    )
    def test_ruling_6_bud_scores_the_level_after_the_upgrade(self, position, points, new_position):
        state = one_seat("wild/bud", tracks={"bud": position}, scores={0: 10})
        after = reveal(state, Turn(0, "D", (), PowerUse("bud")))
        assert after.seats[0].score == 10 + points
        assert after.seats[0].seasons[-1].bud == points
        assert track(after, 0, "bud") == new_position

    def test_ruling_6_bud_is_applied_once_whatever_its_timing(self):
        state = one_seat("wild/bud", tracks={"bud": 2}, scores={0: 0})
        for timing in ("before", "after"):
            after = reveal(state, Turn(0, "A", plant((1, 0)), PowerUse("bud", timing)))
            assert after.seats[0].score == 3

    def test_ruling_6_bud_points_add_up_over_a_season(self):
        state = one_seat("flowers/bud", scores={0: 0})
        after = reveal(state, Turn(0, "D", (), PowerUse("bud")))
        # Round 2: seat 0 holds another Bud card and plays it again.
        again = deal(after, {0: "rock/bud", 1: "wild/lake"})
        final = reveal(again, Turn(0, "D", (), PowerUse("bud")))
        assert final.seats[0].seasons[-1].bud == 1 + 2
        assert final.seats[0].score == 3


class TestRuling7DifferentSpaces:
    def test_ruling_7_the_power_may_grow_what_the_action_planted(self):
        state = one_seat("snow/small")
        turn = Turn(0, "C", plant((1, 0)), PowerUse("small", "after", ((1, 0),)))
        assert board_after(state, turn) == {(1, 0): "small"}

    def test_ruling_7_the_action_may_grow_what_the_power_planted(self):
        state = one_seat("snow/sprout")
        turn = Turn(0, "B", grow((1, 0)), PowerUse("sprout", "before", ((1, 0),)))
        assert board_after(state, turn) == {(1, 0): "small"}

    def test_ruling_7_the_power_may_grow_what_the_action_grew(self):
        state = one_seat("snow/big", {(1, 0): "sprout"})
        turn = Turn(0, "B", grow((1, 0)), PowerUse("big", "after", ((1, 0),)))
        assert board_after(state, turn) == {(1, 0): "big"}

    def test_ruling_7_a_lake_may_grow_what_the_action_grew(self):
        state = one_seat("snow/lake", {(1, 0): "sprout"})
        turn = Turn(
            0, "B", grow((1, 0)), PowerUse("lake", "after", (LakePlacement((1, 1), ((1, 0),)),))
        )
        assert board_after(state, turn) == {(1, 0): "big", (1, 1): "lake"}

    def test_ruling_7_action_b_grows_two_different_spaces(self):
        state = one_seat("snow/lake", {(1, 0): "sprout", (1, 1): "small"})
        assert board_after(state, Turn(0, "B", grow((1, 0), (1, 1)))) == {
            (1, 0): "small",
            (1, 1): "big",
        }
        assert_refused(state, Turn(0, "B", grow((1, 0), (1, 0))), "same_space_twice")

    def test_ruling_7_action_c_plants_and_grows_two_different_spaces(self):
        state = one_seat("snow/lake", {(1, 1): "sprout"})
        turn = Turn(0, "C", (Effect("grow", (1, 1)), Effect("plant", (1, 0))))
        assert board_after(state, turn) == {(1, 0): "sprout", (1, 1): "small"}
