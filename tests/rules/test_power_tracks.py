"""The Power tracks (rulebook section 4): a used Power's marker moves right, its level is
how many times the Power may be applied, each seat has its own tracks.
"""

from __future__ import annotations

import pytest

from games.evergreen.rules import (
    LakePlacement,
    PowerUse,
    Turn,
)
from games.evergreen.rules.edition import POWERS
from tests.rules.builders import (
    PLANET,
    action_state,
    assert_refused,
    pieces_of,
    submit_all,
)
from tests.rules.turnhelpers import (
    board_after,
    one_seat,
    reveal,
    track,
)


class TestPowerTracks:
    @pytest.mark.parametrize("power", POWERS)
    def test_using_a_power_moves_its_marker_one_space_right(self, power):
        card = f"wild/{power}"
        pieces = {(1, 0): "sprout", (1, 1): "small"}
        targets = {
            "sprout": ((2, 2),),
            "small": ((1, 0),),
            "big": ((1, 1),),
            "bush": ((2, 2),),
            "lake": (LakePlacement((2, 2)),),
            "bud": (),
        }[power]
        state = one_seat(card, pieces, {power: 1})
        after = reveal(state, Turn(0, "D", (), PowerUse(power, "after", targets)))
        expected = [0] * len(POWERS)
        expected[POWERS.index(power)] = 2
        assert list(after.seats[0].powers) == expected

    def test_the_new_level_is_how_many_times_the_power_may_be_applied(self):
        state = one_seat("snow/sprout", {}, {"sprout": 2})  # level 3 after the upgrade
        three = ((1, 0), (1, 1), (1, 2))
        assert len(board_after(state, Turn(0, "D", (), PowerUse("sprout", "after", three)))) == 3
        assert_refused(
            state,
            Turn(0, "D", (), PowerUse("sprout", "after", (*three, (2, 2)))),
            "too_many_effects",
        )

    def test_the_power_may_be_applied_fewer_times_than_its_level(self):
        state = one_seat("snow/sprout", {}, {"sprout": 3})
        after = reveal(state, Turn(0, "D", (), PowerUse("sprout", "after", ((1, 0),))))
        assert pieces_of(PLANET, after.seats[0].board) == {(1, 0): "sprout"}
        assert track(after, 0, "sprout") == 4

    @pytest.mark.parametrize(
        ("power", "last"),
        [("sprout", 4), ("small", 3), ("big", 3), ("bush", 3), ("lake", 2), ("bud", 5)],
    )
    def test_a_marker_on_the_last_space_stays_there_and_keeps_its_level(self, power, last):
        pieces = {(1, 0): "sprout", (1, 1): "sprout", (1, 2): "sprout", (2, 2): "small"}
        pieces |= {(0, 1): "small", (0, 2): "small", (0, 3): "sprout"}
        targets = {
            "sprout": ((3, 0), (3, 1), (5, 0), (5, 1)),
            "small": ((1, 0), (1, 1), (1, 2)),
            "big": ((2, 2), (0, 1), (0, 2)),
            "bush": ((3, 0), (3, 1), (5, 0)),
            "lake": (LakePlacement((2, 0)), LakePlacement((4, 0))),
            "bud": (),
        }[power]
        state = one_seat(f"wild/{power}", pieces, {power: last}, scores={0: 0})
        after = reveal(state, Turn(0, "D", (), PowerUse(power, "after", targets)))
        assert track(after, 0, power) == last
        if power == "bud":
            assert after.seats[0].score == 5

    def test_each_seat_has_its_own_tracks(self):
        state = action_state({0: "snow/sprout", 1: "swamp/sprout"}, tracks={1: {"sprout": 3}})
        after = submit_all(
            state,
            {
                0: Turn(0, "D", (), PowerUse("sprout", "after", ((1, 0),))),
                1: Turn(1, "D", (), PowerUse("sprout", "after", ((1, 0),))),
            },
        )
        assert (track(after, 0, "sprout"), track(after, 1, "sprout")) == (1, 4)
