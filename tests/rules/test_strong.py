"""The strong computer player: legal, reproducible, blind to what its seat cannot see,
exact on the last turn, and far stronger than the greedy bot."""

from __future__ import annotations

import random
from dataclasses import replace
from statistics import mean

import pytest

from games.evergreen.rules import bots
from games.evergreen.rules.determinize import public_supply, unseen_cards
from games.evergreen.rules.engine import apply, edition_of, fertility_values, new_game
from games.evergreen.rules.evaluation import Evaluator, Outlook, Weights
from games.evergreen.rules.moves import LakePlacement, Move, Pick, PowerUse, Turn
from games.evergreen.rules.pieces import BIG, SMALL, SPROUT
from games.evergreen.rules.scoring import biggest_forest, fertility_score, light_score
from games.evergreen.rules.search import TurnSearch
from games.evergreen.rules.state import GameState, Phase
from games.evergreen.rules.strong import LEVELS, StrongBot, rounds_after
from games.evergreen.rules.view import player_view

ED = edition_of(new_game(1, 0))
PLANET = ED.planet


def play_until(state: GameState, players: list[bots.Bot], season: int, phase: Phase) -> GameState:
    """Play ``players`` until the first moment of ``season`` in ``phase``."""
    while not (state.season == season and state.phase is phase):
        seat = state.awaiting[0]
        state = apply(state, players[seat].choose(state, seat))
    return state


def greedy(count: int) -> list[bots.Bot]:
    return [bots.GreedyBot(70 + k) for k in range(count)]


def shuffled_secrets(state: GameState, seed: int) -> GameState:
    """The same game as its players see it, with another deck order and generator."""
    deck = list(state.deck)
    random.Random(seed).shuffle(deck)
    return replace(state, deck=tuple(deck), rng=state.rng ^ (seed * 7919 + 1))


class TestLegality:
    def test_it_plays_a_whole_solo_game_with_legal_moves_only(self) -> None:
        final, moves = bots.play_game(new_game(1, 3), [bots.make_bot("strong", 1)])
        assert final.is_over and final.outcome is not None
        assert len(moves) == 28  # apply refused nothing: 14 picks and 14 turns

    def test_every_level_plays_a_four_player_game_with_legal_moves_only(self) -> None:
        seats = [bots.make_bot(level, k) for k, level in enumerate(LEVELS)]
        final, moves = bots.play_game(new_game(4, 8), seats)
        assert final.is_over and len(moves) == 14 * 8

    def test_it_never_asks_for_bushes_that_hidden_turns_may_have_taken(self) -> None:
        # Seat 1 plays Bush at level 3 and submits first; seat 0, with a Bush card too,
        # sees 3 Bushes in the supply but cannot know that seat 1 took them all.
        state = play_until(new_game(2, 21), greedy(2), 1, Phase.ACTION)
        seats = list(state.seats)
        seats[0] = replace(seats[0], card="snow/bush", powers=(0, 0, 0, 2, 0, 0))
        seats[1] = replace(seats[1], card="swamp/bush", powers=(0, 0, 0, 2, 0, 0))
        state = replace(state, seats=tuple(seats), supply=(3, 20))
        other = Turn(1, "A", (), PowerUse("bush", "after", ((0, 1), (0, 2), (1, 0))))
        state = apply(state, other)
        assert state.supply == (0, 20)
        assert public_supply(state, 0, ED) == (0, 20)
        turn = StrongBot(5).choose(state, 0)
        assert isinstance(turn, Turn)
        apply(state, turn)  # not refused for an empty supply
        assert turn.power is None or turn.power.power != "bush" or not turn.power.targets


class TestReproducibility:
    def test_the_same_seed_plays_the_same_solo_game(self) -> None:
        runs = [bots.play_game(new_game(1, 12), [bots.make_bot("strong", 9)]) for _ in range(2)]
        assert runs[0][1] == runs[1][1]
        assert runs[0][0] == runs[1][0]

    def test_a_decision_does_not_depend_on_what_the_bot_was_asked_before(self) -> None:
        state = play_until(new_game(1, 30), greedy(1), 2, Phase.DRAFT)
        used = StrongBot(4)
        elsewhere = new_game(1, 31)
        for _ in range(3):  # decisions in another game first
            elsewhere = apply(elsewhere, used.choose(elsewhere, 0))
        assert used.choose(state, 0) == StrongBot(4).choose(state, 0)


