"""The flow of seasons: rounds, the Sun, end-of-season scoring, discards, and ties at the
end of the game (ruling 14).
"""

from __future__ import annotations

from dataclasses import replace

from games.evergreen.rules import (
    Phase,
    Pick,
    PowerUse,
    SeasonScore,
    Turn,
    apply,
    new_game,
)
from tests.rules.builders import (
    action_state,
    draft_state,
    last_round,
    play_out,
    submit_all,
)
from tests.rules.turnhelpers import (
    reveal,
    run_until,
)


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
