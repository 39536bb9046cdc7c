"""Fertility: the end-of-game scoring of Big Trees by biome (rulebook "End of the game")."""

from __future__ import annotations

from games.evergreen.rules import Effect, Phase, Turn, fertility_values
from games.evergreen.rules.scoring import fertility_breakdown, fertility_score
from tests.rules.builders import PLANET, action_state, board, last_round, submit_all, zone

# Lily's planet in the rulebook: Big Trees per biome Snow 1, Swamp 1, Rock 0,
# Flowers 1, Wheat 4, Grassland 2 (and Small Trees and Sprouts, which Fertility ignores).
LILY = {
    (1, 0): "big",  # snow
    (2, 0): "big",  # swamp
    (3, 6): "big",  # flowers
    (5, 2): "big",  # wheat
    (5, 3): "big",
    (5, 4): "big",
    (4, 4): "big",
    (3, 2): "big",  # grassland
    (2, 4): "big",
    (0, 4): "small",  # rock: a Small Tree does not count
    (4, 5): "small",
    (6, 1): "sprout",
}
RULEBOOK_VALUES = {"snow": 0, "swamp": 0, "flowers": 5, "wheat": 5, "rock": 3, "grassland": 2}


class TestTheRulebookExample:
    def test_lily_scores_29_points(self):
        assert fertility_score(PLANET, board(PLANET, LILY), RULEBOOK_VALUES) == 29

    def test_the_29_points_come_biome_by_biome(self):
        breakdown = fertility_breakdown(PLANET, board(PLANET, LILY), RULEBOOK_VALUES)
        assert {b: (v["fertility"], v["big_trees"], v["points"]) for b, v in breakdown.items()} == {
            "snow": (0, 1, 0),
            "swamp": (0, 1, 0),
            "rock": (3, 0, 0),
            "flowers": (5, 1, 5),
            "wheat": (5, 4, 20),
            "grassland": (2, 2, 4),
        }


class TestFertilityScoring:
    def test_only_big_trees_score_fertility(self):
        cells = board(PLANET, {(5, 2): "small", (5, 3): "sprout", (5, 4): "bush", (4, 3): "lake"})
        assert fertility_score(PLANET, cells, {"wheat": 4}) == 0

    def test_a_biome_without_fertility_scores_nothing_for_its_big_trees(self):
        cells = board(PLANET, {(5, 2): "big"})
        assert fertility_score(PLANET, cells, {"snow": 4}) == 0

    def test_an_empty_planet_scores_nothing(self):
        assert fertility_score(PLANET, board(PLANET, {}), RULEBOOK_VALUES) == 0


class TestFertilityValuesFromTheZone:
    def test_the_value_of_a_biome_is_the_sum_of_its_visible_icons(self):
        state = action_state(
            {0: "wild/bud"},
            fertility_zone=zone(
                ("flowers", [("flowers/bush", True), ("flowers/bud", True)]),
                ("snow", [("snow/big", False), ("snow/bush", True)]),
            ),
        )
        assert fertility_values(state) == {
            "snow": 0,
            "swamp": 0,
            "rock": 0,
            "flowers": 3,
            "wheat": 0,
            "grassland": 0,
        }


class TestFinalScoringThroughTheEngine:
    # The standard edition's cards give a biome at most 4 icons (two F1 and one F2), so
    # the rulebook's values of 5 cannot be built from real cards: these are the nearest.
    ZONE = zone(
        ("snow", [("snow/sprout", True), ("snow/big", False), ("snow/bush", True)]),
        ("rock", [("rock/lake", True), ("rock/big", True)]),
        ("flowers", [("flowers/bush", True), ("flowers/lake", True), ("flowers/bud", True)]),
        ("wheat", [("wheat/sprout", True), ("wheat/bud", True)]),
        ("grassland", [("grassland/small", True)]),
    )

    def finish(self, **kwargs):
        state = last_round({0: "wild/sprout", 1: "wild/small"}, fertility_zone=self.ZONE, **kwargs)
        return state, submit_all(state)

    def test_the_zone_gives_the_expected_values(self):
        state, _ = self.finish()
        assert fertility_values(state) == {
            "snow": 1,
            "swamp": 0,
            "rock": 3,
            "flowers": 4,
            "wheat": 3,
            "grassland": 2,
        }

    def test_fertility_is_scored_once_after_the_last_season(self):
        _, end = self.finish(boards={0: LILY}, scores={0: 40, 1: 40})
        assert end.phase is Phase.OVER
        # snow 1x1 + swamp 0x1 + rock 3x0 + flowers 4x1 + wheat 3x4 + grassland 2x2
        assert end.seats[0].fertility == 1 + 0 + 0 + 4 + 12 + 4
        assert end.seats[1].fertility == 0
        last = end.seats[0].seasons[-1]
        assert end.seats[0].score == 40 + last.light + last.forest + 21
        assert end.outcome is not None
        assert end.outcome.scores == (end.seats[0].score, end.seats[1].score)

    def test_the_turns_of_the_last_round_count_for_fertility(self):
        turn = {0: Turn(0, "B", (Effect("grow", (5, 2)),))}
        state = last_round(
            {0: "wheat/big", 1: "wild/small"},
            fertility_zone=self.ZONE,
            boards={0: {(5, 2): "small"}},
        )
        end = submit_all(state, turn)
        assert end.seats[0].fertility == 3

    def test_no_fertility_is_scored_before_the_last_season(self):
        state = action_state(
            {0: "wild/sprout", 1: "wild/small"},
            season=3,
            round=3,
            boards={0: LILY},
            fertility_zone=self.ZONE,
        )
        after = submit_all(state)
        assert after.season == 4
        assert after.seats[0].fertility == 0
        assert after.outcome is None
