"""The turn builder on its own: steps read and written, checked by the engine (no database)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from games.evergreen import rules, turnbuilder
from games.evergreen.rules.moves import LakePlacement
from games.evergreen.rules.pieces import EMPTY, PIECE_CODES
from games.evergreen.turnbuilder import BuildError, TurnBuilder
from tests.games.gamehelpers import turn_text

EDITION = rules.load_edition()
PLANET = EDITION.planet
SNOW = [(0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (2, 2)]


def action_state(card: str, pieces: dict | None = None, tracks: dict | None = None):
    """Seat 0 of a 2-player game holds ``card`` in the Action phase, seat 1 holds another."""
    state = rules.new_game(2, seed=5)
    board = [EMPTY] * PLANET.size
    for space, name in (pieces or {}).items():
        board[PLANET.index(space)] = PIECE_CODES[name]
    powers = tuple((tracks or {}).get(p, 0) for p in rules.POWERS)
    seats = (
        replace(state.seats[0], board=tuple(board), powers=powers, card=card),
        replace(state.seats[1], card="wild/bud"),
    )
    return replace(state, seats=seats, phase=rules.Phase.ACTION, pool=(), token_card=None)


def builder(state, text: str = "") -> TurnBuilder:
    power = EDITION.cards[state.seats[0].card].power
    return TurnBuilder.decode(0, power, text)


def text(**turn: Any) -> str:
    """A turn being built, in its one text form: the record's JSON form of a turn."""
    return json.dumps({"type": "turn", "seat": 0, **turn})


LAKE_AFTER = text(
    action="C",
    effects=[{"plant": [1, 1]}],
    power={"power": "lake", "timing": "after", "targets": [{"lake": [3, 3], "grow": [[2, 3]]}]},
    part=2,
)


