"""The strong computer player: legal, reproducible, and blind to what its seat cannot see."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from games.verdant.rules import Phase, Start, Turn, Wipe, apply, new_game, player_view
from games.verdant.rules.bots import BOTS, GreedyBot, home_value, make_bot, play_game
from games.verdant.rules.cli import main
from games.verdant.rules.edition import load_edition
from games.verdant.rules.home import NEIGHBOURS, bounding_box
from games.verdant.rules.outlook import Outlook, open_cells, outlook_value, quick_outlook_value
from games.verdant.rules.selfplay import play_bot_game
from games.verdant.rules.strong import (
    LEVELS,
    OUTLOOK,
    PlannerBot,
    StrongBot,
    determinise,
    wipe_candidates,
)
from tests.verdant.verdant_builders import started


def mid_game(players: int, seed: int, turns: int):
    """A position ``turns`` turns into a greedy game."""
    state = started(players, seed=seed)
    bots = [GreedyBot(seed + seat) for seat in range(players)]
    for _ in range(turns):
        seat = state.to_play
        state = apply(state, bots[seat].choose(state, seat))
    return state


def reshuffled(state, seed: int):
    """The same position with the hidden order (decks, bag, generator) dealt otherwise."""
    rnd = random.Random(seed)
    piles = [list(state.plant_deck), list(state.room_deck), list(state.bag)]
    for pile in piles:
        rnd.shuffle(pile)
    return replace(
        state,
        plant_deck=tuple(piles[0]),
        room_deck=tuple(piles[1]),
        bag=tuple(piles[2]),
        rng=rnd.getrandbits(64),
    )


def test_strong_is_a_registered_bot_built_on_the_greedy_one():
    assert "strong" in BOTS
    bot = make_bot("strong", 3)
    assert isinstance(bot, StrongBot) and isinstance(bot, GreedyBot)
    assert bot.name == "strong"


def test_a_determinisation_deals_the_same_hidden_cards_in_another_order():
    state = mid_game(1, 4, 3)
    world = determinise(state, random.Random(1))
    assert Counter(world.plant_deck) == Counter(state.plant_deck)
    assert Counter(world.room_deck) == Counter(state.room_deck)
    assert Counter(world.bag) == Counter(state.bag)
    assert world.plant_deck != state.plant_deck or world.bag != state.bag
    assert player_view(world, 0) == player_view(state, 0)


def test_a_determinisation_ignores_the_hidden_order_it_is_given():
    state = mid_game(1, 4, 3)
    assert determinise(state, random.Random(7)) == determinise(
        reshuffled(state, 99), random.Random(7)
    )


def test_the_same_seed_and_position_give_the_same_decision():
    state = mid_game(1, 5, 2)
    assert make_bot("strong", 11).choose(state, 0) == make_bot("strong", 11).choose(state, 0)


@pytest.mark.parametrize("players", [1, 2])
def test_it_decides_from_its_view_alone(players):
    state = mid_game(players, 6, 2 * players)
    seat = state.to_play
    twin = reshuffled(state, 123)
    assert twin != state and player_view(twin, seat) == player_view(state, seat)
    assert make_bot("strong", 8).choose(state, seat) == make_bot("strong", 8).choose(twin, seat)


def test_its_start_does_not_depend_on_another_players_hidden_start():
    state = new_game(2, seed=3)
    state = apply(state, Start(1, "left"))
    other = replace(state, seats=(state.seats[0], replace(state.seats[1], start_side="down")))
    assert player_view(other, 0) == player_view(state, 0)
    assert make_bot("strong", 2).choose(state, 0) == make_bot("strong", 2).choose(other, 0)


def test_a_whole_solo_game_is_legal_and_the_simulate_command_plays_it_again(capsys):
    # play_game (under play_bot_game) raises on any move the engine refuses, naming the bot.
    # The command plays the same seeded game again: the same score and title. (One game
    # played twice, not two: a strong game is 6 to 17 s of CPU, by its seed; this one 6.)
    first, moves = play_bot_game(1, 3, "strong")
    assert first.phase is Phase.OVER and isinstance(moves[0], Start)
    assert sum(isinstance(m, Turn) for m in moves) == 13
    assert all(isinstance(m, (Turn, Wipe)) for m in moves[1:])
    code = main(["simulate", "--players", "1", "--games", "1", "--seed", "3", "--bot", "strong"])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["bot"] == "strong" and summary["games"] == 1
    assert first.outcome is not None
    assert summary["mean_score"] == first.outcome.scores[0]
    titled = [row["title"] for row in summary["titles"] if row["games"]]
    assert titled == [first.outcome.title]


@pytest.mark.slow
def test_a_whole_game_with_goals_against_a_greedy_player_is_legal():
    # Two seats, not three: the rollouts play every seat's turns, so a third seat made this
    # game 1.6 times as long (20 s of CPU against 12.5 s) for the same legality checks. The
    # strong player's search, with goals, in 2 worlds instead of 8: every move it weighs is
    # made the same way, in a quarter of the time (16-33 s of CPU by the seed at 8 worlds).
    bots = [at_level(worlds=2)(1), GreedyBot(2)]
    final, moves = play_game(new_game(2, 8, goals=True), bots)
    assert final.phase is Phase.OVER and sum(isinstance(m, Turn) for m in moves) == 13 * 2


def test_action_a_is_a_candidate_only_when_the_seat_can_pay():
    state = mid_game(1, 4, 3)
    rich = replace(state, seats=(replace(state.seats[0], thumbs=2),))
    poor = replace(state, seats=(replace(state.seats[0], thumbs=1),))
    ed = load_edition()
    wipes = wipe_candidates(rich, 0, ed, keep=1)
    assert Wipe(0, (0, 1, 2, 3)) in wipes and Wipe(0, (0, 2, 3)) in wipes
    for wipe in wipes:
        assert apply(rich, wipe).seats[0].thumbs == 0
    assert wipe_candidates(poor, 0, ed, keep=1) == []


def test_a_finished_home_promises_nothing_beyond_its_value_now():
    final, _ = play_game(new_game(1, 12), [GreedyBot(1)])
    seat = final.seats[0]
    ed = load_edition()
    assert open_cells(seat.home, ed.rows, ed.columns) == set()
    now = home_value(seat.home, seat.thumbs, final, ed, OUTLOOK.thumb, OUTLOOK.pot)
    assert outlook_value(seat.home, seat.thumbs, final, ed, OUTLOOK) == now


def test_a_home_in_progress_is_worth_more_than_its_value_now():
    state = mid_game(1, 4, 3)
    seat = state.seats[0]
    ed = load_edition()
    assert open_cells(seat.home, ed.rows, ed.columns)
    now = home_value(seat.home, seat.thumbs, state, ed, OUTLOOK.thumb, OUTLOOK.pot)
    assert outlook_value(seat.home, seat.thumbs, state, ed, OUTLOOK) > now


@pytest.mark.parametrize("players", [1, 2])
@pytest.mark.parametrize(
    "outlook",
    [OUTLOOK, Outlook(), replace(OUTLOOK, kinds=0.5)],
    ids=["tuned", "with light", "with item kinds"],
)
def test_the_quick_outlook_values_every_home_of_a_game_as_the_outlook_does(players, outlook):
    ed = load_edition()
    state = started(players, seed=21)
    bots = [GreedyBot(21 + seat) for seat in range(players)]
    valued = 0
    while not state.is_over:
        for seat in state.seats:
            want = outlook_value(seat.home, seat.thumbs, state, ed, outlook)
            got = quick_outlook_value(seat.home, seat.thumbs, state, ed, outlook)
            assert got == pytest.approx(want, abs=1e-9)
            valued += 1
        state = apply(state, bots[state.to_play].choose(state, state.to_play))
    assert valued >= 13 * players  # every turn of every seat


@pytest.mark.parametrize("turns", [0, 3, 8])
def test_the_open_cells_are_exactly_the_empty_neighbours_that_keep_the_home_in_its_rectangle(
    turns,
):
    ed = load_edition()
    home = mid_game(1, 5, turns).seats[0].home
    occupied = list(home.occupied)
    beside = {j for i in occupied for _, j in NEIGHBOURS[i] if home.cards[j] is None}
    fitting = set()
    for j in beside:
        rows, columns = bounding_box([*occupied, j])
        if rows <= ed.rows and columns <= ed.columns:
            fitting.add(j)
    assert open_cells(home, ed.rows, ed.columns) == fitting


def test_the_planner_rolling_out_the_search_plays_a_whole_solo_game_legally_and_reproducibly():
    first, moves = play_game(new_game(1, 8), [PlannerBot(5)])
    again, moves_again = play_game(new_game(1, 8), [PlannerBot(5)])
    assert first.is_over and moves == moves_again
    assert first.outcome == again.outcome


def at_level(**changes):
    """A ``StrongBot`` class searching at the strong level with ``changes``."""
    level = replace(LEVELS["strong"], **changes)
    return type("TriedBot", (StrongBot,), {"level": level})


def test_a_room_without_an_item_promises_new_kinds_only_when_they_are_weighed():
    state = mid_game(1, 4, 6)
    seat = state.seats[0]
    ed = load_edition()
    assert any(
        c is not None and c[0] == "R" and seat.home.items[i] is None
        for i, c in enumerate(seat.home.cards)
    )
    plain = quick_outlook_value(seat.home, seat.thumbs, state, ed, OUTLOOK)
    hoped = quick_outlook_value(seat.home, seat.thumbs, state, ed, replace(OUTLOOK, kinds=0.5))
    assert hoped > plain


def test_the_search_work_is_counted_candidates_times_worlds_times_targets(monkeypatch):
    calls = []
    monkeypatch.setattr(StrongBot, "rollout", lambda self, *a: calls.append(a) or 0.0)
    state = mid_game(1, 4, 3)
    targets = (OUTLOOK, replace(OUTLOOK, kinds=0.5))
    for level, per_move in [({"worlds": 3}, 3), ({"worlds": 3, "targets": targets}, 6)]:
        calls.clear()
        bot = at_level(wipes=False, **level)(1)
        bot.choose(state, 0)
        assert len(calls) == bot.level.candidates * per_move


def test_a_move_is_worth_its_best_targets_total():
    state = mid_game(1, 4, 3)
    ed = load_edition()
    moves = [turn for _, _, turn in PlannerBot(1).ranked(state, 0)[:3]]
    goal = state.seats[0].turns + 4
    outlook_rollouts = {"learnt_rollouts": False}  # (the learnt planner has no target)
    alone = at_level(**outlook_rollouts)(9).totals(state, 0, goal, ed, moves, 3)
    other = replace(OUTLOOK, collector=3.0, decorator=3.0, kinds=1.0)
    only_other = at_level(targets=(other,), **outlook_rollouts)(9).totals(
        state, 0, goal, ed, moves, 3
    )
    both = at_level(targets=(OUTLOOK, other), **outlook_rollouts)(9).totals(
        state, 0, goal, ed, moves, 3
    )
    assert both == [max(a, b) for a, b in zip(alone, only_other, strict=True)]
    assert alone != only_other  # the second target plays otherwise


def before_the_last_turns(turns_left: int, seed: int = 4):
    """A solo position with ``turns_left`` turns of the seat still to play."""
    state = started(1, seed=seed)
    bot = GreedyBot(seed)
    ed = load_edition()
    while ed.turns_per_player - state.seats[0].turns > turns_left:
        state = apply(state, bot.choose(state, 0))
    return state


def test_the_exact_end_judges_the_last_turn_by_the_final_score():
    state = before_the_last_turns(1)
    exact = PlannerBot(3)
    exact.exact_end = True
    ranked = exact.ranked(state, 0)
    for value, _, turn in ranked[:8]:
        after = apply(state, turn)
        assert after.is_over and after.outcome is not None
        stored = PlannerBot.STORED if turn.store else 0.0
        assert value - stored == after.outcome.scores[0]
    plain = PlannerBot(3).ranked(state, 0)
    assert [v for v, _, _ in plain[:8]] != [v for v, _, _ in ranked[:8]]


def test_the_last_turns_search_the_end_candidates(monkeypatch):
    calls = []
    monkeypatch.setattr(StrongBot, "rollout", lambda self, *a: calls.append(a) or 0.0)
    for left, wide in [(3, False), (2, True)]:
        calls.clear()
        state = before_the_last_turns(left)
        bot = at_level(wipes=False, worlds=2, end_turns=2, end_candidates=9)(1)
        bot.choose(state, 0)
        searched = min(9 if wide else bot.level.candidates, len(bot.ranked(state, 0)))
        assert len(calls) == searched * 2
