"""Collect Light: shadows, heights and points (rulebook "1. Collect Light", edition ruling 8)."""

from __future__ import annotations

import pytest

from games.evergreen.rules.scoring import light_points, light_score, shadowed_spaces
from tests.rules.builders import EDITION, PLANET, board, line, planet


def lit(on, cells, sun="W"):
    """The columns (one-row planets) or spaces of the trees that collect Light."""
    points = light_points(on, cells, sun, EDITION)
    spaces = sorted(on.space(i) for i, p in points.items() if p)
    return [col for _, col in spaces] if on.rows == 1 else spaces


def unlit(on, cells, sun="W"):
    points = light_points(on, cells, sun, EDITION)
    spaces = sorted(on.space(i) for i, p in points.items() if not p)
    return [col for _, col in spaces] if on.rows == 1 else spaces


def score(on, cells, sun="W"):
    """light_score, checked against the per-tree points so both paths agree."""
    total = light_score(on, cells, sun, EDITION)
    assert total == sum(light_points(on, cells, sun, EDITION).values())
    return total


class TestTheEditionsTreeNumbers:
    def test_small_trees_cast_one_space_and_score_one_point(self):
        assert EDITION.shadow["small"] == 1
        assert EDITION.light["small"] == 1

    def test_big_trees_cast_two_spaces_and_score_two_points(self):
        assert EDITION.shadow["big"] == 2
        assert EDITION.light["big"] == 2


class TestShadowSizes:
    """The illustrations under "Shadow sizes"."""

    def test_a_small_tree_shades_a_small_tree_right_behind_it(self):
        row, cells = line("s s s", "small small -")
        assert lit(row, cells) == [0]
        assert unlit(row, cells) == [1]

    def test_a_small_tree_does_not_shade_a_big_tree_right_behind_it(self):
        row, cells = line("s s s", "small big -")
        assert lit(row, cells) == [0, 1]
        assert score(row, cells) == 3

    def test_a_small_tree_shadow_is_one_space_long(self):
        row, cells = line("s s s", "small - small")
        assert shadowed_spaces(row, cells, "W", EDITION) == {1}
        assert lit(row, cells) == [0, 2]

    def test_a_big_tree_shades_both_spaces_behind_it_whatever_stands_there(self):
        row, cells = line("s s s s", "big small big small")
        assert shadowed_spaces(row, cells, "W", EDITION) == {1, 2, 3}
        assert lit(row, cells) == [0]
        assert unlit(row, cells) == [1, 2, 3]

    def test_a_big_tree_shadow_ends_after_two_spaces(self):
        row, cells = line("s s s s", "big - - small")
        assert shadowed_spaces(row, cells, "W", EDITION) == {1, 2}
        assert lit(row, cells) == [0, 3]
        assert score(row, cells) == 3

    def test_a_big_tree_is_shaded_by_a_big_tree_two_spaces_ahead(self):
        row, cells = line("s s s", "big - big")
        assert unlit(row, cells) == [2]

    def test_a_lit_small_tree_scores_one_and_a_lit_big_tree_two(self):
        row, cells = line("s s s s s", "small - - - big")
        assert light_points(row, cells, "W", EDITION) == {0: 1, 4: 2}
        assert score(row, cells) == 3

    def test_shadows_fall_away_from_the_sun_only(self):
        row, cells = line("s s", "small small")
        assert lit(row, cells, "W") == [0]
        assert lit(row, cells, "E") == [1]

    def test_nothing_on_the_board_scores_nothing(self):
        row, cells = line("s s s", "- - -")
        assert score(row, cells) == 0
        assert shadowed_spaces(row, cells, "W", EDITION) == frozenset()


class TestTheRulebookLineExamples:
    """'1.1 How to count Light Points', examples A to E, Sun on the left (W)."""

    def test_example_a_a_taller_tree_in_a_shadow_is_lit_and_shades_the_next_two(self):
        # 1st Tree small; 2nd Tree big (in the 1st's shadow but taller, so lit), its
        # 2-space shadow covers the 3rd and 4th Trees; the last Tree is in no shadow.
        row, cells = line("s s s s s s s", "small big small small - small -")
        assert lit(row, cells) == [0, 1, 5]
        assert unlit(row, cells) == [2, 3]
        assert score(row, cells) == 1 + 2 + 1

    def test_example_b_a_bush_neither_collects_light_nor_casts_a_shadow(self):
        # The 2nd Tree is shaded by the 1st (same height); the Bush casts no shadow, so
        # the 3rd Tree is lit.
        row, cells = line("s s s s s s s", "small small bush small - - -")
        assert lit(row, cells) == [0, 3]
        assert unlit(row, cells) == [1]
        assert 2 not in light_points(row, cells, "W", EDITION)
        assert score(row, cells) == 2

    def test_example_c_a_shaded_big_tree_still_casts_its_two_space_shadow(self):
        # The 2nd Big Tree is shaded by the 1st but shades the 3rd and 4th Trees, which
        # the 1st Big Tree's shadow does not reach.
        row, cells = line("s s s s s s s", "big - big small big - -")
        assert lit(row, cells) == [0]
        assert unlit(row, cells) == [2, 3, 4]
        assert score(row, cells) == 2

    def test_example_d_crevices_count_for_the_length_of_shadows(self):
        # The 1st Tree's shadow falls on the crevice, so the 2nd Tree is lit; the Big
        # Tree's 2-space shadow crosses the second crevice onto the rightmost Small Tree.
        row, cells = line("s # s s # s s", "small - small big - small -")
        assert lit(row, cells) == [0, 2, 3]
        assert unlit(row, cells) == [5]
        assert score(row, cells) == 1 + 1 + 2

    def test_example_e_lakes_and_sprouts_cast_no_shadow(self):
        # A Lake right before the 1st Small Tree and a Sprout right before the 2nd:
        # neither shades them. Each later Small Tree is shaded by the one before it.
        row, cells = line("s s s s s s s", "lake small sprout small small small small")
        assert lit(row, cells) == [1, 3]
        assert unlit(row, cells) == [4, 5, 6]
        assert score(row, cells) == 2

    def test_sprouts_bushes_and_lakes_collect_no_light(self):
        row, cells = line("s s s", "sprout bush lake")
        assert light_points(row, cells, "W", EDITION) == {}
        assert score(row, cells) == 0


