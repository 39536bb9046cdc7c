"""The edition's rulings (section 6) not covered elsewhere, Power tracks (section 4), and
the flow of seasons: rounds, the Sun, end-of-season scoring, discards and ties.

Rulings 1, 2, 10 and 12 are in test_draft.py, 8 in test_light.py, 9 in test_forest.py,
11 and 13 in test_setup.py, 15 and 16 in test_solo.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.evergreen.rules import (
    Effect,
    InvalidMove,
    LakePlacement,
    Phase,
    Pick,
    PowerUse,
    SeasonScore,
    Turn,
    apply,
    move_from_json,
    new_game,
)
from games.evergreen.rules.edition import POWERS
from tests.rules.builders import (
    PLANET,
    action_state,
    assert_refused,
    deal,
    draft_state,
    last_round,
    pieces_of,
    play_out,
    submit_all,
)


def plant(*spaces):
    return tuple(Effect("plant", s) for s in spaces)


def grow(*spaces):
    return tuple(Effect("grow", s) for s in spaces)


def one_seat(card, pieces=None, tracks=None, **kwargs):
    return action_state(
        {0: card, 1: "wild/bud"}, boards={0: pieces or {}}, tracks={0: tracks or {}}, **kwargs
    )


def reveal(state, turn):
    """The state once ``turn`` and a pass from every other seat are revealed."""
    return submit_all(state, {turn.seat: turn})


def board_after(state, turn):
    return pieces_of(PLANET, reveal(state, turn).seats[turn.seat].board)


def track(state, seat, power):
    return state.seats[seat].powers[POWERS.index(power)]


def run_until(state, done):
    """Play (leftmost card, pass) until ``done(state)``."""
    while not done(state):
        seat = state.awaiting[0]
        if state.phase is Phase.DRAFT:
            state = apply(state, Pick(seat, state.pool[0]))
        else:
            state = apply(state, Turn(seat, "D"))
    return state


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


class TestSeasons:
    def rounds_played(self, state):
        seen = []

        def record(s):
            if s.phase is Phase.ACTION and s.awaiting == tuple(range(len(s.seats))):
                seen.append((s.season, s.round, s.sun))

        play_out(state, on_state=record)
        return seen

    def test_the_seasons_have_5_4_3_and_2_rounds(self):
        seen = self.rounds_played(new_game(2, 4))
        per_season = [sum(1 for s, _, _ in seen if s == n) for n in (1, 2, 3, 4)]
        assert per_season == [5, 4, 3, 2]
        assert [r for s, r, _ in seen if s == 2] == [1, 2, 3, 4]

    def test_the_sun_moves_clockwise_at_each_change_of_season(self):
        seen = self.rounds_played(new_game(2, 4))
        assert [sun for _, r, sun in seen if r == 1] == ["N", "E", "S", "W"]

    def test_a_sun_started_elsewhere_still_moves_clockwise(self):
        seen = self.rounds_played(new_game(3, 4, sun="E"))
        assert [sun for _, r, sun in seen if r == 1] == ["E", "S", "W", "N"]

    def test_the_game_ends_after_the_last_round_of_the_fourth_season(self):
        end = play_out(new_game(2, 4))
        assert end.phase is Phase.OVER
        assert (end.season, end.round) == (4, 2)
        assert [s.season for s in end.seats[0].seasons] == [1, 2, 3, 4]

    def test_light_and_the_biggest_forest_are_scored_at_the_end_of_a_season(self):
        pieces = {(2, 3): "big", (3, 3): "small", (3, 4): "bush", (5, 5): "small"}
        state = action_state(
            {0: "wild/bud", 1: "wild/lake"},
            boards={0: pieces},
            round=5,
            scores={0: 10, 1: 0},
        )
        after = reveal(state, Turn(0, "D", (), PowerUse("bud")))
        # Sun N: (2,3) lit (2), (3,3) in its shadow, (5,5) lit (1); forest of 3.
        assert after.seats[0].seasons[0] == SeasonScore(1, light=3, forest=3, bud=1)
        assert after.seats[0].score == 10 + 3 + 3 + 1
        assert after.seats[0].seasons[1] == SeasonScore(2)
        assert after.seats[1].seasons[0] == SeasonScore(1)
        assert (after.season, after.round, after.sun) == (2, 1, "E")

    def test_the_season_is_scored_after_the_last_rounds_turns(self):
        state = action_state(
            {0: "wild/small", 1: "wild/lake"}, boards={0: {(1, 0): "sprout"}}, round=5
        )
        after = reveal(state, Turn(0, "D", (), PowerUse("small", "after", ((1, 0),))))
        assert after.seats[0].seasons[0].light == 1

    def test_light_is_scored_with_the_sun_of_the_season(self):
        # A Small Tree west of a Big Tree: shaded with the Sun in the East only.
        pieces = {(5, 3): "small", (5, 4): "big"}
        for sun, light in (("N", 3), ("E", 2), ("S", 3), ("W", 3)):
            season = "NESW".index(sun) + 1
            state = action_state(
                {0: "wild/bud", 1: "wild/lake"},
                boards={0: pieces},
                season=season,
                round=(5, 4, 3, 2)[season - 1],
            )
            after = submit_all(state)
            assert after.seats[0].seasons[season - 1].light == light, sun

    def test_nothing_is_scored_before_the_last_round_of_a_season(self):
        state = action_state({0: "wild/bud", 1: "wild/lake"}, boards={0: {(1, 0): "big"}}, round=4)
        after = submit_all(state)
        assert after.seats[0].seasons == (SeasonScore(1),)
        assert after.round == 5

    def test_the_cards_of_the_season_are_discarded_when_it_ends(self):
        state = run_until(new_game(3, 8), lambda s: s.phase is Phase.ACTION and s.round == 5)
        held = [card for seat in state.seats for card in seat.season_cards]
        assert len(held) == 3 * 5
        after = submit_all(state)
        assert after.season == 2
        assert after.discard[-len(held) :] == tuple(held)
        assert all(seat.season_cards == () for seat in after.seats)

    def test_each_player_holds_one_card_per_round_of_the_season(self):
        state = run_until(
            new_game(2, 8), lambda s: s.season == 2 and s.phase is Phase.ACTION and s.round == 3
        )
        assert [len(seat.season_cards) for seat in state.seats] == [3, 3]


class TestRuling14Ties:
    def test_ruling_14_the_tied_player_first_in_turn_order_wins(self):
        state = last_round(
            {0: "wild/bud", 1: "wild/lake", 2: "wild/big"},
            players=3,
            first=1,
            scores={0: 50, 1: 40, 2: 50},
        )
        end = submit_all(state)
        assert end.outcome.scores == (50, 40, 50)
        # Turn order from the token holder (seat 1): 1, 2, 0.
        assert end.outcome.ranking == (2, 0, 1)
        assert end.outcome.winner == 2

    def test_ruling_14_with_the_token_elsewhere_the_other_tied_player_wins(self):
        state = last_round(
            {0: "wild/bud", 1: "wild/lake", 2: "wild/big"},
            players=3,
            first=0,
            scores={0: 50, 1: 40, 2: 50},
        )
        end = submit_all(state)
        assert end.outcome.ranking == (0, 2, 1)
        assert end.outcome.winner == 0

    def test_ruling_14_counts_from_the_token_holder_after_the_last_round(self):
        # Seat 0 is first in the last round, but seat 2 takes the token card, so the
        # order after the last round is 2, 0, 1.
        pool = ("snow/lake", "rock/small", "wild/bud", "wheat/big")
        state = draft_state(3, pool, first=0)
        state = replace(
            state,
            season=4,
            round=2,
            sun="W",
            seats=tuple(
                replace(s, score=score, seasons=tuple(SeasonScore(n) for n in (1, 2, 3, 4)))
                for s, score in zip(state.seats, (50, 50, 50), strict=True)
            ),
        )
        for card in ("wild/bud", "rock/small", "snow/lake"):
            state = apply(state, Pick(state.awaiting[0], card))
        assert state.next_first == 2
        end = submit_all(state)
        assert end.outcome.ranking == (2, 0, 1)
        assert end.outcome.winner == 2

    def test_a_higher_score_beats_turn_order(self):
        state = last_round({0: "wild/bud", 1: "wild/lake"}, first=0, scores={0: 30, 1: 31})
        end = submit_all(state)
        assert end.outcome.winner == 1
        assert end.outcome.ranking == (1, 0)
        assert end.outcome.title is None
