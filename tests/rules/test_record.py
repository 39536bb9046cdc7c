"""Game records (export, import, replay) and the engine's ``advance`` step."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.evergreen.rules import InvalidMove, InvalidState, bots
from games.evergreen.rules.engine import advance, apply, needs_advance, new_game
from games.evergreen.rules.moves import Move, Pick, Turn
from games.evergreen.rules.record import RECORD_FORMAT, RECORD_VERSION, GameRecord
from games.evergreen.rules.state import GameState, Phase

NAMES = ("ada", "bo", "cy", "di")


def play(
    players: int, seed: int, *, sun: str = "N", stop_after: int | None = None
) -> tuple[GameRecord, list[GameState]]:
    """A random game as a record plus every state it went through."""
    record = GameRecord(NAMES[:players], seed, sun=sun)
    state = record.start()
    states = [state]
    order = random.Random(seed)
    seats = [bots.RandomBot(seed * 7 + k) for k in range(players)]
    while not state.is_over and (stop_after is None or len(record.moves) < stop_after):
        seat = order.choice(state.awaiting)
        move = seats[seat].choose(state, seat)
        state = apply(state, move)
        record = record.with_move(move)
        states.append(state)
    return record, states


def through_json(record: GameRecord, final: GameState | None = None) -> GameRecord:
    return GameRecord.from_json(json.loads(json.dumps(record.to_json(final))))


class TestExportAndReplay:
    @pytest.mark.parametrize(("players", "seed", "sun"), [(1, 1, "N"), (2, 2, "E"), (4, 3, "W")])
    def test_it_replays_an_exported_record_to_the_identical_final_state(
        self, players: int, seed: int, sun: str
    ) -> None:
        record, states = play(players, seed, sun=sun)
        again = through_json(record, states[-1])
        assert again == record
        assert again.replay() == states[-1]
        assert again.replay().sun == states[-1].sun

    def test_it_replays_an_unfinished_game_to_where_it_stopped(self) -> None:
        record, states = play(3, 4, stop_after=40)
        assert not states[-1].is_over
        assert through_json(record, states[-1]).replay() == states[-1]

    def test_it_yields_one_state_per_move_plus_the_start(self) -> None:
        record, states = play(2, 5)
        replayed = list(record.states())
        assert len(replayed) == len(record.moves) + 1
        assert replayed == states

    def test_it_starts_from_the_state_after_setup(self) -> None:
        record = GameRecord(NAMES[:3], 77, sun="S")
        assert record.start() == new_game(3, 77, sun="S")
        assert list(record.states()) == [record.start()]
        assert record.replay() == record.start()

    def test_it_writes_the_documented_fields(self) -> None:
        record, states = play(2, 6, stop_after=3)
        data = record.to_json(states[-1])
        assert data == {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "edition": "standard-v1",
            "seed": 6,
            "players": ["ada", "bo"],
            "options": {"sun": "N"},
            "moves": [m.to_json() for m in record.moves],
        }

    def test_it_includes_the_result_when_the_game_is_finished(self) -> None:
        record, states = play(3, 8)
        final = states[-1]
        assert final.outcome is not None
        assert record.to_json(final)["result"] == final.outcome.to_json()
        assert "result" not in record.to_json()
        assert "result" not in record.to_json(states[-2])

    def test_it_reads_a_record_without_options_as_a_northern_sun(self) -> None:
        record, _ = play(2, 9, stop_after=4)
        data = record.to_json()
        del data["options"]
        assert GameRecord.from_json(data).sun == "N"


class TestBrokenRecords:
    def test_it_refuses_a_record_with_an_illegal_move(self) -> None:
        record, states = play(2, 10, stop_after=6)
        bad_state = states[3]
        card = next(c for c in record.start().deck if c not in bad_state.pool)
        moves: list[Move] = [*record.moves[:3], Pick(0, card), *record.moves[4:]]
        broken = GameRecord(record.players, record.seed, moves=tuple(moves))
        with pytest.raises(InvalidState) as caught:
            broken.replay()
        assert caught.value.code == "record_illegal_move"
        assert "Move 4" in caught.value.message

    def test_it_yields_the_states_before_the_illegal_move_then_refuses(self) -> None:
        record, states = play(2, 11, stop_after=5)
        broken = record.with_move(Turn(0, "A") if states[-1].phase is Phase.DRAFT else Pick(0, "x"))
        seen = []
        with pytest.raises(InvalidState) as caught:
            for state in broken.states():
                seen.append(state)
        assert caught.value.code == "record_illegal_move"
        assert seen == states

    def test_it_refuses_a_move_after_the_end_of_the_game(self) -> None:
        record, _ = play(1, 12)
        with pytest.raises(InvalidState) as caught:
            record.with_move(Pick(0, "snow/bud")).replay()
        assert caught.value.code == "record_illegal_move"

    @pytest.mark.parametrize(
        "data",
        [None, [], "evergreen-record", {}, {"format": "chess-pgn", "version": 1}],
        ids=["null", "list", "text", "empty", "other-format"],
    )
    def test_it_refuses_what_is_not_a_record(self, data: Any) -> None:
        with pytest.raises(InvalidState) as caught:
            GameRecord.from_json(data)
        assert caught.value.code == "not_a_record"

    @pytest.mark.parametrize("version", [None, 0, 2, "1"])
    def test_it_refuses_an_unknown_version(self, version: Any) -> None:
        data = play(2, 13, stop_after=2)[0].to_json()
        data["version"] = version
        if version is None:
            del data["version"]
        with pytest.raises(InvalidState) as caught:
            GameRecord.from_json(data)
        assert caught.value.code == "bad_record"

    @pytest.mark.parametrize(
        ("key", "value"),
        [
            ("players", ...),
            ("moves", ...),
            ("edition", ...),
            ("seed", ...),
            ("seed", "13"),
            ("seed", True),
            ("seed", 1.5),
            ("players", None),
            ("moves", None),
            ("moves", {"0": {"type": "pick"}}),
            ("players", []),
            ("players", ["a", "b", "c", "d", "e"]),
            ("options", {"sun": "X"}),
            ("options", "N"),
        ],
    )
    def test_it_refuses_an_incomplete_record(self, key: str, value: Any) -> None:
        data = play(2, 13, stop_after=2)[0].to_json()
        if value is ...:
            del data[key]
        else:
            data[key] = value
        with pytest.raises(InvalidState) as caught:
            GameRecord.from_json(data)
        assert caught.value.code == "bad_record"

    def test_it_refuses_a_malformed_move_in_a_record(self) -> None:
        data = play(2, 14, stop_after=2)[0].to_json()
        data["moves"].append({"type": "pass", "seat": 0})
        with pytest.raises(InvalidMove) as caught:
            GameRecord.from_json(data)
        assert caught.value.code == "bad_move"


class TestAdvance:
    @pytest.mark.parametrize("players", [1, 2, 4])
    def test_it_leaves_the_last_turn_of_a_round_unresolved_until_advanced(
        self, players: int
    ) -> None:
        _, states = play(players, 20 + players)
        checked = 0
        for state in states:
            if state.phase is not Phase.ACTION or len(state.awaiting) != 1:
                continue
            seat = state.awaiting[0]
            move = bots.RandomBot(checked).choose(state, seat)
            waiting = apply(state, move, advance_state=False)
            assert needs_advance(waiting)
            assert waiting.phase is Phase.ACTION and not waiting.awaiting
            assert waiting.seats[seat].turn == move
            assert advance(waiting) == apply(state, move)
            checked += 1
        assert checked == 14

    @pytest.mark.parametrize("players", [1, 3])
    def test_it_leaves_the_end_of_the_draft_to_advance(self, players: int) -> None:
        _, states = play(players, 30 + players)
        checked = 0
        for state in states:
            if state.phase is not Phase.DRAFT:
                continue
            seat = state.awaiting[0]
            move = bots.RandomBot(checked).choose(state, seat)
            waiting = apply(state, move, advance_state=False)
            finished = apply(state, move)
            assert advance(waiting) == finished
            assert needs_advance(waiting) is (waiting != finished)
            checked += 1
        assert checked == 14 * players

    def test_it_needs_no_advance_in_the_middle_of_a_round(self) -> None:
        _, states = play(3, 40, stop_after=1)
        state = states[-1]
        assert state.phase is Phase.DRAFT
        seat = state.awaiting[0]
        move = bots.RandomBot(0).choose(state, seat)
        waiting = apply(state, move, advance_state=False)
        assert not needs_advance(waiting)
        assert waiting == apply(state, move)

    @pytest.mark.parametrize("players", [1, 2, 3, 4])
    def test_it_returns_an_equal_state_when_advancing_a_settled_state(self, players: int) -> None:
        _, states = play(players, 50 + players)
        for state in states:
            assert not needs_advance(state)
            assert advance(state) == state
        assert states[-1].is_over
