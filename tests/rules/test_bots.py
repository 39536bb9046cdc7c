"""The computer players: legal moves only, reproducible games, greedy beats random."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mean

import pytest

from games.evergreen.rules import RulesError, bots
from games.evergreen.rules.engine import apply, new_game
from games.evergreen.rules.moves import Move, Pick, Turn
from games.evergreen.rules.state import GameState, Phase

ROUNDS = 14  # 5 + 4 + 3 + 2 in the standard edition


def play_checked(state: GameState, players: Sequence[bots.Bot]) -> tuple[GameState, list[Move]]:
    """Like ``bots.play_game``, but every seat that may act is asked, in turn, and every
    move is checked to be legal and to be the kind the phase wants."""
    moves: list[Move] = []
    while not state.is_over:
        for seat in state.awaiting:
            move = players[seat].choose(state, seat)
            assert move.seat == seat
            assert isinstance(move, Pick if state.phase is Phase.DRAFT else Turn)
            try:
                state = apply(state, move)
            except RulesError as exc:
                pytest.fail(f"{players[seat].name} bot played an illegal move {move}: {exc}")
            moves.append(move)
            if state.phase is Phase.DRAFT:
                break  # one pick at a time
    return state, moves


def check_outcome(final: GameState, players: int) -> None:
    outcome = final.outcome
    assert final.is_over and outcome is not None
    assert outcome.scores == tuple(seat.score for seat in final.seats)
    assert sorted(outcome.ranking) == list(range(players))
    assert outcome.winner == outcome.ranking[0]
    ranked = [outcome.scores[s] for s in outcome.ranking]
    assert ranked == sorted(ranked, reverse=True)
    assert (outcome.title is not None) is (players == 1)


class TestLegality:
    @pytest.mark.parametrize("players", [1, 2, 3, 4])
    @pytest.mark.parametrize("seed", [0, 1, 2])
    def test_it_finishes_games_of_random_bots_with_legal_moves_only(
        self, players: int, seed: int
    ) -> None:
        seats = [bots.RandomBot(seed * 10 + k) for k in range(players)]
        final, moves = play_checked(new_game(players, seed), seats)
        check_outcome(final, players)
        assert len(moves) == ROUNDS * 2 * players

    @pytest.mark.parametrize(("players", "seed"), [(1, 5), (2, 6), (3, 7)])
    def test_it_finishes_games_of_greedy_bots_with_legal_moves_only(
        self, players: int, seed: int
    ) -> None:
        seats = [bots.GreedyBot(seed * 10 + k) for k in range(players)]
        final, moves = play_checked(new_game(players, seed), seats)
        check_outcome(final, players)
        assert len(moves) == ROUNDS * 2 * players

    def test_it_finishes_a_mixed_four_player_game(self) -> None:
        seats = [bots.GreedyBot(1), bots.RandomBot(2), bots.GreedyBot(3), bots.RandomBot(4)]
        final, moves = bots.play_game(new_game(4, 9, sun="W"), seats)
        check_outcome(final, 4)
        assert len(moves) == ROUNDS * 8

    def test_it_refuses_to_choose_a_move_when_the_game_is_over(self) -> None:
        final, _ = bots.play_game(new_game(1, 4), [bots.RandomBot(0)])
        with pytest.raises(ValueError):
            bots.RandomBot(0).choose(final, 0)


class TestReproducibility:
    @pytest.mark.parametrize("kind", ["random", "greedy"])
    def test_it_plays_the_same_game_from_the_same_seeds(self, kind: str) -> None:
        runs = []
        for _ in range(2):
            seats = [bots.make_bot(kind, 31), bots.make_bot(kind, 32)]
            runs.append(bots.play_game(new_game(2, 17), seats))
        (first, first_moves), (second, second_moves) = runs
        assert first_moves == second_moves
        assert first == second

    def test_it_plays_a_different_game_from_other_bot_seeds(self) -> None:
        state = new_game(2, 17)
        _, one = bots.play_game(state, [bots.RandomBot(1), bots.RandomBot(2)])
        _, other = bots.play_game(state, [bots.RandomBot(3), bots.RandomBot(4)])
        assert one != other


class TestStrength:
    @pytest.mark.slow  # plays many whole games
    def test_it_makes_the_greedy_bot_beat_the_random_bot_on_average(self) -> None:
        greedy_scores, random_scores, greedy_wins = [], [], 0
        games = 6
        for game in range(games):
            greedy_seat = game % 2  # alternate seats so the first-player edge cancels out
            seats: list[bots.Bot] = [bots.RandomBot(100 + game), bots.RandomBot(200 + game)]
            seats[greedy_seat] = bots.GreedyBot(300 + game)
            final, _ = bots.play_game(new_game(2, 1000 + game), seats)
            assert final.outcome is not None
            greedy_scores.append(final.seats[greedy_seat].score)
            random_scores.append(final.seats[1 - greedy_seat].score)
            greedy_wins += final.outcome.winner == greedy_seat
        assert mean(greedy_scores) > mean(random_scores) * 1.5
        assert greedy_wins >= games - 1


class TestMakeBot:
    @pytest.mark.parametrize(
        ("name", "kind"), [("random", bots.RandomBot), ("greedy", bots.GreedyBot)]
    )
    def test_it_makes_a_bot_by_name(self, name: str, kind: type[bots.Bot]) -> None:
        bot = bots.make_bot(name, 5)
        assert type(bot) is kind
        assert bot.name == name

    @pytest.mark.parametrize("name", ["minimax", "", "Random", "bot"])
    def test_it_refuses_an_unknown_bot_name(self, name: str) -> None:
        with pytest.raises(ValueError, match="unknown bot"):
            bots.make_bot(name)
