"""The Biggest Forest (rulebook "2. Biggest Forest", edition ruling 9)."""

from __future__ import annotations

from games.evergreen.rules.scoring import biggest_forest, forests
from tests.rules.builders import PLANET, board, line, planet, spaces

# The rulebook's example, laid out on the real planet:
#     c0 c1 c2 c3 c4 c5 c6
# r0   .  B  B  ^  C  C  .      ^ = the Sprout between Forests B and C
# r1   s  s  s  #  +  C  r      + = where one Bush would join C to A
# r2   m  m  s  A  A  r  r
# r3   m  m  g  *  g  #  f      * = where one Bush would join A to D
# r4   m  #  g  D  D  f  f
# r5   m  m  D  D  D  f  f      D holds a Bush at (5,3)
# r6   .  w  w  #  f  f  .
FOREST_A = {(2, 3): "small", (2, 4): "small"}
FOREST_B = {(0, 1): "small", (0, 2): "big"}
FOREST_C = {(0, 4): "big", (0, 5): "small", (1, 5): "small"}
FOREST_D = {(4, 3): "small", (4, 4): "big", (5, 2): "big", (5, 3): "bush", (5, 4): "small"}
EXAMPLE = {**FOREST_A, **FOREST_B, **FOREST_C, **FOREST_D, (0, 3): "sprout"}


def groups(on, cells):
    return sorted(
        (spaces(on, forest) for forest in forests(on, cells)), key=lambda g: (len(g), min(g))
    )


class TestTheRulebookExample:
    def test_there_are_four_forests_and_the_biggest_has_five_pieces_with_a_bush(self):
        cells = board(PLANET, EXAMPLE)
        assert groups(PLANET, cells) == [
            set(FOREST_B),
            set(FOREST_A),
            set(FOREST_C),
            set(FOREST_D),
        ]
        assert biggest_forest(PLANET, cells) == 5

    def test_one_bush_merges_the_biggest_forest_with_forest_a(self):
        cells = board(PLANET, {**EXAMPLE, (3, 3): "bush"})
        assert len(forests(PLANET, cells)) == 3
        assert biggest_forest(PLANET, cells) == 2 + 1 + 5

    def test_growing_the_sprout_merges_forests_b_and_c(self):
        cells = board(PLANET, {**EXAMPLE, (0, 3): "small"})
        assert len(forests(PLANET, cells)) == 3
        assert sorted(len(f) for f in forests(PLANET, cells)) == [2, 5, 6]

    def test_one_more_bush_then_makes_a_single_forest(self):
        cells = board(PLANET, {**EXAMPLE, (3, 3): "bush", (0, 3): "small", (1, 4): "bush"})
        assert len(forests(PLANET, cells)) == 1
        assert biggest_forest(PLANET, cells) == 2 + 2 + 3 + 5 + 3


class TestWhatMakesAForest:
    def test_small_trees_big_trees_and_bushes_all_count(self):
        row, cells = line("s s s", "small big bush")
        assert biggest_forest(row, cells) == 3

    def test_a_lone_tree_is_a_forest_of_one(self):
        row, cells = line("s s s", "- big -")
        assert biggest_forest(row, cells) == 1

    def test_a_lone_bush_is_a_forest_of_one(self):
        row, cells = line("s s s", "- bush -")
        assert biggest_forest(row, cells) == 1

    def test_no_trees_and_no_bushes_score_nothing(self):
        row, cells = line("s s s s", "sprout lake - sprout")
        assert forests(row, cells) == []
        assert biggest_forest(row, cells) == 0

    def test_only_the_biggest_forest_scores(self):
        row, cells = line("s s s s s s", "small small - big big big")
        assert biggest_forest(row, cells) == 3


class TestRuling9WhatBreaksAForest:
    def test_a_lake_breaks_a_forest(self):
        row, cells = line("s s s", "small lake small")
        assert len(forests(row, cells)) == 2
        assert biggest_forest(row, cells) == 1

    def test_a_sprout_breaks_a_forest(self):
        row, cells = line("s s s", "big sprout bush")
        assert len(forests(row, cells)) == 2
        assert biggest_forest(row, cells) == 1

    def test_a_crevice_breaks_a_forest(self):
        row, cells = line("s # s", "small - small")
        assert len(forests(row, cells)) == 2

    def test_an_off_planet_space_breaks_a_forest(self):
        row, cells = line("s . s", "small - small")
        assert len(forests(row, cells)) == 2

    def test_on_the_real_planet_the_crevice_at_1_3_separates_its_neighbours(self):
        cells = board(PLANET, {(1, 2): "small", (1, 4): "small", (0, 3): "sprout"})
        assert biggest_forest(PLANET, cells) == 1

    def test_diagonal_neighbours_are_not_connected(self):
        square = planet("s s", "s s")
        cells = board(square, {(0, 0): "small", (1, 1): "small"})
        assert len(forests(square, cells)) == 2

    def test_the_end_of_one_row_does_not_touch_the_start_of_the_next(self):
        grid = planet("s s s", "s s s", "s s s")
        cells = board(grid, {(0, 2): "small", (1, 0): "big", (1, 2): "bush", (2, 0): "small"})
        # (0,2)-(1,2) are one forest, (1,0)-(2,0) another; (1,2) and (2,0) follow each
        # other in reading order but are not neighbours.
        assert groups(grid, cells) == [{(0, 2), (1, 2)}, {(1, 0), (2, 0)}]

    def test_the_last_column_does_not_wrap_to_the_first_on_the_real_planet(self):
        cells = board(PLANET, {(2, 6): "big", (3, 0): "big", (1, 6): "small", (4, 0): "small"})
        assert biggest_forest(PLANET, cells) == 2
        assert len(forests(PLANET, cells)) == 2

    def test_forests_run_around_corners_orthogonally(self):
        cells = board(PLANET, {(2, 2): "small", (3, 2): "small", (3, 3): "bush", (2, 3): "big"})
        assert biggest_forest(PLANET, cells) == 4
