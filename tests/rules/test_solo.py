"""Solo mode: the A.I. drafter (edition ruling 15) and the title table (ruling 16)."""

from __future__ import annotations

import pytest

from games.evergreen.rules import (
    Phase,
    Pick,
    PowerUse,
    Turn,
    advance,
    apply,
    fertility_values,
    new_game,
)
from games.evergreen.rules.solo import ai_choice
from tests.rules.builders import EDITION, action_state, draft_state, last_round, submit_all, zone

NO_FERTILITY: dict[str, int] = {}


def choice(*pool, fertility=NO_FERTILITY):
    return ai_choice(pool, EDITION, fertility)


class TestTheAiPriorities:
    def test_it_takes_a_wild_card_first(self):
        assert choice("snow/big", "grassland/small", "wild/lake") == "wild/lake"

    def test_of_two_wild_cards_it_takes_the_leftmost(self):
        assert choice("snow/big", "wild/bud", "wild/lake") == "wild/bud"

    def test_without_a_wild_card_it_takes_the_most_fertility_icons(self):
        assert choice("snow/sprout", "flowers/sprout", "rock/lake") == "rock/lake"

    def test_a_fertility_card_comes_before_an_aridity_card(self):
        assert choice("wheat/small", "rock/small", "snow/sprout") == "snow/sprout"

    def test_of_equal_fertility_it_takes_the_leftmost(self):
        assert choice("rock/small", "grassland/bud", "snow/sprout") == "grassland/bud"
        assert choice("wheat/sprout", "snow/big", "rock/small") == "wheat/sprout"

    def test_without_fertility_it_takes_the_aridity_card_of_the_least_fertile_biome(self):
        pool = ("snow/bush", "swamp/lake", "rock/small")
        assert choice(*pool, fertility={"snow": 2, "swamp": 1}) == "swamp/lake"
        assert choice(*pool, fertility={"snow": 1, "swamp": 2}) == "snow/bush"

    def test_an_aridity_card_comes_before_a_blank_card_even_on_its_right(self):
        assert choice("rock/small", "wheat/small", fertility={"wheat": 4}) == "wheat/small"

    def test_of_equally_fertile_biomes_it_takes_the_leftmost_aridity_card(self):
        pool = ("rock/small", "swamp/lake", "snow/bush")
        assert choice(*pool, fertility={"snow": 1, "swamp": 1}) == "swamp/lake"
        assert choice(*pool) == "swamp/lake"

    def test_with_no_wild_fertility_or_aridity_card_it_takes_the_leftmost(self):
        assert choice("rock/small", "snow/lake", "swamp/sprout") == "rock/small"

    def test_it_takes_the_only_card_left(self):
        assert choice("snow/lake") == "snow/lake"


class TestTheAiInTheDraft:
    def test_the_ai_counts_only_visible_fertility_icons(self):
        # Snow shows no icon (its cards are face down), Swamp shows one.
        fertility_zone = zone(
            ("snow", [("snow/big", False), ("snow/sprout", False)]),
            ("swamp", [("swamp/small", True)]),
        )
        state = draft_state(
            1, ("swamp/lake", "snow/bush", "rock/small"), first=1, fertility_zone=fertility_zone
        )
        assert fertility_values(state)["snow"] == 0
        state = advance(state)
        assert state.ai_cards == ("snow/bush",)
        assert state.pool == ("swamp/lake", "rock/small")
        assert state.awaiting == (0,)

    def test_the_ai_picks_second_right_after_the_player(self):
        state = draft_state(1, ("rock/small", "snow/lake", "wild/bud"), first=0)
        state = apply(state, Pick(0, "rock/small"))
        assert state.ai_cards == ("wild/bud",)
        assert state.phase is Phase.ACTION
        assert state.discard[-1] == "snow/lake"

    def test_the_ai_can_take_the_first_player_token(self):
        # The player picks the Wild card; the token goes on rock/big (F1), which the
        # A.I. takes for its Fertility icon: it is first player next round.
        state = draft_state(1, ("wild/bud", "rock/big", "snow/lake"), first=0)
        state = apply(state, Pick(0, "wild/bud"))
        assert state.ai_cards == ("rock/big",)
        assert state.next_first == 1
        state = submit_all(state)
        assert state.first == 1
        assert len(state.ai_cards) == 2  # it has already picked for round 2

    def test_the_player_can_take_the_token_from_the_ai(self):
        state = advance(draft_state(1, ("snow/lake", "wild/bud", "rock/small"), first=1))
        assert state.ai_cards == ("wild/bud",)
        assert state.token_card == "snow/lake"
        state = apply(state, Pick(0, "snow/lake"))
        assert state.next_first == 0
        assert submit_all(state).first == 0

    def test_the_ai_never_gets_a_turn(self):
        state = draft_state(1, ("rock/small", "snow/lake", "wild/bud"), first=0)
        state = apply(state, Pick(0, "rock/small"))
        assert state.awaiting == (0,)
        state = apply(state, Turn(0, "D"))
        assert state.round == 2


