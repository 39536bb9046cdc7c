"""Properties that hold at every step of any legal game, checked over random games.

Each example plays a whole game with ``RandomBot`` seats and checks the invariants after
every move: all 100 cards and 90 tokens accounted for, no score ever negative, at most
5 green thumbs between turns, the home inside 5 x 3, no view showing a secret, and the
record replaying to the very same state.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.verdant.rules import (
    Phase,
    Turn,
    apply,
    new_game,
    score_seat,
    state_from_json,
    state_to_json,
)
from games.verdant.rules.bots import RandomBot
from games.verdant.rules.home import SIZE, bounding_box, legal_cells, placement_error, position
from games.verdant.rules.record import GameRecord
from games.verdant.rules.view import player_view
from tests.verdant.verdant_builders import ED, all_cards, all_tokens

PROFILE = settings(
    max_examples=30,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ALL_CARDS = Counter({**dict.fromkeys(ED.plants, 1), **dict.fromkeys(ED.rooms, 1)})
ALL_TOKENS = Counter(ED.tokens())

games = st.tuples(
    st.integers(1, 5),  # players
    st.integers(0, 2**32),  # game seed
    st.integers(0, 2**16),  # bot seed
    st.sampled_from(["standard", "family"]),
    st.booleans(),  # goal cards
)


def play(players, seed, bot_seed, variant, goals):
    """Yield (state before, move, state after) for a whole random game."""
    state = new_game(players, seed, variant=variant, goals=goals)
    order = random.Random(bot_seed)
    bots = [RandomBot(bot_seed * 10 + k) for k in range(players)]
    while not state.is_over:
        seat = order.choice(state.awaiting)
        move = bots[seat].choose(state, seat)
        after = apply(state, move)
        yield state, move, after
        state = after


def assert_no_secret_in_view(state, viewer):
    view = player_view(state, viewer)
    text = json.dumps(view)
    for card in (*state.plant_deck, *state.room_deck):
        assert f'"{card}"' not in text, card
    assert str(state.rng) not in text
    assert view["bag_count"] == len(state.bag) and "bag" not in view
    if state.phase is Phase.START:
        for index, seat in enumerate(view["seats"]):
            if index != viewer:
                assert seat["start"]["side"] is None


@PROFILE
@given(games)
def test_every_component_is_accounted_for_and_no_score_is_negative(game):
    viewer_choice = random.Random(game[2])
    for _before, move, after in play(*game):
        assert all_cards(after) == ALL_CARDS
        assert all_tokens(after) == ALL_TOKENS
        for seat in range(len(after.seats)):
            sheet = score_seat(after, seat).to_json()
            assert all(points >= 0 for points in sheet.values()), sheet
            occupied = after.seats[seat].home.occupied
            if occupied:
                rows, cols = bounding_box(occupied)
                assert rows <= ED.rows and cols <= ED.columns
        if isinstance(move, Turn):
            assert after.seats[move.seat].thumbs <= ED.max_thumbs
        viewer = viewer_choice.choice([None, *range(len(after.seats))])
        assert_no_secret_in_view(after, viewer)
    assert after.is_over and after.outcome is not None
    assert all(s.home.card_count == 15 and s.turns == 13 for s in after.seats)
    assert all(bounding_box(s.home.occupied) == (3, 5) for s in after.seats)


@PROFILE
@given(games)
def test_a_record_replays_to_the_same_state_checked_or_not(game):
    players, seed, _, variant, goals = game
    moves = []
    final = None
    for _, move, after in play(*game):
        moves.append(move)
        final = after
    record = GameRecord(
        tuple(f"P{k}" for k in range(players)),
        seed,
        variant=variant,
        goals=goals,
        moves=tuple(moves),
    )
    again = GameRecord.from_json(json.loads(json.dumps(record.to_json(final))))
    assert again == record
    assert again.replay() == final
    assert again.replay(checked=False) == final
    assert state_from_json(json.loads(json.dumps(state_to_json(final)))) == final


@settings(max_examples=15, derandomize=True, database=None, deadline=None)
@given(games)
def test_the_fast_legal_cells_agree_with_the_placement_rules_at_every_step(game):
    for _before, _move, after in play(*game):
        for seat in after.seats:
            cards = seat.home.cards
            for kind in ("plant", "room"):
                slow = [
                    position(i)
                    for i in range(SIZE)
                    if placement_error(cards, kind, position(i), ED) is None
                ]
                assert legal_cells(cards, kind, ED) == slow
