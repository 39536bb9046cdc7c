"""Seating: table sizes, meetings, Swiss rounds and seat rotation.

Pure functions, no database. Repeat meetings are checked against a brute-force
optimum over every seating of small rounds. Round robins, knockouts and league seasons
are in test_tour_schedules.py.
"""

from __future__ import annotations

import doctest
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tournaments.pairing.core
import tournaments.pairing.knockouts
import tournaments.pairing.round_robins
import tournaments.pairing.swiss_rounds
import tournaments.schedule
import tournaments.seating
import tournaments.standings
from tests.tournaments.pairinghelpers import FAST, check_round
from tournaments.pairing import (
    Entrant,
    PairingError,
    meetings_from,
    repeat_count,
    seat_order,
    swiss,
    table_sizes,
)


def seatings(players: Sequence[int], sizes: Sequence[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every way to split ``players`` into tables of ``sizes``: the first player at a
    table of each size, the rest recursively (equal tables come more than once: fine
    for an optimum)."""
    if not sizes:
        yield []
        return
    head, others = players[0], list(players[1:])
    for size in sorted(set(sizes)):
        rest = list(sizes)
        rest.remove(size)
        for mates in itertools.combinations(others, size - 1):
            left = [p for p in others if p not in mates]
            for tail in seatings(left, rest):
                yield [(head, *mates), *tail]


@st.composite
def swiss_rounds(
    draw: st.DrawFn, most: int = 14
) -> tuple[list[Entrant], dict[frozenset[int], int], int, int]:
    n = draw(st.integers(0, most))
    table_size = draw(st.integers(2, 4))
    min_size = draw(st.integers(2, table_size))
    entrants = [
        Entrant(
            id=100 + i,
            points=draw(st.sampled_from([0.0, 1.0, 1.5, 2.0, 3.0])),
            score=draw(st.integers(0, 80)),
            seats=tuple(draw(st.lists(st.integers(0, table_size - 1), max_size=3))),
            byes=draw(st.integers(0, 1)),
        )
        for i in range(n)
    ]
    ids = [e.id for e in entrants]
    pairs = list(itertools.combinations(ids, 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=3 * n)) if pairs else []
    meetings = dict(Counter(frozenset(p) for p in met))
    return entrants, meetings, table_size, min_size


@pytest.mark.parametrize(
    "module",
    [
        tournaments.pairing.core,
        tournaments.pairing.swiss_rounds,
        tournaments.pairing.round_robins,
        tournaments.pairing.knockouts,
        tournaments.seating,
        tournaments.schedule,
        tournaments.standings,
    ],
)
def test_the_examples_in_the_docstrings_hold(module: object) -> None:
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]


def test_the_brute_force_sees_every_seating() -> None:
    found = {frozenset(frozenset(t) for t in s) for s in seatings(list(range(7)), [3, 2, 2])}
    assert len(found) == 5040 // (6 * 2 * 2 * 2)


class TestTableSizes:
    @pytest.mark.parametrize(
        ("n", "size", "least", "expected"),
        [
            (0, 4, 3, ([], 0)),
            (4, 4, 3, ([4], 0)),
            (5, 4, 3, ([4], 1)),
            (6, 4, 3, ([3, 3], 0)),
            (7, 4, 3, ([4, 3], 0)),
            (9, 4, 3, ([3, 3, 3], 0)),
            (10, 4, 3, ([4, 3, 3], 0)),
            (10, 4, 2, ([4, 3, 3], 0)),
            (5, 4, 2, ([3, 2], 0)),
            (6, 4, 4, ([4], 2)),
            (7, 2, 2, ([2, 2, 2], 1)),
            (2, 4, 3, ([], 2)),
        ],
    )
    def test_it_prefers_full_even_tables_and_fewest_byes(
        self, n: int, size: int, least: int, expected: tuple[list[int], int]
    ) -> None:
        assert table_sizes(n, size, least) == expected

    @given(st.integers(0, 60), st.integers(1, 4), st.integers(1, 4))
    @FAST
    def test_no_smaller_number_of_byes_would_fit(self, n: int, size: int, least: int) -> None:
        least = min(least, size)
        sizes, byes = table_sizes(n, size, least)
        assert sum(sizes) + byes == n
        assert all(least <= s <= size for s in sizes)
        assert max(sizes, default=0) - min(sizes, default=0) <= 1
        for fewer in range(byes):
            seated = n - fewer
            assert not any(t * least <= seated <= t * size for t in range(1, seated + 1))

    @pytest.mark.parametrize(("size", "least"), [(6, 3), (0, 0), (4, 5), (3, 0)])
    def test_it_refuses_impossible_table_sizes(self, size: int, least: int) -> None:
        with pytest.raises(PairingError):
            table_sizes(8, size, least)


class TestMeetings:
    def test_it_counts_every_pair_at_every_table(self) -> None:
        counted = meetings_from([(1, 2, 3), (2, 1), (4, 5)])
        assert counted == {
            frozenset({1, 2}): 2,
            frozenset({1, 3}): 1,
            frozenset({2, 3}): 1,
            frozenset({4, 5}): 1,
        }
        assert repeat_count([(1, 2, 4)], counted) == 2


class TestSwiss:
    @given(swiss_rounds(), st.integers(0, 5))
    @FAST
    def test_every_entrant_is_seated_once_or_has_a_bye(
        self, case: tuple[list[Entrant], dict[frozenset[int], int], int, int], seed: int
    ) -> None:
        entrants, meetings, size, least = case
        pairing = swiss(entrants, meetings, table_size=size, min_size=least, seed=seed)
        check_round(pairing, [e.id for e in entrants], least, size)
        sizes, byes = table_sizes(len(entrants), size, least)
        assert sorted(len(t) for t in pairing.tables) == sorted(sizes)
        assert len(pairing.byes) == byes

    @given(swiss_rounds(most=9), st.integers(0, 3))
    @settings(max_examples=60, deadline=None)
    def test_repeat_meetings_are_as_few_as_any_seating_allows(
        self, case: tuple[list[Entrant], dict[frozenset[int], int], int, int], seed: int
    ) -> None:
        entrants, meetings, size, least = case
        seated = [e.id for e in entrants]
        for exact_limit in (20_000, 0):  # branch and bound, then local search alone
            pairing = swiss(
                entrants,
                meetings,
                table_size=size,
                min_size=least,
                seed=seed,
                exact_limit=exact_limit,
            )
            playing = [p for p in seated if p not in pairing.byes]
            sizes, _ = table_sizes(len(seated), size, least)
            best = min(repeat_count(s, meetings) for s in seatings(playing, sizes))
            assert repeat_count(pairing.tables, meetings) == best

    @given(swiss_rounds(), st.integers(0, 5))
    @settings(max_examples=25, deadline=None)
    def test_it_is_deterministic_for_a_seed(
        self, case: tuple[list[Entrant], dict[frozenset[int], int], int, int], seed: int
    ) -> None:
        entrants, meetings, size, least = case
        first = swiss(entrants, meetings, table_size=size, min_size=least, seed=seed)
        again = swiss(entrants, meetings, table_size=size, min_size=least, seed=seed)
        assert first == again

    def test_the_first_round_is_shuffled_by_the_seed(self) -> None:
        entrants = [Entrant(i) for i in range(16)]
        rounds = {swiss(entrants, {}, seed=seed).tables for seed in range(5)}
        assert len(rounds) == 5

    def test_tables_group_players_by_standing(self) -> None:
        entrants = [Entrant(i, points=float(20 - i)) for i in range(12)]
        pairing = swiss(entrants, {})
        assert [sorted(t) for t in pairing.tables] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]

    def test_equal_game_scores_order_players_within_equal_points(self) -> None:
        entrants = [Entrant(i, points=1.0, score=i) for i in range(8)]
        pairing = swiss(entrants, {})
        assert [sorted(t) for t in pairing.tables] == [[4, 5, 6, 7], [0, 1, 2, 3]]

    def test_a_repeat_is_avoided_by_the_smallest_move_in_standing(self) -> None:
        entrants = [Entrant(i, points=float(20 - i)) for i in range(8)]
        pairing = swiss(entrants, meetings_from([(0, 1)]))
        assert repeat_count(pairing.tables, meetings_from([(0, 1)])) == 0
        # Moving 1 down and 4 up costs the least distance in standing.
        assert [sorted(t) for t in pairing.tables] == [[0, 2, 3, 4], [1, 5, 6, 7]]

    def test_pairs_met_twice_weigh_more_than_pairs_met_once(self) -> None:
        # Every seating repeats one pair; {0, 1} met twice weighs more than {0, 2}.
        meetings = {
            frozenset({0, 1}): 2,
            frozenset({0, 2}): 1,
            frozenset({0, 3}): 1,
            frozenset({1, 2}): 1,
        }
        for seed in range(5):
            pairing = swiss(
                [Entrant(i) for i in range(4)], meetings, table_size=2, min_size=2, seed=seed
            )
            assert sorted(sorted(t) for t in pairing.tables) == [[0, 2], [1, 3]]

    def test_the_bye_goes_to_the_lowest_ranked_of_those_with_fewest_byes(self) -> None:
        entrants = [
            Entrant(1, points=9.0),
            Entrant(2, points=5.0),
            Entrant(3, points=4.0, byes=1),
            Entrant(4, points=2.0),
            Entrant(5, points=1.0, byes=1),
        ]
        pairing = swiss(entrants, {}, table_size=4, min_size=4)
        assert pairing.byes == (4,)

    def test_two_byes_go_lowest_first(self) -> None:
        entrants = [Entrant(i, points=float(10 - i)) for i in range(6)]
        pairing = swiss(entrants, {}, table_size=4, min_size=4)
        assert pairing.byes == (5, 4)

    def test_tables_come_in_seat_order_balancing_earlier_seats(self) -> None:
        entrants = [Entrant(1, seats=(0, 0)), Entrant(2, seats=(1, 1)), Entrant(3, seats=(2, 2))]
        pairing = swiss(entrants, {}, table_size=3)
        (table,) = pairing.tables
        assert table[0] != 1 and table[1] != 2 and table[2] != 3

    def test_sixty_four_players_over_six_rounds_never_meet_twice(self) -> None:
        entrants = {i: Entrant(i) for i in range(64)}
        history: list[tuple[int, ...]] = []
        for number in range(6):
            meetings = meetings_from(history)
            pairing = swiss(list(entrants.values()), meetings, seed=number)
            check_round(pairing, list(entrants), 4, 4)
            assert repeat_count(pairing.tables, meetings) == 0
            for table in pairing.tables:
                for seat, player in enumerate(table):
                    old = entrants[player]
                    entrants[player] = Entrant(
                        player,
                        old.points + (player * 7 + number) % 4,
                        old.score,
                        (*old.seats, seat),
                    )
            history.extend(pairing.tables)

    def test_a_player_entered_twice_is_refused(self) -> None:
        with pytest.raises(PairingError) as raised:
            swiss([Entrant(1), Entrant(1)], {})
        assert raised.value.code == "duplicate_player"


class TestSeatOrder:
    def test_without_history_it_is_a_seeded_order_of_the_same_players(self) -> None:
        orders = {seat_order([1, 2, 3, 4], {}, seed=s) for s in range(8)}
        assert all(sorted(o) == [1, 2, 3, 4] for o in orders)
        assert len(orders) > 1
        assert seat_order([1, 2, 3, 4], {}, seed=3) == seat_order([4, 3, 2, 1], {}, seed=3)

    def test_it_avoids_seats_already_held(self) -> None:
        history = {1: [0], 2: [1], 3: [2], 4: [3]}
        for seed in range(6):
            order = seat_order([1, 2, 3, 4], history, seed=seed)
            assert all(order[s] != p for s, p in enumerate([1, 2, 3, 4]))

    def test_a_player_often_first_moves_late(self) -> None:
        order = seat_order([1, 2, 3], {1: [0, 0, 1], 2: [2, 2, 1], 3: [1, 0, 2]})
        assert order == (2, 3, 1)

    def test_more_than_five_players_are_refused(self) -> None:
        with pytest.raises(PairingError):
            seat_order([1, 2, 3, 4, 5, 6], {})
