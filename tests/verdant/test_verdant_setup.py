"""Set-up for 1-5 players (rulebook "Setup", rulings 2, 3 and 13)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.verdant.rules import Phase, RulesError, new_game
from games.verdant.rules.engine import start_thumbs, starting_player
from tests.verdant.verdant_builders import ED, all_cards, all_tokens


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_a_new_game_has_a_full_market_and_every_component_accounted_for(players):
    state = new_game(players, seed=7)
    assert state.phase is Phase.START
    assert all(state.market_plants) and all(state.market_rooms) and all(state.market_tokens)
    assert len(state.market_plants) == len(state.market_tokens) == len(state.market_rooms) == 4
    assert sum(all_cards(state).values()) == 100 and set(all_cards(state)) == set(ED.plants) | set(
        ED.rooms
    )
    assert all_tokens(state) == Counter(ED.tokens())


def test_the_bag_holds_45_furniture_and_pets_and_45_nurture_tokens():
    tokens = Counter(ED.tokens())
    assert sum(n for kind, n in tokens.items() if ED.is_item(kind)) == 45
    assert {kind: n for kind, n in tokens.items() if ED.is_nurture(kind)} == {
        "fertilizer": 15,
        "trowel": 15,
        "watering_can": 15,
    }


def test_each_player_is_dealt_one_plant_and_one_room():
    state = new_game(4, seed=3)
    for seat in state.seats:
        assert seat.start_plant in ED.plants and seat.start_room in ED.rooms
    dealt = [s.start_plant for s in state.seats] + [s.start_room for s in state.seats]
    assert len(set(dealt)) == 8


def test_the_starting_player_holds_the_highest_requirement():
    # Aloe Vera needs 3, Ghost Plant 6, Gardenia 5.
    assert starting_player(["P100", "P109", "P207"], ED) == 1


def test_a_tie_for_the_highest_requirement_goes_to_the_name_first_alphabetically_ignoring_case():
    # Ruling 3: "Zebra Haworthia" (P103) comes before "ZZ Plant" (P303); both need 4.
    assert starting_player(["P303", "P103"], ED) == 1
    assert starting_player(["P103", "P303"], ED) == 0


def test_new_game_seats_the_starting_player_from_the_dealt_plants():
    for seed in range(20):
        state = new_game(3, seed)
        assert state.first == starting_player([s.start_plant for s in state.seats], ED)


@pytest.mark.parametrize(
    ("players", "first", "expected"),
    [
        (1, 0, [2]),
        (2, 0, [0, 2]),
        (2, 1, [2, 0]),
        (3, 1, [2, 0, 1]),
        (5, 2, [1, 2, 0, 1, 1]),
    ],
)
def test_green_thumbs_at_the_start_go_0_to_the_starter_2_to_the_last_and_1_to_the_others(
    players, first, expected
):
    assert [start_thumbs(seat, first, players, ED) for seat in range(players)] == expected


def test_the_family_variant_deals_no_green_thumbs():
    state = new_game(3, seed=1, variant="family")
    assert [s.thumbs for s in state.seats] == [0, 0, 0]


@pytest.mark.parametrize(("players", "bonus"), [(2, 3), (3, 4), (4, 5), (5, 6)])
def test_the_pot_supply_depends_on_the_player_count(players, bonus):
    state = new_game(players, seed=1)
    assert Counter(state.pot_stack) == {
        "concrete": bonus,
        "wood": bonus,
        "ceramic": bonus,
        "terracotta": 30,
    }
    assert state.pot_stack[-1] == "concrete"  # the best pot is taken first
    assert state.market_pots == ()


def test_solo_puts_a_concrete_pot_above_each_column_and_stacks_the_rest_best_on_top():
    state = new_game(1, seed=1)
    assert state.market_pots == ("concrete",) * 4
    assert state.pot_stack[-4:] == ("wood",) * 4
    assert state.pot_stack[-8:-4] == ("ceramic",) * 4
    assert Counter(state.pot_stack)["terracotta"] == 30
    assert state.seats[0].thumbs == 2


def test_the_advanced_set_up_draws_one_goal_card_from_each_deck():
    drawn = {new_game(2, seed, goals=True).goals for seed in range(30)}
    for goals in drawn:
        assert [g[:2] for g in goals] == ["GP", "GI", "GR"]
    assert len(drawn) > 5
    assert new_game(2, seed=1).goals == ()


def test_the_same_seed_sets_up_the_same_game():
    assert new_game(3, seed=11, goals=True) == new_game(3, seed=11, goals=True)
    assert new_game(3, seed=11) != new_game(3, seed=12)


@pytest.mark.parametrize(("players", "code"), [(0, "bad_player_count"), (6, "bad_player_count")])
def test_it_refuses_a_player_count_outside_1_to_5(players, code):
    with pytest.raises(RulesError) as caught:
        new_game(players, seed=1)
    assert caught.value.code == code


def test_it_refuses_an_unknown_variant():
    with pytest.raises(RulesError) as caught:
        new_game(2, seed=1, variant="expert")
    assert caught.value.code == "bad_variant"
