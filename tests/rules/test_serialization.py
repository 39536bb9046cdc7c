"""The JSON forms of states and moves: lossless round trips and loud refusals."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.evergreen.rules import InvalidMove, InvalidState, RulesError, bots
from games.evergreen.rules.edition import POWERS, load_edition
from games.evergreen.rules.engine import apply, new_game
from games.evergreen.rules.moves import (
    Effect,
    LakePlacement,
    Move,
    Pick,
    PowerUse,
    Turn,
    move_from_json,
    move_to_json,
)
from games.evergreen.rules.pieces import SMALL, SPROUT
from games.evergreen.rules.state import GameState, Phase, state_from_json, state_to_json


def game_states(players: int, seed: int, bot_seed: int = 0) -> Iterator[GameState]:
    """Every state of a random game, turns submitted one seat at a time in a random order."""
    state = new_game(players, seed)
    order = random.Random(bot_seed)
    seats = [bots.RandomBot(bot_seed + k) for k in range(players)]
    yield state
    while not state.is_over:
        seat = order.choice(state.awaiting)
        state = apply(state, seats[seat].choose(state, seat))
        yield state


def through_json(state: GameState) -> GameState:
    return state_from_json(json.loads(json.dumps(state_to_json(state))))


def sample_state() -> GameState:
    """A 3-player state in the Action phase with one turn submitted and not revealed."""
    for state in game_states(3, 11, 5):
        if state.phase is Phase.ACTION and state.submitted:
            return state
    raise AssertionError("no such state")


class TestStateRoundTrip:
    @pytest.mark.parametrize("players", [1, 2, 3, 4])
    def test_it_reads_back_every_state_of_a_whole_game(self, players: int) -> None:
        kinds = set()
        for state in game_states(players, seed=100 + players, bot_seed=players):
            assert through_json(state) == state
            pending = any(seat.turn is not None for seat in state.seats)
            kinds.add((state.phase, pending))
        if players > 1:  # mid-action phase, turns not yet revealed
            assert (Phase.ACTION, True) in kinds
        assert (Phase.ACTION, False) in kinds
        assert (Phase.DRAFT, False) in kinds
        assert (Phase.OVER, False) in kinds

    @pytest.mark.parametrize("players", [1, 3])
    def test_it_reads_back_a_state_left_unadvanced_with_every_turn_pending(
        self, players: int
    ) -> None:
        checked = 0
        for state in game_states(players, seed=60 + players):
            if state.phase is Phase.ACTION and len(state.awaiting) == 1:
                seat = state.awaiting[0]
                move = bots.RandomBot(seat).choose(state, seat)
                waiting = apply(state, move, advance_state=False)
                assert all(s.turn is not None for s in waiting.seats)
                assert through_json(waiting) == waiting
                checked += 1
        assert checked == 14  # one per round

    def test_it_reads_back_a_finished_game_with_its_outcome(self) -> None:
        *_, final = game_states(2, 7)
        again = through_json(final)
        assert again.outcome is not None
        assert again.outcome == final.outcome
        assert again == final

    def test_it_reads_back_a_solo_game_with_the_ai_cards_and_title(self) -> None:
        states = list(game_states(1, 3))
        assert any(state.ai_cards for state in states)
        for state in states:
            assert through_json(state) == state
        assert states[-1].outcome is not None and states[-1].outcome.title

    def test_it_plays_on_from_a_read_back_state_exactly_as_from_the_original(self) -> None:
        state = sample_state()
        copy = through_json(state)
        seat = state.awaiting[0]
        move = bots.RandomBot(9).choose(state, seat)
        assert apply(copy, move) == apply(state, move)

    def test_it_keeps_a_pending_turn_with_every_power_kind(self) -> None:
        state = sample_state()
        (seat,) = state.submitted
        turns = [
            Turn(seat, "A", (Effect("plant", (1, 1)),), PowerUse("sprout", "before", ((0, 1),))),
            Turn(seat, "B", (), PowerUse("bud", "after", ())),
            Turn(
                seat,
                "C",
                (Effect("plant", (2, 0)), Effect("grow", (2, 1))),
                PowerUse("lake", "after", (LakePlacement((3, 3), ((2, 3), (3, 4))),)),
            ),
        ]
        for turn in turns:
            seats = list(state.seats)
            seats[seat] = replace(seats[seat], turn=turn)
            changed = replace(state, seats=tuple(seats))
            assert through_json(changed) == changed

    def test_it_stores_the_generator_state_as_text_so_no_64_bit_number_is_rounded(self) -> None:
        state = new_game(2, 1)
        data = state_to_json(state)
        assert isinstance(data["rng"], str)
        assert int(data["rng"]) == state.rng
        assert through_json(state).rng == state.rng


def _broken(change: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(state_to_json(sample_state())))
    change(data)
    return data


def _drop(key: str) -> Any:
    return lambda data: data.pop(key)


def _set(key: str, value: Any) -> Any:
    return lambda data: data.__setitem__(key, value)


def _set_seat(key: str, value: Any) -> Any:
    return lambda data: data["seats"][0].__setitem__(key, value)


class TestMalformedState:
    @pytest.mark.parametrize(
        "change",
        [
            pytest.param(_drop("format"), id="no-format"),
            pytest.param(_set("format", 2), id="future-format"),
            pytest.param(_drop("seats"), id="no-seats"),
            pytest.param(_drop("deck"), id="no-deck"),
            pytest.param(_drop("outcome"), id="no-outcome-key"),
            pytest.param(_set("phase", "lunch"), id="unknown-phase"),
            pytest.param(_set("rng", "not a number"), id="bad-rng"),
            pytest.param(_set("supply", [20]), id="short-supply"),
            pytest.param(_set("supply", 20), id="supply-not-a-list"),
            pytest.param(_set("seats", None), id="seats-null"),
            pytest.param(_set("seats", [7]), id="seat-not-an-object"),
            pytest.param(_set("fertility_zone", [[["snow/big"]]]), id="zone-entry-too-short"),
            pytest.param(_set("outcome", {"scores": [1]}), id="outcome-incomplete"),
            pytest.param(_set_seat("board", None), id="board-null"),
            pytest.param(_set_seat("score", "many"), id="score-not-a-number"),
            pytest.param(_set_seat("turn", {"type": "dance"}), id="pending-move-unreadable"),
            pytest.param(
                _set_seat("turn", {"type": "pick", "seat": 0, "card": "snow/bud"}),
                id="pending-move-a-pick",
            ),
        ],
    )
    def test_it_refuses_a_malformed_state_with_invalid_state(self, change: Any) -> None:
        with pytest.raises(InvalidState) as caught:
            state_from_json(_broken(change))
        assert caught.value.code == "invalid_state"
        assert caught.value.message

    @pytest.mark.parametrize("data", [None, [], "state", 42], ids=["null", "list", "text", "int"])
    def test_it_refuses_something_that_is_not_an_object_with_invalid_state(self, data: Any) -> None:
        with pytest.raises(InvalidState):
            state_from_json(data)


# --- moves ----------------------------------------------------------------------------

SEAT = 1
ROUND_TRIP_MOVES: list[Move] = [
    Pick(0, "snow/sprout"),
    Pick(3, "wild/lake"),
    Turn(SEAT, "A"),
    Turn(SEAT, "A", (Effect("plant", (0, 1)), Effect("plant", (0, 2)), Effect("plant", (1, 0)))),
    Turn(SEAT, "B", (Effect("grow", (2, 3)), Effect("grow", (3, 3)))),
    Turn(SEAT, "C", (Effect("plant", (5, 5)), Effect("grow", (4, 4))), None),
    Turn(SEAT, "D", (Effect("grow", (6, 1)),), PowerUse("sprout", "before", ((0, 1), (1, 1)))),
    Turn(SEAT, "D", (), PowerUse("small", "after", ((2, 2),))),
    Turn(SEAT, "B", (), PowerUse("big", "before", ((2, 2), (3, 3), (4, 4)))),
    Turn(SEAT, "A", (), PowerUse("bush", "after", ((5, 0),))),
    Turn(SEAT, "C", (), PowerUse("lake", "after", (LakePlacement((3, 3)),))),
    Turn(SEAT, "C", (), PowerUse("lake", "before", (LakePlacement((3, 3), ((2, 3),)),))),
    Turn(
        SEAT,
        "A",
        (Effect("plant", (1, 0)),),
        PowerUse(
            "lake",
            "after",
            (LakePlacement((3, 3), ((2, 3), (3, 4))), LakePlacement((5, 5), ((5, 6), (4, 5)))),
        ),
    ),
    Turn(SEAT, "D", (Effect("plant", (0, 1)),), PowerUse("bud", "before", ())),
    Turn(SEAT, "B", (), PowerUse("bud", "after", ())),
]


class TestMoveRoundTrip:
    @pytest.mark.parametrize("move", ROUND_TRIP_MOVES, ids=lambda m: json.dumps(m.to_json()))
    def test_it_reads_back_a_move_from_its_json(self, move: Move) -> None:
        assert move_from_json(move.to_json()) == move
        assert move_from_json(json.loads(json.dumps(move_to_json(move)))) == move

    def test_it_covers_every_power_in_the_round_trip_list(self) -> None:
        used = {m.power.power for m in ROUND_TRIP_MOVES if isinstance(m, Turn) and m.power}
        assert used == set(POWERS)

    def test_it_gives_equal_moves_equal_hashes(self) -> None:
        for move in ROUND_TRIP_MOVES:
            assert hash(move_from_json(move.to_json())) == hash(move)

    def test_it_defaults_a_missing_timing_to_after_and_missing_lists_to_empty(self) -> None:
        move = move_from_json({"type": "turn", "seat": 0, "action": "B", "power": {"power": "bud"}})
        assert move == Turn(0, "B", (), PowerUse("bud", "after", ()))
        lake = move_from_json(
            {
                "type": "turn",
                "seat": 0,
                "action": "A",
                "power": {"power": "lake", "targets": [{"lake": [3, 3]}]},
            }
        )
        assert isinstance(lake, Turn) and lake.power is not None
        assert lake.power.targets == (LakePlacement((3, 3), ()),)

    @settings(derandomize=True, database=None, deadline=None, max_examples=200)
    @given(st.data())
    def test_it_reads_back_any_well_formed_move(self, data: st.DataObject) -> None:
        spaces = st.tuples(st.integers(-3, 9), st.integers(-3, 9))
        if data.draw(st.booleans()):
            move: Move = Pick(data.draw(st.integers(-2, 6)), data.draw(st.text(max_size=12)))
        else:
            effects = data.draw(
                st.lists(st.builds(Effect, st.sampled_from(("plant", "grow")), spaces), max_size=4)
            )
            power = None
            name = data.draw(st.sampled_from((None, *POWERS)))
            if name == "lake":
                lakes = st.builds(LakePlacement, spaces, st.lists(spaces, max_size=3).map(tuple))
                targets = tuple(data.draw(st.lists(lakes, max_size=3)))
            else:
                targets = tuple(data.draw(st.lists(spaces, max_size=3)))
            if name is not None:
                power = PowerUse(name, data.draw(st.sampled_from(("before", "after"))), targets)
            action = data.draw(st.sampled_from("ABCD"))
            move = Turn(data.draw(st.integers(-2, 6)), action, tuple(effects), power)
        assert move_from_json(json.loads(json.dumps(move.to_json()))) == move


class TestRecordability:
    def test_it_refuses_to_apply_an_effect_kind_that_no_record_could_store(self) -> None:
        # A Turn built in Python (by a bot, the CLI) must not smuggle in an effect that
        # move_from_json would refuse: the game could then never be replayed.
        for state in game_states(2, 21, 3):
            if state.phase is not Phase.ACTION or not state.awaiting:
                continue
            seat = state.awaiting[0]
            growable = [
                i for i, piece in enumerate(state.seats[seat].board) if piece in (SPROUT, SMALL)
            ]
            if growable:
                break
        else:
            raise AssertionError("no seat with a Sprout or Small Tree")
        space = load_edition().planet.space(growable[0])
        turn = Turn(seat, "D", (Effect("chop", space),))
        with pytest.raises(InvalidMove):
            move_from_json(turn.to_json())
        with pytest.raises(RulesError):
            apply(state, turn)


TURN = {"type": "turn", "seat": 0, "action": "C", "effects": [{"plant": [2, 3]}], "power": None}


def turn_with(**changes: Any) -> dict[str, Any]:
    data = {**TURN, **changes}
    return {k: v for k, v in data.items() if v is not ...}


class TestMalformedMove:
    @pytest.mark.parametrize(
        ("data", "code"),
        [
            pytest.param("pick snow/sprout", "bad_move", id="not-an-object"),
            pytest.param(None, "bad_move", id="null"),
            pytest.param({"seat": 0, "card": "snow/bud"}, "bad_move", id="no-type"),
            pytest.param({"type": "pass", "seat": 0}, "bad_move", id="unknown-type"),
            pytest.param({"type": "pick", "card": "snow/bud"}, "bad_seat", id="pick-no-seat"),
            pytest.param({"type": "pick", "seat": True, "card": "x"}, "bad_seat", id="bool-seat"),
            pytest.param({"type": "pick", "seat": "0", "card": "x"}, "bad_seat", id="text-seat"),
            pytest.param({"type": "pick", "seat": 1.0, "card": "x"}, "bad_seat", id="float-seat"),
            pytest.param({"type": "pick", "seat": 0}, "bad_card", id="pick-no-card"),
            pytest.param({"type": "pick", "seat": 0, "card": 3}, "bad_card", id="card-not-text"),
            pytest.param(turn_with(seat=...), "bad_seat", id="turn-no-seat"),
            pytest.param(turn_with(seat=False), "bad_seat", id="turn-bool-seat"),
            pytest.param(turn_with(action=...), "unknown_action", id="no-action"),
            pytest.param(turn_with(action="E"), "unknown_action", id="action-e"),
            pytest.param(turn_with(action="a"), "unknown_action", id="action-lowercase"),
            pytest.param(turn_with(effects={"plant": [2, 3]}), "bad_effect", id="effects-object"),
            pytest.param(turn_with(effects=[["plant", 2, 3]]), "bad_effect", id="effect-list"),
            pytest.param(
                turn_with(effects=[{"plant": [2, 3], "grow": [2, 4]}]),
                "bad_effect",
                id="effect-two-keys",
            ),
            pytest.param(turn_with(effects=[{"chop": [2, 3]}]), "bad_effect", id="unknown-effect"),
            pytest.param(turn_with(effects=[{"plant": [2]}]), "bad_space", id="space-short"),
            pytest.param(turn_with(effects=[{"plant": [2, 3, 4]}]), "bad_space", id="space-long"),
            pytest.param(turn_with(effects=[{"plant": "2,3"}]), "bad_space", id="space-text"),
            pytest.param(turn_with(effects=[{"plant": [2, "3"]}]), "bad_space", id="space-str"),
            pytest.param(turn_with(effects=[{"plant": [2.0, 3]}]), "bad_space", id="space-float"),
            pytest.param(turn_with(effects=[{"plant": [True, 3]}]), "bad_space", id="space-bool"),
            pytest.param(turn_with(effects=[{"grow": None}]), "bad_space", id="space-null"),
            pytest.param(turn_with(power="bud"), "bad_power", id="power-not-an-object"),
            pytest.param(turn_with(power={"timing": "after"}), "bad_power", id="power-missing"),
            pytest.param(turn_with(power={"power": "fly"}), "bad_power", id="unknown-power"),
            pytest.param(
                turn_with(power={"power": "bud", "timing": "during"}), "bad_timing", id="timing"
            ),
            pytest.param(
                turn_with(power={"power": "bud", "timing": None}), "bad_timing", id="timing-null"
            ),
            pytest.param(
                turn_with(power={"power": "sprout", "targets": [1, 1]}),
                "bad_space",
                id="target-not-a-space",
            ),
            pytest.param(
                turn_with(power={"power": "sprout", "targets": {"a": [1, 1]}}),
                "bad_power",
                id="targets-not-a-list",
            ),
            pytest.param(
                turn_with(power={"power": "lake", "targets": [[3, 3]]}),
                "bad_power",
                id="lake-target-not-an-object",
            ),
            pytest.param(
                turn_with(power={"power": "lake", "targets": [{"grow": [[3, 4]]}]}),
                "bad_power",
                id="lake-target-without-lake",
            ),
            pytest.param(
                turn_with(power={"power": "lake", "targets": [{"lake": [3, 3], "grow": [3, 4]}]}),
                "bad_space",
                id="lake-grow-flat",
            ),
            pytest.param(
                turn_with(power={"power": "lake", "targets": [{"lake": [3, 3], "grow": "3,4"}]}),
                "bad_power",
                id="lake-grow-not-a-list",
            ),
            pytest.param(
                turn_with(power={"power": "lake", "targets": [{"lake": "c3"}]}),
                "bad_space",
                id="lake-space-text",
            ),
        ],
    )
    def test_it_refuses_a_malformed_move_with_invalid_move_and_a_code(
        self, data: Any, code: str
    ) -> None:
        with pytest.raises(InvalidMove) as caught:
            move_from_json(data)
        assert caught.value.code == code
        assert caught.value.message
        assert caught.value.as_dict() == {"code": code, "message": caught.value.message}

    def test_it_names_the_bad_value_in_the_message(self) -> None:
        with pytest.raises(InvalidMove) as caught:
            move_from_json(turn_with(effects=[{"plant": [2, "x"]}]))
        assert "'x'" in caught.value.message
        with pytest.raises(InvalidMove) as caught:
            move_from_json(turn_with(power={"power": "fly"}))
        assert "'fly'" in caught.value.message
