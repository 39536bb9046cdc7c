"""The computer players: legal moves only, reproducible, and the greedy one plays better."""

from __future__ import annotations

import statistics

import pytest

from games.verdant.rules import Phase, Start, Turn, load_edition, new_game
from games.verdant.rules.bots import GreedyBot, RandomBot, make_bot, play_game
from games.verdant.rules.cli import play_bot_game
from tests.verdant.verdant_builders import started


def test_make_bot_knows_random_and_greedy_only():
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever")


def test_a_bot_chooses_a_start_then_turns():
    state = new_game(2, seed=1)
    assert isinstance(RandomBot(1).choose(state, 0), Start)
    state = started(2, seed=1)
    assert isinstance(GreedyBot(1).choose(state, state.to_play), Turn)
    final, _ = play_game(state, [RandomBot(1), RandomBot(2)])
    assert final.phase is Phase.OVER
    with pytest.raises(ValueError):
        RandomBot(1).choose(final, 0)


@pytest.mark.parametrize("variant", ["standard", "family"])
@pytest.mark.parametrize("players", [1, 4])
def test_greedy_bots_play_whole_games_in_every_mode(players, variant):
    state, moves = play_bot_game(players, 3, "greedy", variant=variant, goals=True)
    assert state.is_over and len(moves) == 14 * players


def test_a_game_between_bots_is_reproducible():
    assert play_bot_game(3, 8, "random") == play_bot_game(3, 8, "random")


def test_the_greedy_bot_scores_more_than_the_random_one_solo():
    greedy = [play_bot_game(1, seed, "greedy")[0].outcome.scores[0] for seed in range(4)]
    chance = [play_bot_game(1, seed, "random")[0].outcome.scores[0] for seed in range(4)]
    assert statistics.mean(greedy) > statistics.mean(chance) + 15


def test_the_greedy_bot_starts_with_a_light_match_when_the_room_offers_one():
    for seed in range(20):
        state = new_game(1, seed)
        seat = state.seats[0]
        side = GreedyBot(seed).start_side(state, 0)
        edges = load_edition().rooms[seat.start_room].edges
        lights = load_edition().plants[seat.start_plant].lights
        if any(edges[s] in lights for s in edges):
            assert edges[side] in lights
