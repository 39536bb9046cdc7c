"""The start placement (ruling 2), placement in the home (ruling 1) and light (ruling 4)."""

from __future__ import annotations

import pytest

from games.verdant.rules import Phase, Start, apply, new_game
from games.verdant.rules.home import Home, legal_cells, placement_error
from games.verdant.rules.targets import legal_selections
from games.verdant.rules.view import player_view
from tests.verdant.verdant_builders import (
    ED,
    assert_refused,
    home_cell,
    started,
    turn,
    with_home,
    with_market,
)

# --- ruling 2: the start -----------------------------------------------------------------


def test_start_placements_stay_hidden_until_every_player_has_chosen():
    state = new_game(3, seed=5)
    state = apply(state, Start(1, "left"))
    assert state.phase is Phase.START and state.awaiting == (0, 2)
    seen_by_0 = player_view(state, 0)["seats"][1]["start"]
    assert seen_by_0 == {
        "plant": state.seats[1].start_plant,
        "room": state.seats[1].start_room,
        "chosen": True,
        "side": None,
    }
    assert player_view(state, 1)["seats"][1]["start"]["side"] == "left"
    assert player_view(state, None)["seats"][1]["start"]["side"] is None
    assert state.seats[1].home == Home.empty()


def test_when_the_last_player_chooses_every_start_is_placed_and_play_begins():
    state = new_game(2, seed=5)
    state = apply(state, Start(0, "top"))
    state = apply(state, Start(1, "bottom"))
    assert state.phase is Phase.PLAY and state.to_play == state.first
    assert home_cell(state, 0, (0, 0))["card"] == state.seats[0].start_room
    assert home_cell(state, 0, (-1, 0))["card"] == state.seats[0].start_plant
    assert home_cell(state, 1, (1, 0))["card"] == state.seats[1].start_plant
    assert player_view(state, 0)["seats"][1]["start"]["side"] == "bottom"


@pytest.mark.parametrize("side", ["top", "right", "bottom", "left"])
def test_a_light_match_at_the_start_adds_one_verdancy(side):
    state = new_game(1, seed=9)
    seat = state.seats[0]
    edge = ED.rooms[seat.start_room].edges[side]
    expected = 1 if edge in ED.plants[seat.start_plant].lights else 0
    state = apply(state, Start(0, side))
    plant = {"top": (-1, 0), "right": (0, 1), "bottom": (1, 0), "left": (0, -1)}[side]
    assert home_cell(state, 0, plant)["verdancy"] == expected


def test_a_player_chooses_the_start_once():
    state = apply(new_game(2, seed=5), Start(0, "top"))
    assert_refused(state, Start(0, "left"), "start_already_chosen")


def test_no_turn_is_played_before_every_start_is_in():
    state = apply(new_game(2, seed=5), Start(0, "top"))
    assert_refused(state, turn(state.first, "plant", 0, (0, 1)), "wrong_phase")


def test_no_start_is_chosen_once_play_has_begun():
    assert_refused(started(2, seed=5), Start(0, "top"), "wrong_phase")


# --- ruling 1: the home -------------------------------------------------------------------

HOME = {(0, 0): "R100", (0, 1): "P100"}


def test_cards_alternate_like_a_checkerboard():
    cards = with_home(started(), 0, HOME).seats[0].home.cards
    assert placement_error(cards, "room", (0, 2), ED) is None
    assert placement_error(cards, "plant", (0, 2), ED)[0] == "same_kind_adjacent"
    assert placement_error(cards, "plant", (1, 0), ED) is None
    assert placement_error(cards, "room", (1, 0), ED)[0] == "same_kind_adjacent"


def test_a_card_must_touch_the_home_and_not_cover_a_card():
    cards = with_home(started(), 0, HOME).seats[0].home.cards
    assert placement_error(cards, "room", (2, 2), ED)[0] == "not_adjacent"
    assert placement_error(cards, "room", (0, 1), ED)[0] == "cell_taken"
    assert placement_error(cards, "room", (9, 9), ED)[0] == "outside_home"