def play_solo(seed, pick=lambda state: state.pool[0]):
    """A whole solo game; returns the final state and facts gathered on the way."""
    facts = {
        "ai_picks": [],  # when the player picked first
        "ai_first_picks": [],  # when the A.I. picked first
        "token_taken_by_ai": 0,
        "rounds": 0,
        "season_ends": [],  # (the A.I.'s cards of the season, the state after it)
    }
    state = new_game(1, seed)
    while not state.is_over:
        if state.phase is Phase.DRAFT:
            assert len(state.pool) + state.picks_done == EDITION.solo_pool
            state = apply(state, Pick(0, pick(state)), advance_state=False)
            ai_still_to_pick = state.picks_done < state.drafters and state.pool
            if state.phase is Phase.DRAFT and ai_still_to_pick and state.to_pick == state.ai:
                expected = ai_choice(state.pool, EDITION, fertility_values(state))
                token = state.token_card
                state = advance(state)
                assert state.ai_cards[-1] == expected
                facts["ai_picks"].append(expected)
                if expected == token:
                    assert state.next_first == state.ai
                    facts["token_taken_by_ai"] += 1
            else:
                state = advance(state)
        else:
            ai_cards, season, deck = state.ai_cards, state.season, state.deck
            facts["rounds"] += 1
            state = apply(state, Turn(0, "D"))
            if not state.is_over and state.first == state.ai and len(deck) >= EDITION.solo_pool:
                # The A.I. was first and has already picked from the fresh pool, which
                # was drawn from the top of the deck (the last card first).
                drawn = tuple(reversed(deck[-EDITION.solo_pool :]))
                expected = ai_choice(drawn, EDITION, fertility_values(state))
                assert state.ai_cards[-1] == expected
                assert state.pool == tuple(c for c in drawn if c != expected)
                facts["ai_first_picks"].append(expected)
            if state.season != season and not state.is_over:
                facts["season_ends"].append((ai_cards, state))
    return state, facts


class TestWholeSoloGames:
    @pytest.mark.parametrize("seed", range(6))
    def test_the_ai_follows_its_priorities_in_whole_games(self, seed):
        state, facts = play_solo(seed)
        assert state.phase is Phase.OVER
        assert facts["rounds"] == 14
        assert facts["ai_picks"]

    def test_whole_games_check_the_ai_both_when_it_picks_first_and_second(self):
        games = [play_solo(seed)[1] for seed in range(3)]
        assert all(facts["ai_picks"] for facts in games)
        assert all(facts["ai_first_picks"] for facts in games)

    def test_the_ai_takes_the_token_in_real_games(self):
        taken = sum(play_solo(seed)[1]["token_taken_by_ai"] for seed in range(6))
        assert taken > 0

    def test_the_ais_cards_are_discarded_at_the_end_of_each_season(self):
        _, facts = play_solo(2)
        assert len(facts["season_ends"]) == 3
        for ai_cards, after in facts["season_ends"]:
            # The A.I. took one card per round of the season that ended...
            assert len(ai_cards) == EDITION.season_rounds[after.season - 2]
            # ... and holds at most the card it picked for the new season's first round.
            assert len(after.ai_cards) <= 1
            assert not set(ai_cards) & set(after.ai_cards)
        first_cards, after_first = facts["season_ends"][0]
        assert set(first_cards) <= set(after_first.discard)

    def test_the_ai_holds_one_card_per_round_until_the_season_ends(self):
        state = new_game(1, 5)
        while state.season == 1 and not (state.phase is Phase.ACTION and state.round == 5):
            if state.phase is Phase.DRAFT:
                state = apply(state, Pick(0, state.pool[0]))
            else:
                state = apply(state, Turn(0, "D"))
        assert len(state.ai_cards) == 5
        held = state.ai_cards
        after = apply(state, Turn(0, "D"))
        assert after.season == 2
        assert set(held) <= set(after.discard)

    def test_only_the_player_scores_and_the_outcome_has_a_title(self):
        state, _ = play_solo(3)
        assert len(state.outcome.scores) == 1
        assert state.outcome.ranking == (0,)
        assert state.outcome.winner == 0
        assert state.outcome.title == EDITION.solo_title(state.outcome.scores[0])


class TestRuling16SoloTitles:
    @pytest.mark.parametrize(
        ("score", "title"),
        [
            (0, "Broccoli"),
            (120, "Broccoli"),
            (121, "Bonsai"),
            (135, "Bonsai"),
            (136, "Olive Tree"),
            (150, "Olive Tree"),
            (151, "Holly"),
            (160, "Holly"),
            (161, "Birch"),
            (170, "Birch"),
            (171, "Pine"),
            (180, "Pine"),
            (181, "Oak"),
            (190, "Oak"),
            (191, "Baobab"),
            (200, "Baobab"),
            (201, "Legendary Sequoia"),
            (350, "Legendary Sequoia"),
        ],
    )
    def test_the_title_table_boundaries(self, score, title):
        assert EDITION.solo_title(score) == title

    @pytest.mark.parametrize(
        ("score", "title"), [(120, "Broccoli"), (150, "Olive Tree"), (201, "Legendary Sequoia")]
    )
    def test_the_outcome_of_a_solo_game_carries_the_title_of_the_final_score(self, score, title):
        state = last_round({0: "wild/bud"}, players=1, scores={0: score - 1})
        end = apply(state, Turn(0, "D", (), PowerUse("bud")))
        assert end.outcome.scores == (score,)
        assert end.outcome.title == title

    def test_a_game_with_players_has_no_title(self):
        end = submit_all(action_state({0: "wild/bud", 1: "wild/lake"}, season=4, round=2))
        assert end.outcome.title is None
