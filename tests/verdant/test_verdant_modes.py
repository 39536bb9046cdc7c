"""The solo mode (rulings 11, 16) and the family variant (ruling 12)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.verdant.rules import Wipe, apply, score_seat
from games.verdant.rules.bots import RandomBot, play_game
from tests.verdant.verdant_builders import (
    ED,
    assert_refused,
    home_cell,
    place,
    started,
    thumb,
    turn,
    use,
    with_home,
    with_market,
    with_thumbs,
)

HOME = {(0, 0): "R102", (0, 1): "P100", (1, 0): "P101"}  # Aloe Vera and Jade Plant need 3


def solo(token="fertilizer", room="R103", **home):
    state = with_home(started(1, seed=6), 0, HOME, **home)
    return with_market(state, 0, token=token, room=room)


# --- solo: pots ---------------------------------------------------------------------------


def test_solo_completion_takes_the_pot_of_the_fourth_column():
    state = solo(verdancy={(0, 1): 1})
    after = apply(state, turn(0, "room", 0, (-1, 1), use("fertilizer", (0, 1))))
    assert home_cell(after, 0, (0, 1))["pot"] == "concrete"
    assert after.pot_discard == ()  # the 4th column's pot was taken, not discarded
    assert after.market_pots == ("wood", "concrete", "concrete", "concrete")


def test_solo_without_a_completion_the_fourth_columns_pot_is_discarded():
    state = solo()
    after = apply(state, turn(0, "room", 0, (-1, 1)))
    assert after.pot_discard == ("concrete",)
    assert after.market_pots == ("wood", "concrete", "concrete", "concrete")


def test_a_second_solo_completion_takes_the_lowest_discarded_pot():
    state = solo(token="trowel", verdancy={(0, 1): 2, (1, 0): 2})
    state = replace(state, pot_discard=("wood", "ceramic", "concrete"))
    after = apply(state, turn(0, "room", 0, (-1, 1), use("trowel", (0, 1), (1, 0))))
    assert home_cell(after, 0, (0, 1))["pot"] == "concrete"
    assert home_cell(after, 0, (1, 0))["pot"] == "ceramic"
    assert sorted(after.pot_discard) == ["concrete", "wood"]


def test_a_second_solo_completion_with_no_discarded_pot_takes_terracotta():
    state = solo(token="trowel", verdancy={(0, 1): 2, (1, 0): 2})
    after = apply(state, turn(0, "room", 0, (-1, 1), use("trowel", (0, 1), (1, 0))))
    assert home_cell(after, 0, (1, 0))["pot"] == "terracotta"


# --- solo: the market ---------------------------------------------------------------------


def test_solo_discards_the_fourth_column_and_shifts_the_market_away_from_the_decks():
    state = solo()
    after = apply(state, turn(0, "room", 0, (-1, 1)))
    assert after.card_discard == (state.market_plants[3], state.market_rooms[3])
    assert after.box == ("fertilizer", state.market_tokens[3])  # the unused draft, the discard
    assert after.market_plants[1:] == (state.market_plants[0], *state.market_plants[1:3])
    assert after.market_rooms[2:] == state.market_rooms[1:3]
    assert after.market_tokens[2:] == state.market_tokens[1:3]
    assert after.market_plants[0] == state.plant_deck[-1]
    assert all(after.market_rooms) and all(after.market_tokens)


def test_solo_green_thumbs_on_a_discarded_card_move_left_in_the_same_row():
    state = replace(solo(), thumbs_plants=(0, 0, 0, 1))
    after = apply(state, turn(0, "room", 1, (-1, 1), token=1))
    # the usual thumb on the plant of column 1; the discarded one onto column 2's plant;
    # then everything shifts one column.
    assert after.thumbs_plants == (0, 0, 1, 1)


def test_solo_green_thumbs_skip_an_empty_slot_to_the_nearest_card_on_the_left():
    state = with_thumbs(replace(solo(), thumbs_plants=(0, 0, 0, 2)), 0, 0)
    state = with_home(state, 0, {(0, 0): "R102", (0, 1): "P100"})
    after = apply(state, turn(0, "plant", 2, (1, 0)))
    assert after.thumbs_plants == (0, 0, 2, 0)
    assert after.thumbs_rooms == (0, 0, 0, 1)


def test_a_solo_card_holding_three_green_thumbs_returns_them_all():
    state = replace(solo(), thumbs_plants=(1, 0, 2, 1))
    after = apply(state, turn(0, "room", 1, (-1, 1), token=1))
    assert after.thumbs_plants == (0, 1, 1, 0)


def test_solo_returns_the_green_thumbs_of_any_card_holding_three():
    # Ruling 16 read literally: any card, not only one that just received the moved ones.
    state = replace(solo(), thumbs_rooms=(0, 3, 0, 0))
    after = apply(state, turn(0, "room", 0, (-1, 1)))
    assert after.thumbs_rooms == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("score", "title"),
    [
        (59, None),
        (60, "A good start!"),
        (79, "You're getting it!"),
        (80, "Very Good!"),
        (95, "Excellent!"),
        (130, "Elite!"),
    ],
)
def test_the_solo_title_table(score, title):
    assert ED.solo_title(score) == title


def test_a_solo_game_ends_with_its_title():
    final, _ = play_game(started(1, seed=8), [RandomBot(3)])
    assert final.outcome is not None
    assert final.outcome.title == ED.solo_title(final.outcome.scores[0])


# --- family -------------------------------------------------------------------------------


def family(token="watering_can"):
    state = started(2, seed=6, variant="family")
    seat = state.to_play
    state = with_home(state, seat, HOME)
    return with_market(state, 0, token=token, room="R105"), seat


def test_the_family_variant_ignores_light():
    state, seat = family()
    after = apply(state, turn(seat, "room", 0, (-1, 1)))  # R105's bottom edge is direct
    assert home_cell(after, seat, (0, 1))["verdancy"] == 0


@pytest.mark.parametrize("token", ["fertilizer", "trowel", "watering_can"])
def test_any_family_nurture_token_completes_one_plant(token):
    state, seat = family(token)
    after = apply(state, turn(seat, "room", 0, (-1, 1), use(token, (1, 0))))
    cell = home_cell(after, seat, (1, 0))
    assert cell["completed"] and cell["pot"] in ED.pot_values
    assert_refused(state, turn(seat, "room", 0, (-1, 1), use(token, (0, 0))), "not_a_plant")
    assert_refused(state, turn(seat, "room", 0, (-1, 1), use(token, (0, 1), (1, 0))), "bad_targets")


def test_a_family_plant_scores_five_and_its_pot_nothing():
    state, seat = family()
    after = apply(state, turn(seat, "room", 0, (-1, 1), use("watering_can", (0, 1))))
    sheet = score_seat(after, seat)
    assert sheet.plants == 5 and sheet.pots == 0


def test_the_family_variant_has_no_green_thumb_actions_and_no_thumbs_on_the_market():
    state, seat = family()
    state = with_thumbs(state, seat, 4)
    assert_refused(state, Wipe(seat, (0,)), "not_in_family")
    assert_refused(state, turn(seat, "room", 0, (-1, 1), token=1, free=True), "not_in_family")
    assert_refused(state, turn(seat, "room", 0, (-1, 1), thumb((0, 1))), "not_in_family")
    after = apply(state, turn(seat, "room", 0, (-1, 1)))
    assert after.thumbs_plants == (0, 0, 0, 0)


def test_family_items_score_as_usual():
    state, seat = family(token="armchair")
    after = apply(state, turn(seat, "room", 0, (-1, 1), place("armchair", (0, 0))))
    assert score_seat(after, seat).items == 1