def test_the_home_is_five_columns_wide_and_three_rows_tall_never_the_other_way():
    row = {(0, c): ("R10" if c % 2 == 0 else "P10") + str(c) for c in range(5)}
    cards = with_home(started(), 0, row).seats[0].home.cards
    assert placement_error(cards, "plant", (0, 5), ED)[0] == "outside_home"
    assert placement_error(cards, "plant", (0, -1), ED)[0] == "outside_home"
    column = {(0, 0): "R100", (1, 0): "P101", (2, 0): "R102"}
    cards = with_home(started(), 0, column).seats[0].home.cards
    assert placement_error(cards, "plant", (-1, 0), ED)[0] == "outside_home"
    assert placement_error(cards, "plant", (3, 0), ED)[0] == "outside_home"
    assert placement_error(cards, "plant", (0, 1), ED) is None


def test_legal_cells_are_exactly_the_cells_placement_accepts():
    cards = with_home(started(), 0, HOME).seats[0].home.cards
    assert sorted(legal_cells(cards, "room", ED)) == [(-1, 1), (0, 2), (1, 1)]
    assert sorted(legal_cells(cards, "plant", ED)) == [(-1, 0), (0, -1), (1, 0)]


def test_a_card_that_cannot_be_placed_cannot_be_taken():
    # A full row of rooms and plants 5 wide, 3 tall but for two plant cells.
    cards = {}
    for r in range(3):
        for c in range(5):
            plant = (r + c) % 2 == 1
            cards[(r, c)] = (
                None if plant and (r, c) in ((0, 1), (2, 3)) else ("P" if plant else "R")
            )
    plants = iter(f"P{n}" for n in (100, 101, 102, 103, 104, 105, 106, 107))
    rooms = iter(f"R{n}" for n in (100, 101, 102, 103, 104, 105, 106, 107))
    home = {p: next(plants) if k == "P" else next(rooms) for p, k in cards.items() if k}
    state = with_home(started(), 0, home)
    assert legal_cells(state.seats[0].home.cards, "room", ED) == []
    assert {s.take for s in legal_selections(state, 0, ED)} == {"plant"}
    assert_refused(state, turn(0, "room", 0, (0, 1)), "same_kind_adjacent")


# --- ruling 4: light ----------------------------------------------------------------------


def test_a_room_placed_beside_a_plant_that_prefers_the_edge_light_adds_one_verdancy():
    # Aloe Vera wants direct light; R100's left edge is direct.
    state = with_home(started(), 0, {(0, 0): "R102", (0, 1): "P100"})
    state = with_market(state, 0, room="R100")
    after = apply(state, turn(0, "room", 0, (0, 2)))
    assert home_cell(after, 0, (0, 1))["verdancy"] == 1


def test_no_verdancy_when_the_edge_light_is_not_preferred():
    # R102's left edge is low; Aloe Vera wants direct.
    state = with_home(started(), 0, {(0, 0): "R100", (0, 1): "P100"})
    state = with_market(state, 0, room="R102")
    after = apply(state, turn(0, "room", 0, (0, 2)))
    assert home_cell(after, 0, (0, 1))["verdancy"] == 0


def test_every_edge_a_new_card_shares_is_checked():
    # Paddle Plant likes every light: placed between three rooms it gets 3.
    home = {(0, 0): "R100", (1, 1): "R101", (0, 2): "R102", (0, 3): "P101"}
    state = with_home(started(), 0, home)
    state = with_market(state, 0, plant="P108")
    after = apply(state, turn(0, "plant", 0, (0, 1)))
    assert home_cell(after, 0, (0, 1))["verdancy"] == 3


def test_a_completed_plant_takes_no_verdancy_from_light():
    state = with_home(started(), 0, {(0, 0): "R102", (0, 1): "P100"}, completed={(0, 1): "wood"})
    state = with_market(state, 0, room="R100")
    after = apply(state, turn(0, "room", 0, (0, 2)))
    assert home_cell(after, 0, (0, 1))["verdancy"] == 0
    assert home_cell(after, 0, (0, 1))["pot"] == "wood"
