"""Every refusal code of the engine: a readable message, and the state unchanged."""

from __future__ import annotations

import ast
from dataclasses import replace
from pathlib import Path

import pytest

from games.verdant.rules import (
    InvalidMove,
    Start,
    Step,
    Turn,
    Wipe,
    apply,
    move_from_json,
    new_game,
)
from games.verdant.rules.bots import RandomBot, play_game
from tests.verdant.verdant_builders import (
    assert_refused,
    assert_sentence,
    place,
    started,
    thumb,
    turn,
    use,
    with_home,
    with_market,
    with_thumbs,
)

RULES = Path(__file__).resolve().parents[2] / "games" / "verdant" / "rules"
HOME = {(0, 0): "R102", (0, 1): "P100", (1, 0): "P101"}


def playing(thumbs=0, token="cat", **home):
    state = started(2, seed=12)
    seat = state.to_play
    state = with_thumbs(with_home(state, seat, HOME, **home), seat, thumbs)
    return with_market(state, 0, token=token, room="R103", plant="P103"), seat


def case_game_over():
    final, _ = play_game(started(1, seed=1), [RandomBot(1)])
    return final, turn(0, "room", 0, (0, 2))


def case_unknown_seat():
    state, _ = playing()
    return state, turn(7, "room", 0, (-1, 1))


def case_wrong_phase():
    return new_game(2, seed=1), Wipe(0, (0,))


def case_start_already_chosen():
    state = apply(new_game(2, seed=1), Start(1, "top"))
    return state, Start(1, "left")


def case_not_your_turn():
    state, seat = playing()
    return state, turn(1 - seat, "room", 0, (-1, 1))


def case_not_in_family():
    state = started(2, seed=1, variant="family")
    return with_thumbs(state, state.to_play, 2), Wipe(state.to_play, (0,))


def case_not_enough_thumbs():
    state, seat = playing(thumbs=1)
    return state, turn(seat, "room", 0, (-1, 1), thumb((0, 1)))


def case_bad_wipe():
    state, seat = playing(thumbs=2)
    return state, Wipe(seat, (0, 1, 2, 3, 0))


def case_empty_slot():
    state, seat = playing()
    return replace(state, market_rooms=(None, *state.market_rooms[1:])), turn(
        seat, "room", 0, (-1, 1)
    )


def case_no_such_column():
    state, seat = playing()
    return state, turn(seat, "room", 4, (-1, 1))


def case_different_columns():
    state, seat = playing()
    return state, turn(seat, "room", 0, (-1, 1), token=1)


def case_outside_home():
    state, seat = playing()
    return state, turn(seat, "room", 0, (3, 1))


def case_cell_taken():
    state, seat = playing()
    return state, turn(seat, "room", 0, (0, 0))


def case_not_adjacent():
    state, seat = playing()
    return state, turn(seat, "room", 0, (-2, 2))


def case_same_kind_adjacent():
    state, seat = playing()
    return state, turn(seat, "plant", 0, (-1, 1))


def case_not_a_plant():
    state, seat = playing(token="fertilizer")
    return state, turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 0)))


def case_plant_completed():
    state, seat = playing(token="fertilizer", completed={(0, 1): "wood"})
    return state, turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 1)))


def case_not_a_room():
    state, seat = playing()
    return state, turn(seat, "room", 0, (-1, 1), place("cat", (0, 1)))


def case_room_occupied():
    state, seat = playing(items={(0, 0): "dog"})
    return state, turn(seat, "room", 0, (-1, 1), place("cat", (0, 0)))


def case_bad_targets():
    state, seat = playing(token="fertilizer")
    return state, turn(seat, "room", 0, (-1, 1), use("fertilizer", (0, 1), (1, 0)))


def case_unknown_item():
    state, seat = playing()
    return state, turn(seat, "room", 0, (-1, 1), place("unicorn", (0, 0)))


def case_wrong_item_use():
    state, seat = playing()
    return state, turn(seat, "room", 0, (-1, 1), use("cat", (0, 1)))


def case_item_not_available():
    state, seat = playing()
    return state, turn(seat, "room", 0, (-1, 1), place("dog", (0, 0)))


def case_bad_move():
    state, _ = playing()
    return state, Step("place", "cat", ((0, 0),))


CASES = {
    name.removeprefix("case_"): fn for name, fn in globals().items() if name.startswith("case_")
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_refusal_has_its_code_a_sentence_and_changes_nothing(code):
    state, move = CASES[code]()
    assert_refused(state, move, code)


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (Start(0, "up"), "bad_side"),
        (Turn(0, "pot", 0, 0, (0, 1)), "bad_take"),
        (Turn(0, "room", 0, 0, (0, 1), steps=(Step("dance", None, ()),)), "bad_step"),
    ],
)
def test_a_move_built_in_code_with_unknown_names_is_refused(move, code):
    state, _ = playing()
    with pytest.raises(InvalidMove) as caught:
        apply(state, move)
    assert caught.value.code == code


def engine_codes() -> set[str]:
    """Every code a move can be refused with: ``IllegalMove(message, code, ...)`` calls, and
    the placement codes ``home.py`` returns as ``(code, message)``."""
    found: set[str] = set()
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMove":
                code = node.args[1]
                if isinstance(code, ast.Constant):  # else a placement code, returned below
                    found.add(code.value)
            if (
                path.name == "home.py"
                and isinstance(node, ast.Return)
                and isinstance(node.value, ast.Tuple)
                and len(node.value.elts) == 2
                and isinstance(node.value.elts[0], ast.Constant)
            ):
                found.add(node.value.elts[0].value)
    return found


def test_every_refusal_code_of_the_engine_has_a_case_here():
    codes = engine_codes()
    assert len(codes) >= 20
    assert codes == set(CASES) - {"bad_move"}


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "bad_move"),
        ({"type": "dance", "seat": 0}, "bad_move"),
        ({"type": "start", "seat": "0", "side": "top"}, "bad_seat"),
        ({"type": "start", "seat": 0, "side": "up"}, "bad_side"),
        ({"type": "wipe", "seat": 0, "columns": 1}, "bad_columns"),
        ({"type": "wipe", "seat": 0, "columns": [True]}, "bad_columns"),
        ({"type": "turn", "seat": 0, "take": "pot"}, "bad_take"),
        ({"type": "turn", "seat": 0, "take": "room", "column": 0, "token": 0, "at": [0]}, "bad_cell"),
        (
            {"type": "turn", "seat": 0, "take": "room", "column": 0, "token": 0, "at": [0, 1],
             "steps": [{"step": "dance"}]},
            "bad_step",
        ),
        (
            {"type": "turn", "seat": 0, "take": "room", "column": 0, "token": 0, "at": [0, 1],
             "store": 3},
            "bad_store",
        ),
    ],
)  # fmt: skip
def test_a_move_that_cannot_be_read_is_refused_with_its_code(data, code):
    with pytest.raises(InvalidMove) as caught:
        move_from_json(data)
    assert caught.value.code == code
    assert_sentence(caught.value.message)
