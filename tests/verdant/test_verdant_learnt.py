"""The learnt judgement: its facts read off the home, its value the fitted line, exact at the end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.verdant.rules import apply, new_game
from games.verdant.rules.bots import GreedyBot, play_game
from games.verdant.rules.edition import load_edition
from games.verdant.rules.learnt import (
    FEATURE_OUTLOOK,
    FEATURES,
    features,
    home_features,
    learnt_value,
    quick_features,
    turn_value,
)
from games.verdant.rules.learnt_fit import recorded_game, ridge, solve
from games.verdant.rules.learnt_quick import quick_prediction
from games.verdant.rules.learnt_weights import WEIGHTS
from games.verdant.rules.outlook import quick_outlook_value
from games.verdant.rules.scoring import score_home
from games.verdant.rules.strong import LEVELS, OUTLOOK, PlannerBot, StrongBot
from games.verdant.rules.turns import TurnInProgress
from tests.verdant.verdant_builders import started


def solo_after(turns: int, seed: int = 4):
    """A solo position after ``turns`` turns of the greedy bot."""
    state = started(1, seed=seed)
    bot = GreedyBot(seed)
    for _ in range(turns):
        state = apply(state, bot.choose(state, 0))
    return state


def named(found):
    return dict(zip(FEATURES, found, strict=True))


def test_the_features_outlook_is_the_strong_players():
    assert FEATURE_OUTLOOK == OUTLOOK


def test_every_turns_left_has_one_weight_a_feature():
    assert len(WEIGHTS) == load_edition().turns_per_player
    assert all(len(row) == len(FEATURES) for row in WEIGHTS)


def test_the_features_of_a_home_are_read_off_its_cells():
    ed = load_edition()
    state = solo_after(6)
    seat = state.seats[0]
    home = seat.home
    f = named(features(seat, state, ed))
    score = score_home(home, ed, family=False, goals=(), thumbs=seat.thumbs)
    cells = [(i, c) for i, c in enumerate(home.cards) if c is not None]
    rooms = [i for i, c in cells if c[0] == "R"]
    plants = [(i, ed.plants[c]) for i, c in cells if c[0] == "P"]
    open_plants = [(i, p) for i, p in plants if not home.completed[i]]
    kinds = {home.items[i] for i in rooms} - {None}
    assert f["one"] == 1.0
    assert f["outlook"] == quick_outlook_value(home, seat.thumbs, state, ed, OUTLOOK)
    assert (f["plants"], f["pots"], f["rooms"], f["items"]) == (
        score.plants,
        score.pots,
        score.rooms,
        score.items,
    )
    assert f["incomplete"] == len(open_plants)
    assert f["verdancy"] == sum(home.verdancy[i] for i, _ in open_plants)
    assert f["need"] == sum(p.verdancy - home.verdancy[i] for i, p in open_plants)
    assert f["kinds"] == len(kinds)
    assert f["bare"] == sum(home.items[i] is None for i in rooms)
    assert f["room_cards"] == len(rooms)
    assert f["plant_types"] == len({p.type for _, p in plants})
    assert f["thumbs"] == seat.thumbs
    tokens = [t for t in state.market_tokens if t is not None]
    assert f["market_nurture"] == sum(ed.is_nurture(t) for t in tokens)
    assert f["market_new"] == sum(ed.is_item(t) and t not in kinds for t in tokens)


@pytest.mark.parametrize("turns", [2, 7, 12])
def test_the_learnt_value_is_the_fitted_line_of_its_turns_left(turns):
    ed = load_edition()
    state = solo_after(turns)
    seat = state.seats[0]
    row = WEIGHTS[ed.turns_per_player - seat.turns - 1]
    by_hand = sum(w * f for w, f in zip(row, features(seat, state, ed), strict=True))
    assert learnt_value(state, 0, ed) == pytest.approx(by_hand, abs=1e-9)
    assert learnt_value(state, 0, ed) == learnt_value(solo_after(turns), 0, ed)


def test_the_learnt_value_of_a_finished_home_is_its_final_score():
    final, _ = play_game(new_game(1, 12), [GreedyBot(1)])
    assert final.outcome is not None
    assert learnt_value(final, 0, load_edition()) == final.outcome.scores[0]


def test_the_learnt_value_prefers_a_home_with_one_more_completed_plant_later_on():
    # Not a law of the game, but a fit that inverted it would be broken.
    ed = load_edition()
    state = solo_after(6)
    seat = state.seats[0]
    f = list(features(seat, state, ed))
    row = WEIGHTS[ed.turns_per_player - seat.turns - 1]
    more = f[:]
    more[FEATURES.index("plants")] += 4
    more[FEATURES.index("outlook")] += 4
    assert sum(w * x for w, x in zip(row, more, strict=True)) > sum(
        w * x for w, x in zip(row, f, strict=True)
    )


def test_the_fit_solves_its_equations_and_recovers_an_exact_line():
    assert solve([[2.0, 1.0], [1.0, 3.0]], [5.0, 10.0]) == pytest.approx([1.0, 3.0])
    rows = [(1.0, float(x), float(x * x % 7)) for x in range(20)]
    targets = [4.0 + 2.0 * b - 0.5 * c for _, b, c in rows]
    assert ridge(rows, targets, 0.0) == pytest.approx([4.0, 2.0, -0.5], abs=1e-6)


def test_a_recorded_game_has_a_sample_after_each_turn_and_the_final_score():
    samples, final = recorded_game(10001, 0.2)
    assert [left for left, _ in samples] == list(range(13, 0, -1))
    assert all(len(f) == len(FEATURES) for _, f in samples)
    assert recorded_game(10001, 0.2) == (samples, final) and 40 <= final <= 130


def test_the_learnt_search_decides_from_its_view_alone():
    from tests.verdant.test_verdant_strong import mid_game, reshuffled

    state = mid_game(1, 6, 2)
    twin = reshuffled(state, 123)
    level = replace(LEVELS["strong"], learnt=True, learnt_root=True, worlds=3)
    bot = type("LearntBot", (StrongBot,), {"level": level})
    assert bot(8).choose(state, 0) == bot(8).choose(twin, 0)


def learnt_planner(seed: int) -> PlannerBot:
    bot = PlannerBot(seed)
    bot.learn()
    return bot


def test_the_learnt_planner_plays_a_whole_solo_game_legally_and_reproducibly():
    first, moves = play_game(new_game(1, 8), [learnt_planner(5)])
    again, moves_again = play_game(new_game(1, 8), [learnt_planner(5)])
    assert first.is_over and moves == moves_again and first.outcome == again.outcome


def test_the_learnt_planner_judges_the_last_turn_by_the_final_score():
    state = solo_after(12)
    for value, _, turn in learnt_planner(3).ranked(state, 0)[:8]:
        after = apply(state, turn)
        assert after.outcome is not None and value == after.outcome.scores[0]


def test_the_learnt_planner_values_a_planned_turn_by_the_line_of_the_turns_left_after_it():
    ed = load_edition()
    state = solo_after(5)
    turn = PlannerBot(1).ranked(state, 0)[0][2]
    tp = TurnInProgress(state, ed, turn)
    for step in turn.steps:
        tp.step(step)
    seat = state.seats[0]
    stored = tp.available[-1] if tp.available else None
    found = home_features(tp.home.freeze(), tp.thumbs, stored, state, ed, turn.token)
    row = WEIGHTS[ed.turns_per_player - seat.turns - 2]
    assert turn_value(tp) == pytest.approx(sum(w * f for w, f in zip(row, found, strict=True)))


@pytest.mark.parametrize("taken", [None, 2])
def test_the_quick_features_of_every_home_of_a_game_are_the_features(taken):
    ed = load_edition()
    state = started(1, seed=21)
    bot = GreedyBot(21)
    while not state.is_over:
        seat = state.seats[0]
        for stored in (seat.storage, "fertilizer"):
            args = (seat.home, seat.thumbs, stored, state, ed, taken)
            assert quick_features(*args) == pytest.approx(home_features(*args), abs=1e-9)
        state = apply(state, bot.choose(state, 0))


def test_the_quick_prediction_of_every_planned_step_is_the_fitted_line_to_the_last_bit():
    ed = load_edition()
    planner = learnt_planner(5)
    seen = 0
    for seed in (21, 22):
        state = started(1, seed=seed)
        while not state.is_over and ed.turns_per_player - state.seats[0].turns > 1:
            for _, _, turn in planner.ranked(state, 0)[:6]:
                tp = TurnInProgress(state, ed, turn)
                for step in (None, *turn.steps):
                    if step is not None:
                        tp.step(step)
                    row = WEIGHTS[ed.turns_per_player - state.seats[0].turns - 2]
                    for stored in (None, "fertilizer", *tp.available):
                        args = (tp.home, tp.thumbs, stored, state, ed, turn.token)
                        exact = sum(w * f for w, f in zip(row, quick_features(*args), strict=True))
                        assert quick_prediction(row, *args) == exact
                        seen += 1
            state = apply(state, planner.choose(state, 0))
    assert seen > 500


def test_the_learnt_root_ranks_the_candidates_by_the_learnt_planner():
    state = solo_after(4)
    level = replace(LEVELS["strong"], learnt=True, learnt_root=True)
    searcher = type("LearntBot", (StrongBot,), {"level": level})(3)
    ranked = [turn for _, _, turn in searcher.ranked(state, 0)[:5]]
    assert ranked == [turn for _, _, turn in learnt_planner(3).ranked(state, 0)[:5]]
    assert ranked != [turn for _, _, turn in PlannerBot(3).ranked(state, 0)[:5]]
