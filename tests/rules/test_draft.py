"""The Draft: the pool, picks, the First Player token and the clean-up.

Rulebook "1. Draft"; edition rulings 1, 2, 10 and 12.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from games.evergreen.rules import Phase, Pick, apply, fertility_values, new_game
from games.evergreen.rules.planet import BIOMES
from tests.rules.builders import (
    EDITION,
    action_state,
    all_cards,
    draft_state,
    play_out,
    submit_all,
    zone,
)


def pick_all(state, *cards):
    """Each awaited drafter in turn picks the next of ``cards``."""
    for card in cards:
        state = apply(state, Pick(state.awaiting[0], card))
    return state


def with_last_deck_card(state):
    """``state`` with one card left in the deck and the rest of the deck discarded."""
    return replace(state, deck=state.deck[-1:], discard=(*state.discard, *state.deck[:-1]))


def stack(state, biome):
    return list(state.fertility_zone[BIOMES.index(biome)])


class TestThePool:
    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_the_pool_holds_one_card_more_than_there_are_players(self, players):
        for seed in range(10):
            assert len(new_game(players, seed).pool) == players + 1

    @pytest.mark.parametrize("players", [2, 3, 4])
    def test_every_round_draws_a_fresh_pool_of_players_plus_one(self, players):
        sizes = []

        def record(state):
            if state.phase is Phase.DRAFT and state.picks_done == 0:
                sizes.append(len(state.pool))

        play_out(new_game(players, 3), on_state=record)
        assert sizes == [players + 1] * 14

    def test_the_pool_cards_come_from_the_top_of_the_deck(self):
        state = action_state({0: "wild/bud", 1: "wild/lake"})
        after = submit_all(state)
        assert after.pool == tuple(reversed(state.deck[-3:]))
        assert after.deck == state.deck[:-3]


class TestPickingInTurnOrder:
    POOL = ("snow/lake", "rock/small", "wild/bud", "wheat/big")

    @pytest.mark.parametrize("first", [0, 1, 2])
    def test_the_drafters_pick_clockwise_from_the_first_player(self, first):
        state = draft_state(3, self.POOL, first=first)
        pickers = []
        for card in self.POOL[:3]:
            pickers.append(state.awaiting[0])
            state = apply(state, Pick(state.awaiting[0], card))
        assert pickers == [first, (first + 1) % 3, (first + 2) % 3]

    def test_each_player_keeps_the_card_picked_for_the_round_and_the_season(self):
        state = pick_all(draft_state(3, self.POOL), "wild/bud", "snow/lake", "rock/small")
        assert [s.card for s in state.seats] == ["wild/bud", "snow/lake", "rock/small"]
        assert [s.season_cards for s in state.seats] == [
            ("wild/bud",),
            ("snow/lake",),
            ("rock/small",),
        ]

    def test_the_action_phase_starts_once_every_player_has_picked(self):
        state = draft_state(3, self.POOL)
        state = pick_all(state, "wild/bud", "snow/lake")
        assert state.phase is Phase.DRAFT
        state = pick_all(state, "rock/small")
        assert state.phase is Phase.ACTION
        assert state.pool == ()
        assert state.awaiting == (0, 1, 2)


class TestRuling12TheFirstPlayerToken:
    # Basil (seat 0) is first; the Snow card is leftmost, nearest the deck.
    POOL = ("snow/lake", "rock/small", "wild/bud", "wheat/big")

    def test_basil_picks_the_wild_card_and_puts_the_token_on_the_leftmost_card(self):
        state = pick_all(draft_state(3, self.POOL, first=0), "wild/bud")
        assert state.token_card == "snow/lake"
        assert state.pool == ("snow/lake", "rock/small", "wheat/big")

    def test_when_the_first_player_takes_the_leftmost_card_the_token_goes_on_the_next(self):
        state = pick_all(draft_state(3, self.POOL, first=0), "snow/lake")
        assert state.token_card == "rock/small"

    def test_whoever_picks_the_token_card_is_first_player_next_round(self):
        state = pick_all(draft_state(3, self.POOL, first=0), "wild/bud", "snow/lake", "wheat/big")
        assert state.next_first == 1
        assert state.first == 0  # this round's order does not change
        state = submit_all(state)
        assert state.phase is Phase.DRAFT
        assert (state.round, state.first, state.awaiting) == (2, 1, (1,))

    def test_the_last_picker_can_take_the_token(self):
        state = pick_all(draft_state(3, self.POOL, first=1), "wild/bud", "rock/small", "snow/lake")
        assert state.next_first == 0
        assert submit_all(state).first == 0

    def test_if_nobody_picks_the_token_card_the_first_player_keeps_the_token(self):
        state = pick_all(draft_state(3, self.POOL, first=2), "wild/bud", "rock/small", "wheat/big")
        assert state.next_first == 2
        state = submit_all(state)
        assert (state.round, state.first, state.awaiting) == (2, 2, (2,))

    def test_the_token_is_off_the_table_once_the_draft_is_over(self):
        state = pick_all(draft_state(3, self.POOL), "wild/bud", "rock/small", "wheat/big")
        assert state.token_card is None


class TestTheCleanUp:
    def test_an_unchosen_fertility_card_goes_face_up_on_its_biome_stack(self):
        start = zone(("rock", [("rock/lake", True)]))
        state = draft_state(2, ("wild/bud", "rock/big", "snow/lake"), fertility_zone=start)
        state = pick_all(state, "wild/bud", "snow/lake")
        assert stack(state, "rock") == [("rock/lake", True), ("rock/big", True)]
        assert fertility_values(state)["rock"] == 3
        assert "rock/big" not in state.discard

    def test_the_aridity_example_flips_the_latest_snow_card_and_covers_it(self):
        # A Snow Aridity card is left unchosen: the latest card of the Snow stack is
        # flipped and the Aridity card goes on top.
        start = zone(("snow", [("snow/sprout", True), ("snow/big", True)]))
        state = draft_state(2, ("snow/bush", "wild/bud", "rock/small"), fertility_zone=start)
        assert fertility_values(state)["snow"] == 3
        state = pick_all(state, "wild/bud", "rock/small")
        assert stack(state, "snow") == [
            ("snow/sprout", True),
            ("snow/big", False),
            ("snow/bush", True),
        ]
        assert fertility_values(state)["snow"] == 1

    def test_ruling_1_flips_the_latest_card_that_is_still_face_up_with_fertility(self):
        start = zone(("snow", [("snow/sprout", True), ("snow/big", False)]))
        state = draft_state(2, ("snow/bush", "wild/bud", "rock/small"), fertility_zone=start)
        state = pick_all(state, "wild/bud", "rock/small")
        assert stack(state, "snow") == [
            ("snow/sprout", False),
            ("snow/big", False),
            ("snow/bush", True),
        ]
        assert fertility_values(state)["snow"] == 0

    def test_ruling_1_an_aridity_card_with_nothing_to_flip_is_just_placed(self):
        state = draft_state(2, ("swamp/lake", "wild/bud", "rock/small"), fertility_zone=zone())
        state = pick_all(state, "wild/bud", "rock/small")
        assert stack(state, "swamp") == [("swamp/lake", True)]
        assert fertility_values(state) == dict.fromkeys(BIOMES, 0)

    def test_ruling_1_an_aridity_card_only_affects_its_own_biome(self):
        start = zone(
            ("snow", [("snow/big", True)]),
            ("swamp", [("swamp/bush", True)]),
        )
        state = draft_state(2, ("swamp/lake", "wild/bud", "rock/small"), fertility_zone=start)
        state = pick_all(state, "wild/bud", "rock/small")
        assert stack(state, "snow") == [("snow/big", True)]
        assert stack(state, "swamp") == [("swamp/bush", False), ("swamp/lake", True)]

    def test_ruling_1_an_aridity_card_never_shows_fertility(self):
        start = zone(("rock", [("rock/big", True)]))
        state = draft_state(2, ("rock/bud", "wild/bud", "rock/small"), fertility_zone=start)
        state = pick_all(state, "wild/bud", "rock/small")
        assert fertility_values(state)["rock"] == 0
        assert EDITION.cards["rock/bud"].fertility == 0

    def test_ruling_2_an_unchosen_wild_card_is_discarded(self):
        state = draft_state(2, ("wild/bud", "snow/lake", "rock/small"), fertility_zone=zone())
        before = state.discard
        state = pick_all(state, "snow/lake", "rock/small")
        assert state.discard == (*before, "wild/bud")
        assert all(s == () for s in state.fertility_zone)

    def test_an_unchosen_card_without_icon_is_discarded(self):
        state = draft_state(2, ("wild/bud", "snow/lake", "rock/small"), fertility_zone=zone())
        state = pick_all(state, "wild/bud", "rock/small")
        assert state.discard[-1] == "snow/lake"
        assert all(s == () for s in state.fertility_zone)

    def test_in_a_game_every_card_stays_accounted_for_through_the_clean_ups(self):
        def check(state):
            assert Counter(all_cards(state)) == Counter(EDITION.card_order)

        play_out(new_game(4, 11), on_state=check)


class TestRuling10TheEmptyDeck:
    def test_an_empty_deck_is_rebuilt_from_the_discard_pile_only(self):
        state = action_state({0: "wild/bud", 1: "wild/lake"}, fertility_zone=zone())
        state = with_last_deck_card(state)
        top, discarded = state.deck[0], set(state.discard)
        held = [s.season_cards for s in state.seats]
        after = submit_all(state)
        assert after.pool[0] == top
        assert set(after.pool[1:]) <= discarded
        assert len(after.pool) == 3
        assert after.discard == ()
        assert set(after.deck) == discarded - set(after.pool)
        assert [s.season_cards for s in after.seats] == held
        assert after.fertility_zone == state.fertility_zone
        assert Counter(all_cards(after)) == Counter(all_cards(state))

    def test_the_fertility_zone_and_the_cards_in_front_of_players_stay_put(self):
        start = zone(("snow", [("snow/big", True)]), ("rock", [("rock/lake", True)]))
        state = action_state({0: "wild/bud", 1: "wild/lake"}, fertility_zone=start)
        state = replace(state, deck=(), discard=state.deck)
        after = submit_all(state)
        assert len(after.pool) == 3
        assert after.fertility_zone == start
        assert all(card not in after.deck for card in ("snow/big", "rock/lake", "wild/bud"))

    def test_the_pool_is_smaller_when_deck_and_discard_cannot_fill_it(self):
        state = action_state({0: "wild/bud", 1: "wild/lake", 2: "wild/big"}, players=3)
        state = replace(state, deck=(), discard=("snow/lake", "rock/small"))
        after = submit_all(state)
        assert after.phase is Phase.DRAFT
        assert sorted(after.pool) == ["rock/small", "snow/lake"]
        assert (after.deck, after.discard) == ((), ())

    def test_a_short_pool_leaves_the_last_drafters_without_a_card_or_a_turn(self):
        state = action_state({0: "wild/bud", 1: "wild/lake", 2: "wild/big"}, players=3)
        state = replace(state, deck=(), discard=("snow/lake", "rock/small"))
        state = submit_all(state)
        state = pick_all(state, *state.pool)
        assert state.phase is Phase.ACTION
        assert len(state.awaiting) == 2
        assert [s.card is None for s in state.seats].count(True) == 1
        state = submit_all(state)
        # Rounds 3 to 5 find no card at all: nobody has a turn and they pass by; the
        # season's cards are then discarded and season 2 drafts from them.
        assert (state.season, state.round, state.phase) == (2, 1, Phase.DRAFT)
        assert len(state.pool) == 4

    def test_the_engine_never_fails_when_the_cards_run_out(self):
        state = action_state({0: "wild/bud", 1: "wild/lake", 2: "wild/big"}, players=3)
        state = replace(state, deck=(), discard=())
        end = play_out(submit_all(state))
        assert end.phase is Phase.OVER
        assert end.outcome is not None

    def test_a_solo_game_survives_an_empty_deck_and_discard(self):
        state = action_state({0: "wild/bud"}, players=1)
        state = replace(state, deck=("snow/lake",), discard=())
        end = play_out(submit_all(state))
        assert end.phase is Phase.OVER
