"""The strong player's review of a seat's decisions: what it would have played, and what
the move played cost; blind to what the seat could not see."""

from __future__ import annotations

import pytest

from games.evergreen.rules import bots
from games.evergreen.rules.analysis import blind, review, suggestion
from games.evergreen.rules.bot import Bot
from games.evergreen.rules.engine import apply, new_game
from games.evergreen.rules.moves import Move, Pick, Turn
from games.evergreen.rules.state import GameState, Phase
from games.evergreen.rules.view import player_view
from tests.rules.test_strong import greedy, play_until, shuffled_secrets


def decisions(start: GameState, players: list[Bot]) -> list[tuple[GameState, Move]]:
    """Every (state before, move) of a whole game played by ``players``."""
    _final, moves = bots.play_game(start, players)
    found: list[tuple[GameState, Move]] = []
    state = start
    for move in moves:
        found.append((state, move))
        state = apply(state, move)
    return found


class TestReview:
    def test_the_strong_players_own_moves_lose_nothing(self) -> None:
        for state, move in decisions(new_game(1, 5), [bots.make_bot("medium", 1)])[:12]:
            assert review(state, move, "medium").loss == 0

    def test_a_weaker_move_costs_what_the_best_is_worth_more(self) -> None:
        reviews = [review(s, m, "strong") for s, m in decisions(new_game(1, 3), greedy(1))]
        assert {r.kind for r in reviews} == {"pick", "turn"}
        assert all(r.best_points >= r.played_points for r in reviews)
        lost = [r for r in reviews if r.loss]
        assert lost and all(r.best != r.played for r in lost)
        assert all(r.best == r.played for r in reviews if r.best_points == r.played_points)

    def test_a_pick_is_judged_by_the_best_turn_the_card_allows(self) -> None:
        state = play_until(new_game(1, 8), greedy(1), 2, Phase.DRAFT)
        for card in dict.fromkeys(state.pool):
            found = review(state, Pick(0, card), "strong")
            assert isinstance(found.best, Pick) and found.best.card in state.pool
            assert found.played_points <= found.best_points

    def test_a_move_that_is_no_decision_of_the_state_is_refused(self) -> None:
        state = play_until(new_game(1, 8), greedy(1), 1, Phase.DRAFT)
        with pytest.raises(ValueError):
            review(state, Turn(0, "A"), "strong")
        with pytest.raises(ValueError):
            review(state, Pick(0, state.pool[0]), "no-such-level")


class TestHiddenInformation:
    def test_a_reshuffled_deck_gives_the_same_review_of_every_decision(self) -> None:
        for number, (state, move) in enumerate(decisions(new_game(1, 41), greedy(1))):
            other = shuffled_secrets(state, number + 1)
            assert player_view(other, 0) == player_view(state, 0)
            assert review(other, move, "easy") == review(state, move, "easy")

    def test_others_unrevealed_turns_do_not_change_the_review_nor_the_hint(self) -> None:
        start = play_until(new_game(4, 52), greedy(4), 2, Phase.ACTION)
        mine = greedy(4)[0].choose(start, 0)
        results: list[tuple[object, ...]] = []
        for others in (greedy(4), [bots.RandomBot(k) for k in range(4)]):
            state = start
            for seat in (1, 2, 3):
                state = apply(state, others[seat].choose(state, seat), advance_state=False)
            state = shuffled_secrets(state, len(results) + 1)
            results.append(
                (player_view(state, 0), review(state, mine, "hard"), suggestion(state, 0))
            )
        assert results[0] == results[1]

    def test_blinding_keeps_what_the_seat_sees_and_hides_the_order(self) -> None:
        state = play_until(new_game(2, 60), greedy(2), 2, Phase.DRAFT)
        seen = blind(state)
        assert player_view(seen, 0) == player_view(state, 0)
        assert sorted(seen.deck) == sorted(state.deck)
        assert blind(shuffled_secrets(state, 3)) == seen


class TestSuggestion:
    def test_it_is_the_strong_players_move_for_a_seat_that_must_decide(self) -> None:
        state = play_until(new_game(1, 9), greedy(1), 1, Phase.ACTION)
        move = suggestion(state, 0, "strong")
        assert isinstance(move, Turn)
        apply(state, move)  # legal

    def test_a_seat_with_nothing_to_decide_gets_none(self) -> None:
        state = play_until(new_game(2, 9), greedy(2), 1, Phase.DRAFT)
        idle = 1 - state.awaiting[0]
        with pytest.raises(ValueError):
            suggestion(state, idle)