class TestTheTurnsText:
    def test_it_is_the_turns_json_form_in_the_game_record(self):
        b = TurnBuilder.decode(0, "lake", LAKE_AFTER)
        data = json.loads(b.encode())
        assert data.pop("part") == 2
        assert rules.move_from_json(data) == b.turn()
        assert data == rules.move_to_json(b.turn())

    def test_it_reads_back_what_it_writes(self):
        b = TurnBuilder.decode(0, "lake", LAKE_AFTER)
        assert json.loads(b.encode()) == json.loads(LAKE_AFTER)
        assert TurnBuilder.decode(0, "lake", b.encode()) == b
        assert b.action == "C" and b.timing == "after" and b.block == "power"

    def test_it_builds_the_turn_in_the_order_it_is_carried_out(self):
        b = TurnBuilder.decode(
            0,
            "lake",
            text(
                action="C",
                effects=[{"plant": [1, 1]}, {"grow": [2, 2]}],
                power={
                    "power": "lake",
                    "timing": "after",
                    "targets": [{"lake": [3, 3], "grow": [[2, 3]]}],
                },
                part=2,
            ),
        )
        assert b.steps == (
            "C",
            "after",
            ("plant", (1, 1)),
            ("grow", (2, 2)),
            "next",
            ("lake", (3, 3)),
            ("lake_grow", (2, 3)),
        )
        assert b.turn() == rules.Turn(
            0,
            "C",
            (rules.Effect("plant", (1, 1)), rules.Effect("grow", (2, 2))),
            rules.PowerUse("lake", "after", (LakePlacement((3, 3), ((2, 3),)),)),
        )

    def test_the_power_first_comes_before_the_action(self):
        b = TurnBuilder.decode(
            0,
            "sprout",
            text(
                action="A",
                effects=[{"plant": [1, 1]}],
                power={"power": "sprout", "timing": "before", "targets": [[4, 4]]},
                part=2,
            ),
        )
        assert b.steps == ("A", "before", ("sprout", (4, 4)), "next", ("plant", (1, 1)))
        turn = b.turn()
        assert turn.power == rules.PowerUse("sprout", "before", ((4, 4),))
        assert turn.effects == (rules.Effect("plant", (1, 1)),)
        assert b.block == "action" and not b.can_go_next

    def test_until_the_power_is_timed_there_is_no_power_and_null_means_not_at_all(self):
        assert TurnBuilder.decode(0, "bud", text(action="D")).steps == ("D",)
        assert TurnBuilder.decode(0, "bud", text(action="D", power=None)).steps == ("D", "none")
        assert json.loads(TurnBuilder(0, "bud", ("D",)).encode()).keys() == {
            "type",
            "seat",
            "action",
            "effects",
        }

    def test_the_seat_is_the_builders_whatever_the_text_says(self):
        b = TurnBuilder.decode(1, "bud", json.dumps({"type": "turn", "seat": 0, "action": "D"}))
        assert b.turn() == rules.Turn(1, "D")

    def test_it_wants_an_action_first(self):
        with pytest.raises(rules.RulesError) as caught:
            TurnBuilder.decode(0, "bud", text(power=None))
        assert caught.value.code == "unknown_action"

    def test_it_wants_the_power_timing_before_any_effect(self):
        with pytest.raises(BuildError) as caught:
            TurnBuilder.decode(0, "bud", text(action="A", effects=[{"plant": [1, 1]}]))
        assert caught.value.code == "choose_timing"

    def test_it_refuses_power_effects_during_the_action(self):
        with pytest.raises(BuildError) as caught:
            TurnBuilder.decode(
                0,
                "sprout",
                text(action="A", power={"power": "sprout", "timing": "after", "targets": [[1, 1]]}),
            )
        assert caught.value.code == "wrong_part"

    def test_the_action_after_the_power_waits_for_next(self):
        with pytest.raises(BuildError) as caught:
            TurnBuilder.decode(
                0,
                "sprout",
                text(
                    action="A",
                    effects=[{"plant": [1, 2]}],
                    power={"power": "sprout", "timing": "before", "targets": [[1, 1]]},
                ),
            )
        assert caught.value.code == "wrong_part"

    def test_there_is_no_next_part_without_a_power(self):
        with pytest.raises(BuildError) as caught:
            TurnBuilder.decode(0, "sprout", text(action="A", power=None, part=2))
        assert caught.value.code == "no_next_part"

    def test_another_power_than_the_cards_is_refused(self):
        with pytest.raises(BuildError) as caught:
            TurnBuilder.decode(
                0,
                "sprout",
                text(
                    action="A",
                    power={"power": "lake", "timing": "before", "targets": [{"lake": [1, 1]}]},
                ),
            )
        assert caught.value.code == "wrong_part"

    def test_it_refuses_garbage(self):
        for garbage in ("<script>", "[]", "{}", text(action="A", part=3), '{"type": "pick"}'):
            with pytest.raises(BuildError):
                TurnBuilder.decode(0, "bud", garbage)
        with pytest.raises(rules.RulesError):
            TurnBuilder.decode(0, "bud", text(action="A", effects=[{"dig": [1, 1]}], power=None))
        with pytest.raises(BuildError):
            TurnBuilder.decode(
                0, "bud", text(action="A", effects=[{"plant": [1, 1]}] * 30, power=None)
            )
        with pytest.raises(BuildError):
            TurnBuilder.decode(0, "bud", " " * 10 + "x" * 5000)

    def test_a_power_never_applied_is_left_out_of_the_submitted_turn(self):
        b = TurnBuilder.decode(
            0, "bush", text(action="B", power={"power": "bush", "timing": "after"}, part=2)
        )
        assert b.turn().power is not None
        assert b.final_turn() == rules.Turn(0, "B")

    def test_bud_needs_no_target_to_count(self):
        b = TurnBuilder.decode(
            0, "bud", text(action="D", power={"power": "bud", "timing": "before"})
        )
        assert b.final_turn().power == rules.PowerUse("bud", "before")

    def test_undo_and_reset(self):
        b = TurnBuilder.decode(0, "bud", text(action="A", effects=[{"plant": [1, 1]}], power=None))
        assert b.undo().steps == ("A", "none")
        assert json.loads(b.undo().encode()) == json.loads(text(action="A", effects=[], power=None))
        assert b.reset().encode() == ""


