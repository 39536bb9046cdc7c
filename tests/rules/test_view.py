"""``player_view``: what each seat (or a spectator) may see, and nothing more."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.evergreen.rules import bots
from games.evergreen.rules.edition import load_edition
from games.evergreen.rules.engine import apply, new_game
from games.evergreen.rules.moves import Effect, LakePlacement, Pick, PowerUse, Turn
from games.evergreen.rules.pieces import EMPTY
from games.evergreen.rules.state import GameState, Phase
from games.evergreen.rules.view import player_view

ED = load_edition()
PLANET = ED.planet


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value).union(*(keys_of(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_of(v) for v in value))
    return set()


def power_of(state: GameState, seat: int) -> str | None:
    card = state.seats[seat].card
    return None if card is None else ED.cards[card].power


def action_phase_where_seat_0_holds(power: str, players: int = 3) -> GameState:
    """The start of an Action phase in which seat 0 holds a card with ``power``.

    Seat 0 prefers cards with that Power in the Draft, the others avoid them; turns are
    empty Actions so that the search is quick and deterministic.
    """
    for seed in range(200):
        state = new_game(players, seed)
        while not state.is_over:
            if state.phase is Phase.DRAFT:
                seat = state.awaiting[0]
                wanted = [c for c in state.pool if (ED.cards[c].power == power) is (seat == 0)]
                state = apply(state, Pick(seat, (wanted or list(state.pool))[0]))
            elif power_of(state, 0) == power:
                return state
            else:
                state = apply(state, Turn(state.awaiting[0], "A"))
    raise AssertionError(f"no game gives seat 0 a {power} card")


def first_empty(state: GameState, seat: int, skip: int = 0) -> tuple[int, int]:
    empty = [i for i in PLANET.playable if state.seats[seat].board[i] == EMPTY]
    return PLANET.space(empty[skip])


def viewers(state: GameState) -> list[int | None]:
    return [*range(len(state.seats)), None]


def submit_all(state: GameState) -> GameState:
    """Every awaiting seat plants one Sprout anywhere (Action D)."""
    while state.phase is Phase.ACTION and state.awaiting:
        seat = state.awaiting[0]
        state = apply(state, Turn(seat, "D", (Effect("plant", first_empty(state, seat)),)))
    return state


class TestSecrets:
    def test_it_never_shows_the_deck_the_generator_or_the_seed(self) -> None:
        state = new_game(4, seed=987654321)
        for viewer in viewers(state):
            view = player_view(state, viewer)
            text = json.dumps(view)
            assert not {"deck", "rng", "seed"} & keys_of(view)
            assert "987654321" not in text
            assert str(state.rng) not in text
            assert json.dumps(list(state.deck))[1:-1] not in text
            assert view["deck_count"] == len(state.deck)

    def test_it_names_no_card_of_the_deck_at_all(self) -> None:
        state = new_game(2, seed=5)
        for viewer in viewers(state):
            text = json.dumps(player_view(state, viewer))
            for card in state.deck:
                assert json.dumps(card) not in text

    def test_it_shows_a_pending_turn_to_its_owner_only(self) -> None:
        state = action_phase_where_seat_0_holds("sprout")
        turn = Turn(0, "D", (Effect("plant", first_empty(state, 0)),))
        state = apply(state, turn)
        assert player_view(state, 0)["seats"][0]["turn"] == turn.to_json()
        for viewer in (1, 2, None):
            view = player_view(state, viewer)
            assert view["seats"][0]["turn"] is None
            assert '"plant"' not in json.dumps(view)

    def test_it_shows_everyone_who_has_submitted(self) -> None:
        state = action_phase_where_seat_0_holds("sprout")
        state = apply(state, Turn(0, "A"))
        for viewer in viewers(state):
            view = player_view(state, viewer)
            assert [s["submitted"] for s in view["seats"]] == [True, False, False]
            assert view["awaiting"] == [1, 2]

    def test_it_shows_the_boards_unchanged_until_the_round_is_revealed(self) -> None:
        state = action_phase_where_seat_0_holds("sprout")
        before = {v: player_view(state, v)["seats"][0]["board"] for v in viewers(state)}
        state = apply(state, Turn(0, "D", (Effect("plant", first_empty(state, 0)),)))
        for viewer in viewers(state):
            assert player_view(state, viewer)["seats"][0]["board"] == before[viewer]

    @pytest.mark.parametrize("power", ["bush", "lake"])
    def test_everyone_sees_the_supply_shrink_before_the_turn_is_revealed(self, power: str) -> None:
        """The count left in the shared supply is public at every moment (the edition)."""
        state = action_phase_where_seat_0_holds(power)
        bushes, lakes = state.supply
        target: Any = first_empty(state, 0)
        if power == "lake":
            target = LakePlacement(target)
        state = apply(state, Turn(0, "A", (), PowerUse(power, "after", (target,))))
        taken = {"bush": (1, 0), "lake": (0, 1)}[power]
        assert state.supply == (bushes - taken[0], lakes - taken[1])
        for viewer in viewers(state):
            assert player_view(state, viewer)["supply"] == {
                "bush": state.supply[0],
                "lake": state.supply[1],
            }
            assert player_view(state, viewer)["supply"] != {"bush": bushes, "lake": lakes}
        state = submit_all(state)
        for viewer in viewers(state):
            assert player_view(state, viewer)["supply"] == {
                "bush": bushes - taken[0],
                "lake": lakes - taken[1],
            }

    def test_it_shows_bud_points_only_once_the_round_is_revealed(self) -> None:
        state = action_phase_where_seat_0_holds("bud")
        score = state.seats[0].score
        bud_so_far = state.seats[0].seasons[-1].bud
        state = apply(state, Turn(0, "A", (), PowerUse("bud", "after", ())))
        for viewer in viewers(state):
            seat = player_view(state, viewer)["seats"][0]
            assert seat["score"] == score
            assert seat["seasons"][-1]["bud"] == bud_so_far
            assert seat["powers"]["bud"] == state.seats[0].powers[5]
        level = ED.power_value("bud", state.seats[0].powers[5] + 1)
        season = state.season
        state = submit_all(state)
        assert state.season == season  # the season goes on: no season scoring in between
        for viewer in viewers(state):
            seat = player_view(state, viewer)["seats"][0]
            assert seat["seasons"][season - 1]["bud"] == bud_so_far + level
            assert seat["score"] == score + level


class TestAfterTheReveal:
    def test_it_shows_every_seat_every_board_once_the_round_resolves(self) -> None:
        state = action_phase_where_seat_0_holds("sprout")
        planted = {seat: first_empty(state, seat) for seat in range(3)}
        state = submit_all(state)
        assert state.phase is Phase.DRAFT and not state.submitted
        for viewer in viewers(state):
            view = player_view(state, viewer)
            for seat, (row, col) in planted.items():
                assert view["seats"][seat]["board"][f"{row},{col}"] == "sprout"
                assert view["seats"][seat]["turn"] is None
                assert view["seats"][seat]["submitted"] is False

    def test_it_shows_the_whole_outcome_to_everyone_when_the_game_is_over(self) -> None:
        state = new_game(2, 4)
        final, _ = bots.play_game(state, [bots.RandomBot(1), bots.RandomBot(2)])
        assert final.outcome is not None
        for viewer in viewers(final):
            view = player_view(final, viewer)
            assert view["phase"] == "over"
            assert view["outcome"] == final.outcome.to_json()
            assert [s["score"] for s in view["seats"]] == list(final.outcome.scores)
            assert view["next_sun"] is None


class TestViewers:
    def test_it_gives_a_spectator_no_seat_and_no_pending_turn(self) -> None:
        state = action_phase_where_seat_0_holds("bush")
        state = apply(state, Turn(0, "A", (), PowerUse("bush", "after", (first_empty(state, 0),))))
        state = apply(state, Turn(1, "A"))
        view = player_view(state, None)
        assert view["viewer"] is None
        assert all(seat["turn"] is None for seat in view["seats"])
        assert view["supply"]["bush"] == state.supply[0]  # public, pending turn or not

    def test_it_names_the_viewer(self) -> None:
        state = new_game(3, 1)
        assert [player_view(state, v)["viewer"] for v in viewers(state)] == [0, 1, 2, None]

    @pytest.mark.parametrize(("players", "seat"), [(2, 2), (2, -1), (4, 4), (1, 1), (3, 99)])
    def test_it_refuses_a_seat_that_is_not_in_the_game(self, players: int, seat: int) -> None:
        with pytest.raises(ValueError):
            player_view(new_game(players, 1), seat)

    def test_it_shows_a_solo_player_the_cards_the_ai_took(self) -> None:
        state = new_game(1, 8)
        while not state.ai_cards:
            state = apply(state, bots.RandomBot(0).choose(state, 0))
        view = player_view(state, 0)
        assert view["solo"] is True
        assert view["ai_cards"] == list(state.ai_cards)
        assert len(view["seats"]) == 1

    def test_it_is_plain_json_for_every_viewer_at_every_step(self) -> None:
        state = new_game(2, 12)
        players = [bots.RandomBot(3), bots.RandomBot(4)]
        while not state.is_over:
            for viewer in viewers(state):
                view = player_view(state, viewer)
                assert json.loads(json.dumps(view)) == view
            seat = state.awaiting[-1]
            state = apply(state, players[seat].choose(state, seat))
