"""Schedules: round robins (every pair meets, seats balanced), knockouts and league seasons.

Pure functions, no database.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.pairinghelpers import FAST, check_round
from tournaments.pairing import (
    Pairing,
    PairingError,
    affine_plane,
    knockout,
    meetings_from,
    natural_rounds,
    next_season_divisions,
    round_robin,
)


class TestRoundRobin:
    @pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 11, 12])
    def test_two_player_tables_make_a_full_round_robin(self, n: int) -> None:
        schedule = round_robin(list(range(10, 10 + n)), table_size=2, seed=n)
        assert len(schedule) == natural_rounds(n, 2) == (n - 1 if n % 2 == 0 else n)
        for pairing in schedule:
            check_round(pairing, range(10, 10 + n), 2, 2)
            assert len(pairing.byes) == n % 2
        met = meetings_from(t for p in schedule for t in p.tables)
        assert len(met) == n * (n - 1) // 2
        assert set(met.values()) == {1}
        assert sorted(b for p in schedule for b in p.byes) == (
            list(range(10, 10 + n)) if n % 2 else []
        )

    def test_two_player_seats_alternate(self) -> None:
        schedule = round_robin(list(range(8)), table_size=2, rounds=14)
        firsts = Counter(t[0] for p in schedule[:7] for t in p.tables)
        assert set(firsts.values()) == {3, 4}
        firsts = Counter(t[0] for p in schedule for t in p.tables)
        assert sorted(firsts.values()) == [7] * 8
        assert schedule[7:] == [
            Pairing(tuple(t[::-1] for t in p.tables), p.byes) for p in schedule[:7]
        ]

    def test_nine_players_at_tables_of_three_meet_exactly_once_in_four_rounds(self) -> None:
        schedule = round_robin(list(range(1, 10)), table_size=3)
        assert len(schedule) == 4
        for pairing in schedule:
            check_round(pairing, range(1, 10), 3, 3)
        met = meetings_from(t for p in schedule for t in p.tables)
        assert len(met) == 36 and set(met.values()) == {1}

    def test_nine_players_at_tables_of_four_sit_at_three_tables_of_three(self) -> None:
        schedule = round_robin(list(range(9)), table_size=4, seed=2)
        assert len(schedule) == natural_rounds(9, 4) == 4
        assert all(sorted(map(len, p.tables)) == [3, 3, 3] for p in schedule)
        met = meetings_from(t for p in schedule for t in p.tables)
        assert len(met) == 36 and set(met.values()) == {1}

    @pytest.mark.parametrize(
        ("n", "size", "rounds"),
        [(2, 3, 1), (3, 3, 1), (4, 3, 3), (7, 3, 5), (8, 4, 3), (10, 4, 4), (13, 4, 6), (20, 4, 7)],
    )
    def test_natural_rounds_let_everyone_meet_everyone(
        self, n: int, size: int, rounds: int
    ) -> None:
        assert natural_rounds(n, size) == rounds

    def test_sixteen_players_at_tables_of_four_meet_exactly_once_in_five_rounds(self) -> None:
        schedule = round_robin(list(range(16)), table_size=4, seed=3)
        assert len(schedule) == 5
        met = meetings_from(t for p in schedule for t in p.tables)
        assert len(met) == 120 and set(met.values()) == {1}

    @pytest.mark.parametrize("q", [2, 3, 4])
    def test_affine_planes_put_every_pair_on_one_line(self, q: int) -> None:
        classes = affine_plane(q)
        assert len(classes) == q + 1
        for lines in classes:
            assert sorted(p for line in lines for p in line) == list(range(q * q))
        met = meetings_from(line for lines in classes for line in lines)
        assert len(met) == q * q * (q * q - 1) // 2 and set(met.values()) == {1}

    def test_four_players_at_one_table_hold_each_seat_once_in_four_rounds(self) -> None:
        schedule = round_robin([5, 6, 7, 8], table_size=4, rounds=4)
        seats = {
            p: [t.index(p) for pairing in schedule for t in pairing.tables] for p in (5, 6, 7, 8)
        }
        assert all(sorted(s) == [0, 1, 2, 3] for s in seats.values())

    @pytest.mark.parametrize(("n", "size"), [(9, 3), (16, 4), (8, 4), (6, 3)])
    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_seats_are_balanced_over_the_whole_schedule(self, n: int, size: int, seed: int) -> None:
        schedule = round_robin(list(range(n)), table_size=size, seed=seed)
        for player in range(n):
            seats = Counter(t.index(player) for p in schedule for t in p.tables if player in t)
            counts = [seats.get(s, 0) for s in range(size)]
            assert max(counts) - min(counts) <= 1, (player, counts)

    @pytest.mark.parametrize(
        ("n", "size", "rounds", "most_unmet"),
        [(7, 3, 5, 0), (8, 4, 3, 4), (10, 3, 6, 1), (12, 4, 4, 12), (13, 4, 6, 2)],
    )
    def test_meetings_are_spread_evenly(
        self, n: int, size: int, rounds: int, most_unmet: int
    ) -> None:
        schedule = round_robin(list(range(n)), table_size=size)
        assert len(schedule) == rounds
        met = meetings_from(t for p in schedule for t in p.tables)
        counts = [met.get(frozenset(pair), 0) for pair in itertools.combinations(range(n), 2)]
        assert max(counts) - min(counts) <= 2
        assert counts.count(0) <= most_unmet

    @given(st.integers(0, 13), st.integers(2, 4), st.integers(0, 6), st.integers(0, 3))
    @settings(max_examples=30, deadline=None)
    def test_every_round_is_valid_and_byes_are_shared(
        self, n: int, size: int, rounds: int, seed: int
    ) -> None:
        players = list(range(50, 50 + n))
        schedule = round_robin(players, table_size=size, rounds=rounds, seed=seed)
        assert len(schedule) == rounds
        least = max(2, size - 1) if size > 2 else 2
        for pairing in schedule:
            check_round(pairing, players, min(least, size), size)
        byes = Counter(b for p in schedule for b in p.byes)
        shares = [byes[p] for p in players]
        assert max(shares, default=0) - min(shares, default=0) <= 1
        assert byes.keys() <= set(players)
        assert schedule == round_robin(players, table_size=size, rounds=rounds, seed=seed)

    def test_negative_rounds_are_refused(self) -> None:
        with pytest.raises(PairingError):
            round_robin([1, 2, 3], table_size=3, rounds=-1)


class TestKnockout:
    def test_snake_seeding_spreads_the_strongest(self) -> None:
        pairing = knockout(list(range(1, 17)))
        assert [sorted(t) for t in pairing.tables] == [
            [1, 8, 9, 16],
            [2, 7, 10, 15],
            [3, 6, 11, 14],
            [4, 5, 12, 13],
        ]

    def test_uneven_fields_fill_the_smaller_tables_last(self) -> None:
        pairing = knockout(list(range(1, 11)))
        assert [sorted(t) for t in pairing.tables] == [[1, 6, 7, 10], [2, 5, 8], [3, 4, 9]]

    def test_a_final_table_holds_everyone_left(self) -> None:
        assert [sorted(t) for t in knockout([9, 4, 7]).tables] == [[4, 7, 9]]

    def test_byes_go_to_the_top_seeds(self) -> None:
        pairing = knockout([1, 2, 3, 4, 5], table_size=4, min_size=4)
        assert pairing.byes == (1,)
        assert sorted(pairing.tables[0]) == [2, 3, 4, 5]

    @given(st.integers(0, 40), st.integers(2, 4), st.integers(0, 3))
    @FAST
    def test_every_round_is_valid(self, n: int, size: int, seed: int) -> None:
        pairing = knockout(list(range(n)), table_size=size, seed=seed)
        check_round(pairing, range(n), min(2, size), size)
        assert pairing == knockout(list(range(n)), table_size=size, seed=seed)


class TestNextSeason:
    def test_top_players_go_up_and_bottom_players_go_down(self) -> None:
        divisions = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
        assert next_season_divisions(divisions, promote=1, relegate=1) == [
            [1, 2, 3, 5],
            [4, 6, 7, 9],
            [8, 10, 11, 12],
        ]

    def test_uneven_promotion_changes_division_sizes(self) -> None:
        divisions = [[1, 2, 3], [4, 5, 6]]
        assert next_season_divisions(divisions, promote=2, relegate=1) == [
            [1, 2, 4, 5],
            [3, 6],
        ]

    def test_a_single_division_stays_as_it_is(self) -> None:
        assert next_season_divisions([[3, 1, 2]], promote=1, relegate=1) == [[3, 1, 2]]

    def test_a_division_too_small_is_refused(self) -> None:
        with pytest.raises(PairingError) as raised:
            next_season_divisions([[1, 2], [3], [4, 5]], promote=1, relegate=1)
        assert raised.value.code == "division_too_small"

    def test_negative_counts_and_duplicates_are_refused(self) -> None:
        with pytest.raises(PairingError):
            next_season_divisions([[1], [2]], promote=-1, relegate=0)
        with pytest.raises(PairingError):
            next_season_divisions([[1, 2], [2, 3]], promote=1, relegate=1)
