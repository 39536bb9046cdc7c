"""What a player may do now, on demand: selections, cells, step targets."""

from __future__ import annotations

from games.verdant.rules import Selection, Turn, apply, legal_cells, legal_selections, new_game
from games.verdant.rules.targets import plant_targets, room_targets, rooms
from tests.verdant.verdant_builders import ED, started, with_home, with_thumbs

HOME = {(0, 0): "R102", (0, 1): "P100", (1, 0): "P101"}


def test_without_action_b_a_selection_is_a_card_and_the_token_of_its_column():
    state = started(2, seed=3)
    found = legal_selections(state, state.to_play, ED)
    assert sorted(found) == sorted(Selection(k, c, c) for k in ("plant", "room") for c in range(4))


def test_action_b_offers_every_pair_only_to_a_seat_that_can_pay():
    state = started(2, seed=3)
    seat = state.to_play
    assert legal_selections(with_thumbs(state, seat, 1), seat, ED, free=True) == []
    assert len(legal_selections(with_thumbs(state, seat, 2), seat, ED, free=True)) == 32


def test_no_selection_for_a_seat_that_is_not_to_play_or_before_the_start():
    state = started(2, seed=3)
    assert legal_selections(state, 1 - state.to_play, ED) == []
    assert legal_selections(new_game(2, seed=3), 0, ED) == []


def test_every_offered_selection_and_cell_is_accepted():
    state = started(2, seed=3)
    seat = state.to_play
    for pick in legal_selections(state, seat, ED):
        for cell in legal_cells(state, seat, pick.take, ED):
            apply(state, Turn(seat, pick.take, pick.column, pick.token, cell))


def test_step_targets_list_incomplete_plants_free_rooms_and_all_rooms():
    state = with_home(started(), 0, HOME, completed={(1, 0): "wood"}, items={(0, 0): "cat"})
    home = state.seats[0].home
    assert plant_targets(home.cards, home.completed) == [(0, 1)]
    assert room_targets(home.cards, home.items) == []
    assert rooms(home.cards) == [(0, 0)]
