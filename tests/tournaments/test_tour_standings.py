"""Places, tournament points and standings with each tie-break, by hand-computed values.

Pure functions, no database.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    TIEBREAKS,
    Row,
    StandingsError,
    TableResult,
    places,
    standings,
    table_points,
)

# Six players at two-player tables over two rounds (hand-computed below):
#   R1: 1-2 (30:35, 2 wins), 3-4 (50:20, 3 wins), 5-6 (40:10, 5 wins)
#   R2: 1-3 (45:44, 1 wins), 2-5 (20:41, 5 wins), 4-6 (33:32, 4 wins)
# Points: 5 = 2; 1, 2, 3, 4 = 1; 6 = 0.
# Opponents' points: 1 = 2(1)+3(1) = 2, 2 = 1+5 = 3, 3 = 4+1 = 2, 4 = 3+6 = 1,
#                    5 = 6+2 = 1, 6 = 5+4 = 3.
# Scores: 1 = 75, 2 = 55, 3 = 94, 4 = 53, 5 = 81, 6 = 42.
# Head to head among {1, 2, 3, 4}: 1 beat 3, lost to 2 -> 1; 2 beat 1 -> 1;
#                                  3 beat 4, lost to 1 -> 1; 4 lost to 3 -> 0.
RESULTS = [
    TableResult(1, (1, 2), (30, 35)),
    TableResult(1, (3, 4), (50, 20)),
    TableResult(1, (5, 6), (40, 10)),
    TableResult(2, (1, 3), (45, 44)),
    TableResult(2, (2, 5), (20, 41)),
    TableResult(2, (4, 6), (33, 32)),
]
PLAYERS = [1, 2, 3, 4, 5, 6]


def ranking(rows: list[Row]) -> list[tuple[int, int]]:
    return [(row.rank, row.player) for row in rows]


class TestPlaces:
    def test_higher_scores_place_better_and_ties_share_the_best_place(self) -> None:
        result = TableResult(1, (7, 8, 9, 10), (40, 52, 40, 12))
        assert places(result) == {7: 2, 8: 1, 9: 2, 10: 4}

    def test_a_player_ranked_last_by_a_timeout_comes_after_everyone(self) -> None:
        result = TableResult(1, (7, 8, 9), (60, 52, 40), last=frozenset({7}))
        assert places(result) == {7: 3, 8: 1, 9: 2}

    def test_two_players_ranked_last_share_the_last_place(self) -> None:
        result = TableResult(1, (7, 8, 9, 10), (60, 52, 40, 1), last=frozenset({7, 9}))
        assert places(result) == {7: 3, 8: 1, 9: 3, 10: 2}

    def test_inconsistent_results_are_refused(self) -> None:
        with pytest.raises(StandingsError) as raised:
            TableResult(1, (1, 2), (10,))
        assert raised.value.code == "scores_mismatch"
        with pytest.raises(StandingsError):
            TableResult(1, (1, 1), (10, 10))
        with pytest.raises(StandingsError):
            TableResult(1, (1, 2), (10, 10), last=frozenset({3}))


class TestTablePoints:
    def test_by_default_a_place_is_worth_the_players_at_the_table_minus_the_place(self) -> None:
        assert table_points(TableResult(1, (1, 2, 3, 4), (50, 60, 40, 30))) == {
            1: 2.0,
            2: 3.0,
            3: 1.0,
            4: 0.0,
        }
        assert table_points(TableResult(1, (1, 2, 3), (5, 6, 7))) == {1: 0.0, 2: 1.0, 3: 2.0}

    def test_tied_players_share_the_points_of_the_places_they_cover(self) -> None:
        assert table_points(TableResult(1, (1, 2, 3, 4), (50, 50, 40, 30))) == {
            1: 2.5,
            2: 2.5,
            3: 1.0,
            4: 0.0,
        }
        assert table_points(TableResult(1, (1, 2, 3, 4), (9, 9, 9, 9))) == dict.fromkeys(
            (1, 2, 3, 4), 1.5
        )

    def test_a_scheme_sets_the_worth_of_each_place(self) -> None:
        result = TableResult(1, (1, 2, 3, 4), (10, 40, 30, 30))
        assert table_points(result, [5, 3, 2, 1]) == {1: 1.0, 2: 5.0, 3: 2.5, 4: 2.5}

    def test_places_past_the_end_of_a_scheme_earn_nothing(self) -> None:
        result = TableResult(1, (1, 2, 3), (10, 40, 30))
        assert table_points(result, [1]) == {1: 0.0, 2: 1.0, 3: 0.0}

    def test_a_timed_out_player_ranked_last_earns_the_last_place(self) -> None:
        result = TableResult(1, (1, 2, 3), (70, 40, 30), last=frozenset({1}))
        assert table_points(result) == {1: 0.0, 2: 2.0, 3: 1.0}

    @given(st.lists(st.integers(0, 5), min_size=1, max_size=4))
    @settings(max_examples=40, deadline=None)
    def test_a_table_always_hands_out_every_place_once(self, scores: list[int]) -> None:
        result = TableResult(1, tuple(range(len(scores))), tuple(scores))
        points = table_points(result)
        n = len(scores)
        assert sum(points.values()) == pytest.approx(n * (n - 1) / 2)
        for a in range(n):
            for b in range(n):
                if scores[a] > scores[b]:
                    assert points[a] > points[b]


class TestStandings:
    def test_the_default_order_is_points_then_opponents_then_score(self) -> None:
        rows = standings(PLAYERS, RESULTS)
        assert ranking(rows) == [(1, 5), (2, 2), (3, 3), (4, 1), (5, 4), (6, 6)]
        by_player = {row.player: row for row in rows}
        assert by_player[2] == Row(
            player=2,
            rank=2,
            points=1.0,
            opponents=3.0,
            score=55,
            head_to_head=0.0,
            played=2,
            byes=0,
            seats=(1, 1, 0, 0),
        )
        assert [by_player[p].opponents for p in PLAYERS] == [2.0, 3.0, 2.0, 1.0, 1.0, 3.0]
        assert [by_player[p].score for p in PLAYERS] == [75, 55, 94, 53, 81, 42]
        assert by_player[1].seats == (2, 0, 0, 0)
        assert by_player[6].seats == (0, 2, 0, 0)

    def test_opponents_points_alone(self) -> None:
        rows = standings(PLAYERS, RESULTS, tiebreaks=("opponents",))
        assert ranking(rows) == [(1, 5), (2, 2), (3, 1), (3, 3), (5, 4), (6, 6)]

    def test_game_score_alone(self) -> None:
        rows = standings(PLAYERS, RESULTS, tiebreaks=("score",))
        assert ranking(rows) == [(1, 5), (2, 3), (3, 1), (4, 2), (5, 4), (6, 6)]

    def test_head_to_head_alone_counts_results_against_the_players_tied_on_points(self) -> None:
        rows = standings(PLAYERS, RESULTS, tiebreaks=("head_to_head",))
        assert ranking(rows) == [(1, 5), (2, 1), (2, 2), (2, 3), (5, 4), (6, 6)]
        assert {r.player: r.head_to_head for r in rows} == {
            1: 1.0,
            2: 1.0,
            3: 1.0,
            4: 0.0,
            5: 0.0,
            6: 0.0,
        }

    def test_head_to_head_after_opponents_is_among_those_still_tied(self) -> None:
        # 1 and 3 are still tied after opponents' points; 1 beat 3.
        rows = standings(PLAYERS, RESULTS, tiebreaks=("opponents", "head_to_head"))
        assert ranking(rows) == [(1, 5), (2, 2), (3, 1), (4, 3), (5, 4), (6, 6)]
        by_player = {row.player: row for row in rows}
        assert (by_player[1].head_to_head, by_player[3].head_to_head) == (1.0, 0.0)

    def test_head_to_head_before_score(self) -> None:
        rows = standings(PLAYERS, RESULTS, tiebreaks=("head_to_head", "score"))
        assert ranking(rows) == [(1, 5), (2, 3), (3, 1), (4, 2), (5, 4), (6, 6)]

    def test_without_tiebreaks_equal_points_share_a_rank(self) -> None:
        rows = standings(PLAYERS, RESULTS, tiebreaks=())
        assert ranking(rows) == [(1, 5), (2, 1), (2, 2), (2, 3), (2, 4), (6, 6)]

    def test_byes_earn_their_points_and_count_for_opponents(self) -> None:
        rows = standings(PLAYERS, RESULTS, byes={6: 1}, bye_points=1.0, tiebreaks=())
        by_player = {row.player: row for row in rows}
        assert (by_player[6].points, by_player[6].byes, by_player[6].played) == (1.0, 1, 2)
        assert by_player[5].opponents == 2.0  # 6 now has 1 point, 2 has 1
        assert by_player[4].opponents == 2.0
        assert ranking(rows) == [(1, 5), (2, 1), (2, 2), (2, 3), (2, 4), (2, 6)]

    def test_a_scheme_changes_the_points(self) -> None:
        rows = standings(PLAYERS, RESULTS, scheme=[3, 1])
        assert {r.player: r.points for r in rows} == {
            1: 4.0,
            2: 4.0,
            3: 4.0,
            4: 4.0,
            5: 6.0,
            6: 2.0,
        }

    def test_a_withdrawn_players_results_still_count_for_the_others(self) -> None:
        rows = standings([1, 2, 3, 4, 5], RESULTS, byes={6: 1}, bye_points=1.0)
        assert [row.player for row in rows if row.player == 6] == []
        assert {row.player: row.opponents for row in rows}[5] == 2.0

    def test_a_player_who_has_not_played_is_listed_with_nothing(self) -> None:
        rows = standings([1, 2, 3, 4, 5, 6, 7], RESULTS)
        assert rows[-1] == Row(7, 7, 0.0, 0.0, 0, 0.0, 0, 0, (0, 0, 0, 0))

    def test_fractional_points_that_should_tie_do(self) -> None:
        results = [
            TableResult(1, (1, 2, 3), (30, 20, 10)),
            TableResult(2, (1, 2, 3), (10, 30, 20)),
            TableResult(3, (1, 2, 3), (20, 10, 30)),
        ]
        rows = standings([1, 2, 3], results, scheme=[0.3, 0.2, 0.1], tiebreaks=())
        assert [row.rank for row in rows] == [1, 1, 1]
        assert [row.points for row in rows] == [0.6, 0.6, 0.6]
        assert [row.opponents for row in rows] == [3.6, 3.6, 3.6]  # 3 tables x 2 x 0.6

    def test_a_player_listed_twice_is_refused(self) -> None:
        with pytest.raises(StandingsError) as raised:
            standings([1, 2, 1], RESULTS)
        assert raised.value.code == "duplicate_player"

    @pytest.mark.parametrize("tiebreaks", [("luck",), ("score", "score")])
    def test_unknown_or_repeated_tiebreaks_are_refused(self, tiebreaks: tuple[str, ...]) -> None:
        with pytest.raises(StandingsError) as raised:
            standings(PLAYERS, RESULTS, tiebreaks=tiebreaks)
        assert raised.value.code in {"unknown_tiebreak", "duplicate_tiebreak"}

    def test_the_default_tiebreaks(self) -> None:
        assert TIEBREAKS == ("opponents", "score", "head_to_head")
