"""The facts of a move, for recaps, and the green thumb actions on offer."""

from __future__ import annotations

from games.verdant.rules import Wipe, apply, new_game
from games.verdant.rules.events import move_facts
from games.verdant.rules.targets import green_thumb_actions
from tests.verdant.verdant_builders import (
    ED,
    started,
    turn,
    use,
    with_home,
    with_market,
    with_thumbs,
)


def test_the_facts_of_a_turn_name_the_card_token_and_completed_plants_with_their_pots():
    state = started(2, seed=4)
    seat = state.to_play
    state = with_home(state, seat, {(0, 0): "R102", (0, 1): "P100"}, verdancy={(0, 1): 2})
    state = with_market(state, 0, token="fertilizer", room="R103")
    move = turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 1)))
    facts = move_facts(state, move, apply(state, move))
    assert facts["card"] == "R103" and facts["token"] == "fertilizer"
    assert facts["completed"] == [{"card": "P100", "cell": [0, 1], "pot": "concrete"}]
    assert facts["used"] == [{"item": "fertilizer", "cells": [[0, 1]]}]


def test_the_facts_of_a_wipe_name_the_tokens_returned_and_drawn():
    state = started(2, seed=4)
    seat = state.to_play
    state = with_thumbs(state, seat, 2)
    after = apply(state, Wipe(seat, (1,)))
    facts = move_facts(state, Wipe(seat, (1,)), after)
    assert facts["returned"] == [state.market_tokens[1]]
    assert facts["drawn"] == [after.market_tokens[1]]


def test_green_thumb_actions_are_offered_to_the_player_to_play_who_can_pay():
    state = started(2, seed=4)
    seat = state.to_play
    assert green_thumb_actions(with_thumbs(state, seat, 2), seat, ED) == ("A", "B", "C")
    assert green_thumb_actions(with_thumbs(state, seat, 1), seat, ED) == ()
    assert green_thumb_actions(state, 1 - seat, ED) == ()
    family = started(2, seed=4, variant="family")
    assert green_thumb_actions(with_thumbs(family, family.to_play, 4), family.to_play, ED) == ()
    assert green_thumb_actions(new_game(1, seed=1), 0, ED) == ()