class TestRuling8ShadowLength:
    """Shadows are measured in grid steps, counting crevices and off-planet corners."""

    def test_a_small_tree_shadow_ends_on_a_crevice(self):
        row, cells = line("s # s", "small - small")
        assert lit(row, cells) == [0, 2]

    def test_a_big_tree_shadow_reaches_across_a_crevice(self):
        row, cells = line("s # s", "big - small")
        assert unlit(row, cells) == [2]
        assert shadowed_spaces(row, cells, "W", EDITION) == {1, 2}

    def test_an_off_planet_space_counts_for_shadow_length(self):
        row, cells = line("s . s", "small - small")
        assert lit(row, cells) == [0, 2]
        row, cells = line("s . s", "big - big")
        assert unlit(row, cells) == [2]

    def test_an_off_planet_space_is_covered_like_any_other_space(self):
        row, cells = line("s . s s", "big - - small")
        assert shadowed_spaces(row, cells, "W", EDITION) == {1, 2}
        assert lit(row, cells) == [0, 3]

    def test_on_the_real_planet_a_crevice_stops_a_big_tree_shadow_one_space_short(self):
        # Row 1 is "s s s # r r r": a Big Tree at (1,1) shades (1,2) and the crevice
        # (1,3); a Small Tree at (1,4) is lit.
        cells = board(PLANET, {(1, 1): "big", (1, 2): "small", (1, 4): "small"})
        assert lit(PLANET, cells, "W") == [(1, 1), (1, 4)]
        assert (1, 3) in {PLANET.space(i) for i in shadowed_spaces(PLANET, cells, "W", EDITION)}

    def test_a_shaded_tree_is_lit_again_once_the_shadow_has_ended(self):
        row, cells = line("s s s s", "small small - small")
        assert lit(row, cells) == [0, 3]

    def test_shading_needs_a_tree_at_least_as_tall_not_just_any_shadow(self):
        # The Big Tree at 2 sits in the Small Tree's shadow but is lit; the Small Tree
        # at 3 sits in the Big Tree's shadow and is not.
        row, cells = line("s s s s", "- small big small")
        assert lit(row, cells) == [1, 2]
        assert unlit(row, cells) == [3]

    def test_each_line_is_counted_on_its_own(self):
        square = planet("s s", "s s")
        cells = board(square, {(0, 0): "big", (1, 1): "small"})
        assert lit(square, cells, "W") == [(0, 0), (1, 1)]


class TestTheFourSunsOnTheRealPlanet:
    """A Big Tree at (3,3), Small Trees at (3,4) and (4,3), a Big Tree at (3,1)."""

    CELLS = board(PLANET, {(3, 3): "big", (3, 4): "small", (4, 3): "small", (3, 1): "big"})

    def test_the_sun_in_the_west_lights_rows_from_the_left(self):
        # (3,1) shades (3,2) and (3,3); (3,3) still shades (3,4).
        assert lit(PLANET, self.CELLS, "W") == [(3, 1), (4, 3)]
        assert score(PLANET, self.CELLS, "W") == 3

    def test_the_sun_in_the_east_lights_rows_from_the_right(self):
        # (3,4) casts one space on the taller (3,3), which shades (3,2) and (3,1).
        assert lit(PLANET, self.CELLS, "E") == [(3, 3), (3, 4), (4, 3)]
        assert score(PLANET, self.CELLS, "E") == 4

    def test_the_sun_in_the_north_lights_columns_from_the_top(self):
        assert lit(PLANET, self.CELLS, "N") == [(3, 1), (3, 3), (3, 4)]
        assert unlit(PLANET, self.CELLS, "N") == [(4, 3)]
        assert score(PLANET, self.CELLS, "N") == 5

    def test_the_sun_in_the_south_lights_columns_from_the_bottom(self):
        # (4,3) is small: its shadow on (3,3) does not shade the Big Tree.
        assert lit(PLANET, self.CELLS, "S") == [(3, 1), (3, 3), (3, 4), (4, 3)]
        assert score(PLANET, self.CELLS, "S") == 6

    @pytest.mark.parametrize(
        ("sun", "shaded"),
        [
            ("W", {(3, 2), (3, 3), (3, 4), (3, 5), (4, 4)}),
            ("E", {(3, 3), (3, 2), (3, 1), (3, 0), (4, 2)}),
            ("N", {(4, 1), (5, 1), (4, 3), (5, 3), (4, 4)}),
            ("S", {(3, 3), (2, 3), (1, 3), (2, 1), (1, 1), (2, 4)}),
        ],
    )
    def test_shadows_fall_on_the_far_side_of_each_tree(self, sun, shaded):
        assert {PLANET.space(i) for i in shadowed_spaces(PLANET, self.CELLS, sun, EDITION)} == (
            shaded
        )