class TestHiddenInformation:
    @pytest.mark.parametrize("phase", [Phase.DRAFT, Phase.ACTION])
    def test_a_reshuffled_deck_gives_the_same_decision(self, phase: Phase) -> None:
        state = play_until(new_game(1, 41), greedy(1), 2, phase)
        other = shuffled_secrets(state, 5)
        assert other.deck != state.deck
        assert player_view(other, 0) == player_view(state, 0)
        for level in LEVELS:
            bot = bots.make_bot(level, 2)
            assert bot.choose(other, 0) == bot.choose(state, 0)

    def test_others_unrevealed_turns_do_not_change_its_turn(self) -> None:
        # Four players; seats 1-3 submit first (greedy in one game, random in the other),
        # then seat 0 plays: the view is the same, so must the turn be.
        start = play_until(new_game(4, 52), greedy(4), 2, Phase.ACTION)
        results: list[Move] = []
        states = []
        for others in (greedy(4), [bots.RandomBot(k) for k in range(4)]):
            state = start
            for seat in (1, 2, 3):
                state = apply(state, others[seat].choose(state, seat), advance_state=False)
            states.append(shuffled_secrets(state, len(states) + 1))
            results.append(StrongBot(3).choose(states[-1], 0))
        assert states[0].seats[1].turn != states[1].seats[1].turn
        assert player_view(states[0], 0) == player_view(states[1], 0)
        assert results[0] == results[1]

    def test_the_unseen_cards_are_the_deck_in_the_editions_order(self) -> None:
        state = play_until(new_game(3, 60), greedy(3), 3, Phase.DRAFT)
        unseen = unseen_cards(state, ED)
        assert sorted(unseen) == sorted(state.deck)
        assert unseen == tuple(c for c in ED.card_order if c in set(state.deck))
        assert unseen_cards(shuffled_secrets(state, 9), ED) == unseen


def last_round_state() -> GameState:
    state = play_until(new_game(1, 77), greedy(1), 4, Phase.DRAFT)
    player = greedy(1)[0]
    while state.round < 2 or state.phase is not Phase.ACTION:
        state = apply(state, player.choose(state, 0))
    return state


class TestEvaluation:
    def test_on_the_last_turn_a_board_is_worth_exactly_its_points(self) -> None:
        state = last_round_state()
        assert rounds_after(ED, state.season, state.round) == 0
        fertility = fertility_values(state)
        outlook = Outlook(state.sun, 4, 0, fertility, {})
        evaluator = Evaluator(ED, outlook, Weights())
        board = state.seats[0].board
        exact = (
            light_score(PLANET, board, state.sun, ED)
            + biggest_forest(PLANET, board)
            + fertility_score(PLANET, board, fertility)
        )
        assert board.count(BIG) > 0
        assert evaluator.value(board) == pytest.approx(exact)

    def test_a_big_tree_is_worth_more_in_a_more_fertile_biome(self) -> None:
        outlook = Outlook("N", 1, 13, {"snow": 0, "wheat": 4}, {})
        evaluator = Evaluator(ED, outlook, Weights())
        empty = [0] * PLANET.size
        snow, wheat = PLANET.index((1, 1)), PLANET.index((5, 3))
        in_snow, in_wheat = list(empty), list(empty)
        in_snow[snow] = BIG
        in_wheat[wheat] = BIG
        assert evaluator.value(in_wheat) - evaluator.value(in_snow) == pytest.approx(4)

    def test_a_lake_is_placed_with_the_growths_around_it(self) -> None:
        board = [0] * PLANET.size
        for space in ((2, 3), (4, 3)):
            board[PLANET.index(space)] = SPROUT
        board[PLANET.index((3, 2))] = SMALL
        outlook = Outlook("N", 1, 11, {"grassland": 3}, {})
        search = TurnSearch(
            ED, Evaluator(ED, outlook, Weights()), ED.cards["wild/lake"], (0,) * 6, (20, 20), 2
        )
        plan = search.best(board)
        assert plan.power is not None and plan.power.power == "lake"
        (placement,) = plan.power.targets
        assert isinstance(placement, LakePlacement) and len(placement.grow) == 2


class TestStrength:
    def test_it_outscores_the_greedy_bot_in_solo_games(self) -> None:
        strong, greedy_scores = [], []
        for seed in (101, 102):
            strong.append(bots.play_game(new_game(1, seed), [bots.make_bot("strong", 1)])[0])
            greedy_scores.append(bots.play_game(new_game(1, seed), [bots.GreedyBot(1)])[0])
        assert (
            mean(s.seats[0].score for s in strong)
            > mean(s.seats[0].score for s in greedy_scores) + 20
        )


class TestLevels:
    @pytest.mark.parametrize("level", ["easy", "medium", "hard", "strong"])
    def test_each_level_is_a_bot_by_name(self, level: str) -> None:
        bot = bots.make_bot(level, 3)
        assert isinstance(bot, StrongBot)
        assert bot.name == level and bot.level is LEVELS[level]

    def test_the_budget_grows_with_the_level(self) -> None:
        beams = [LEVELS[level].beam for level in ("easy", "medium", "hard", "strong")]
        assert beams == sorted(beams) and beams[-1] > beams[0]

    def test_a_pick_is_a_card_from_the_pool(self) -> None:
        state = new_game(3, 2)
        move = bots.make_bot("strong", 0).choose(state, state.awaiting[0])
        assert isinstance(move, Pick) and move.card in state.pool