class TestWithTheEngine:
    def test_the_action_highlights_its_biome_only(self):
        state = action_state("snow/bush", {(1, 1): "sprout"})
        b = builder(state, turn_text("C", "none"))
        spaces = turnbuilder.spaces_now(state, b)
        assert spaces[(1, 1)] == "grow"
        assert {s for s, k in spaces.items() if k == "plant"} == set(SNOW) - {(1, 1)}

    def test_a_click_applies_the_effect_that_fits_the_space(self):
        state = action_state("snow/bush", {(1, 1): "sprout"})
        b = turnbuilder.step(state, builder(state, turn_text("C", "none")), "1,1")
        b = turnbuilder.step(state, b, "0,2")
        assert b.encode() == turn_text("C", "none", ("grow", (1, 1)), ("plant", (0, 2)))
        board = turnbuilder.check(state, b)
        assert board[PLANET.index((1, 1))] == PIECE_CODES["small"]
        assert turnbuilder.spaces_now(state, b) == {}

    def test_a_space_outside_the_biome_is_refused_with_the_engine_message(self):
        state = action_state("snow/bush")
        with pytest.raises(rules.IllegalMove) as caught:
            turnbuilder.step(state, builder(state, turn_text("A", "none")), "5,3")
        assert caught.value.code == "wrong_biome"
        assert "Snow" in caught.value.message

    def test_a_crevice_is_refused(self):
        state = action_state("wild/bush")
        with pytest.raises(rules.IllegalMove) as caught:
            turnbuilder.step(state, builder(state, turn_text("A", "none")), "1,3")
        assert caught.value.code == "crevice"

    def test_a_space_off_the_grid_is_refused(self):
        state = action_state("wild/bush")
        with pytest.raises(rules.IllegalMove) as caught:
            turnbuilder.step(state, builder(state, turn_text("A", "none")), "9,9")
        assert caught.value.code == "off_planet"

    def test_the_power_is_limited_by_its_level(self):
        state = action_state("snow/bush")
        b = turnbuilder.step(state, builder(state, turn_text("A", "before")), "4,4")
        assert turnbuilder.spaces_now(state, b) == {}
        with pytest.raises(rules.IllegalMove) as caught:
            turnbuilder.step(state, b, "4,3")
        assert caught.value.code == "too_many_effects"

    def test_next_moves_on_to_the_action_after_the_power(self):
        state = action_state("snow/sprout")
        b = turnbuilder.step(state, builder(state, turn_text("B", "before")), "1,1")
        b = turnbuilder.step(state, b, "next")
        assert b.block == "action"
        # The Sprout the Power planted can grow in the Action.
        assert turnbuilder.spaces_now(state, b) == {(1, 1): "grow"}

    def test_a_lake_grows_up_to_two_neighbours(self):
        pieces = {(2, 3): "sprout", (3, 2): "small", (4, 3): "sprout"}
        state = action_state("wheat/lake", pieces)
        b = turnbuilder.step(state, builder(state, turn_text("D", "before")), "3,3")
        assert b.encode() == turn_text("D", "before", ("lake", (3, 3)))
        options = turnbuilder.spaces_now(state, b)
        assert {s for s, k in options.items() if k == "lake_grow"} == {(2, 3), (3, 2), (4, 3)}
        b = turnbuilder.step(state, b, "3,2")
        b = turnbuilder.step(state, b, "2,3")
        assert turnbuilder.spaces_now(state, b) == {}
        assert b.final_turn().power == rules.PowerUse(
            "lake", "before", (LakePlacement((3, 3), ((3, 2), (2, 3))),)
        )
        board = turnbuilder.check(state, b)
        assert board[PLANET.index((3, 2))] == PIECE_CODES["big"]
        with pytest.raises(rules.IllegalMove):
            turnbuilder.step(state, b, "4,3")

    def test_a_second_lake_at_level_two(self):
        state = action_state("wheat/lake", tracks={"lake": 1})
        b = turnbuilder.step(state, builder(state, turn_text("A", "after", "next")), "3,3")
        assert turnbuilder.power_level(state, b) == 2
        b = turnbuilder.step(state, b, "0,1")
        assert b.targets == (LakePlacement((3, 3)), LakePlacement((0, 1)))

    def test_bud_takes_no_space(self):
        state = action_state("wheat/bud")
        b = builder(state, turn_text("A", "before"))
        assert turnbuilder.spaces_now(state, b) == {}
        with pytest.raises(rules.IllegalMove):
            turnbuilder.step(state, b, "3,3")

    def test_a_click_before_the_action_is_chosen_is_refused(self):
        state = action_state("wheat/bud")
        with pytest.raises(BuildError):
            turnbuilder.step(state, builder(state, ""), "3,3")

    def test_the_turn_built_is_accepted_by_the_engine(self):
        state = action_state("snow/sprout")
        b = builder(state)
        for value in ("C", "after", "1,1", "next", "4,4"):
            b = turnbuilder.step(state, b, value)
        after = rules.apply(state, b.final_turn(), advance_state=False)
        assert after.seats[0].turn == b.final_turn()
