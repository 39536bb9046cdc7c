"""Completion and pots (rulings 5, 17), items and nurture (7, 14), storage (18)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.verdant.rules import apply
from tests.verdant.verdant_builders import (
    assert_refused,
    home_cell,
    place,
    started,
    thumb,
    turn,
    use,
    with_home,
    with_market,
)

# Room R102 at 0,0 (all edges low but the top, indirect); Aloe Vera (direct, needs 3,
# 4 points) at 0,1; Jade Plant (indirect, needs 3, 5 points) at 1,0.
HOME = {(0, 0): "R102", (0, 1): "P100", (1, 0): "P101"}


def game(players=2, token="fertilizer", room="R103", plant="P103", **home):
    """A game where the player to play has HOME and column 0 offers ``plant``, ``token``, ``room``."""
    state = started(players, seed=4)
    seat = state.to_play
    state = with_home(state, seat, HOME, **home)
    return with_market(state, 0, plant=plant, token=token, room=room), seat


# --- ruling 5: completion ---------------------------------------------------------------


def test_a_plant_reaching_its_requirement_completes_loses_its_verdancy_and_takes_the_best_pot():
    state, seat = game(verdancy={(0, 1): 1})
    after = apply(state, turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 1))))
    assert home_cell(after, seat, (0, 1)) | {"item": None} == {
        "card": "P100",
        "verdancy": 0,
        "completed": True,
        "pot": "concrete",
        "item": None,
    }
    assert after.pot_stack == state.pot_stack[:-1]


def test_extra_verdancy_from_the_same_effect_is_lost():
    state, seat = game(verdancy={(0, 1): 2})
    after = apply(state, turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 1))))
    assert home_cell(after, seat, (0, 1))["verdancy"] == 0
    assert after.seats[seat].home.verdancy == tuple(0 for _ in after.seats[seat].home.verdancy)


def test_once_the_bonus_pots_are_gone_a_completed_plant_takes_terracotta():
    state, seat = game(verdancy={(0, 1): 2})
    state = replace(state, pot_stack=("terracotta", "terracotta"))
    after = apply(state, turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 1))))
    assert home_cell(after, seat, (0, 1))["pot"] == "terracotta"


def test_with_no_pot_left_a_plant_still_completes():
    # Ruling 17.
    state, seat = game(verdancy={(0, 1): 2})
    state = replace(state, pot_stack=())
    after = apply(state, turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 1))))
    cell = home_cell(after, seat, (0, 1))
    assert cell["completed"] and cell["pot"] is None


def test_two_completions_in_one_turn_take_the_two_best_pots():
    state, seat = game(token="trowel", verdancy={(0, 1): 2, (1, 0): 2})
    state = replace(state, pot_stack=("ceramic", "wood", "concrete"))
    after = apply(state, turn(seat, "room", 0, (-1, 1), use("trowel", (0, 1), (1, 0))))
    assert home_cell(after, seat, (0, 1))["pot"] == "concrete"
    assert home_cell(after, seat, (1, 0))["pot"] == "wood"
    assert after.pot_stack == ("ceramic",)


# --- ruling 7: items -------------------------------------------------------------------


def test_a_furniture_or_pet_goes_on_a_room_without_one():
    state, seat = game(token="cat")
    after = apply(state, turn(seat, "room", 0, (-1, 1), place("cat", (0, 0))))
    assert home_cell(after, seat, (0, 0))["item"] == "cat"
    occupied, seat = game(token="cat", items={(0, 0): "dog"})
    assert_refused(occupied, turn(seat, "room", 0, (-1, 1), place("cat", (0, 0))), "room_occupied")


def test_an_item_may_go_on_the_room_placed_this_turn():
    state, seat = game(token="cat")
    after = apply(state, turn(seat, "room", 0, (-1, 1), place("cat", (-1, 1))))
    assert home_cell(after, seat, (-1, 1))["item"] == "cat"


def test_fertilizer_adds_three_to_one_plant():
    state, seat = game(token="fertilizer", plant="P103")
    after = apply(state, turn(seat, "plant", 0, (-1, 0), use("fertilizer", (-1, 0))))
    assert home_cell(after, seat, (-1, 0))["verdancy"] == 3  # Zebra Haworthia needs 4


def test_the_trowel_adds_one_to_up_to_three_different_plants():
    state, seat = game(token="trowel", plant="P103")
    after = apply(state, turn(seat, "plant", 0, (-1, 0), use("trowel", (-1, 0), (0, 1), (1, 0))))
    assert [home_cell(after, seat, p)["verdancy"] for p in ((-1, 0), (0, 1), (1, 0))] == [1, 1, 1]
    assert_refused(
        state, turn(seat, "plant", 0, (-1, 0), use("trowel", (0, 1), (0, 1))), "bad_targets"
    )


def test_the_watering_can_waters_every_incomplete_plant_around_one_room():
    state, seat = game(token="watering_can", plant="P103", completed={(1, 0): "wood"})
    after = apply(state, turn(seat, "plant", 0, (-1, 0), use("watering_can", (0, 0))))
    assert home_cell(after, seat, (-1, 0))["verdancy"] == 1
    assert home_cell(after, seat, (0, 1))["verdancy"] == 1
    assert home_cell(after, seat, (1, 0)) | {"verdancy": 0} == home_cell(state, seat, (1, 0))


def test_the_watering_can_is_used_from_a_room():
    state, seat = game(token="watering_can")
    assert_refused(state, turn(seat, "room", 0, (-1, 1), use("watering_can", (0, 1))), "not_a_room")


def test_several_items_may_be_used_in_one_turn_from_the_draft_and_storage():
    state, seat = game(token="cat", storage="fertilizer", verdancy={(0, 1): 1})
    after = apply(
        state,
        turn(seat, "room", 0, (-1, 1), place("cat", (0, 0)), use("fertilizer", (0, 1))),
    )
    assert home_cell(after, seat, (0, 0))["item"] == "cat"
    assert home_cell(after, seat, (0, 1))["completed"]
    assert after.seats[seat].storage is None


# --- ruling 14: targets -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "code"),
    [
        (use("fertilizer", (0, 0)), "not_a_plant"),
        (use("fertilizer", (2, 2)), "not_a_plant"),
        (use("fertilizer", (1, 0)), "plant_completed"),
        (use("trowel", (0, 1), (1, 0)), "plant_completed"),
        (thumb((1, 0)), "plant_completed"),
    ],
)
def test_verdancy_goes_only_to_your_own_incomplete_plants(step, code):
    token = step.item or "fertilizer"
    state, seat = game(token=token, completed={(1, 0): "wood"}, thumbs=2)
    assert_refused(state, turn(seat, "room", 0, (-1, 1), step), code)


def test_a_plant_completed_this_turn_takes_no_more_verdancy():
    state, seat = game(token="fertilizer", verdancy={(0, 1): 2})
    state = replace(state, seats=tuple(replace(s, thumbs=4) for s in state.seats))
    assert_refused(
        state,
        turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 1)), thumb((0, 1))),
        "plant_completed",
    )


def test_adding_less_than_an_effect_allows_is_allowed():
    state, seat = game(token="trowel")
    after = apply(state, turn(seat, "room", 0, (-1, 1), use("trowel", (0, 1))))
    assert home_cell(after, seat, (0, 1))["verdancy"] == 1
    unused = apply(state, turn(seat, "room", 0, (-1, 1)))
    assert "trowel" in unused.box


# --- ruling 18: storage ---------------------------------------------------------------------


def test_a_turn_names_the_item_it_stores_and_uses_it_on_a_later_turn():
    state, seat = game(players=1, token="fertilizer")
    stored = apply(state, turn(seat, "room", 0, (-1, 1), store="fertilizer"))
    assert stored.seats[seat].storage == "fertilizer"
    nxt = stored.market_plants.index(next(p for p in stored.market_plants if p))
    later = apply(stored, turn(seat, "plant", nxt, (-1, 0), use("fertilizer", (0, 1))))
    assert home_cell(later, seat, (0, 1))["completed"]  # Aloe Vera needs 3
    assert later.seats[seat].storage is None


def test_an_item_neither_used_placed_nor_stored_leaves_the_game():
    state, seat = game(token="cat", storage="dog")
    after = apply(state, turn(seat, "room", 0, (-1, 1), store="cat"))
    assert after.seats[seat].storage == "cat"
    assert after.box == (*state.box, "dog")


def test_storage_holds_only_an_item_of_this_turn():
    state, seat = game(token="cat")
    assert_refused(state, turn(seat, "room", 0, (-1, 1), store="dog"), "item_not_available")
    assert_refused(
        state,
        turn(seat, "room", 0, (-1, 1), place("cat", (0, 0)), store="cat"),
        "item_not_available",
    )
