"""Hypothesis strategies for move payloads: junk, near misses and mutations of legal moves.

Shared by the fuzz tests of the services and of the API (this module holds no tests).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot

HUGE = 2**70

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-HUGE, max_value=HUGE),
    st.sampled_from([0, 1, -1, 2**31, 2**63, -(2**63), 10**30]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.sampled_from(["", " ", "\x00", "é", "🌲", "snow/sprout", "A", "D", "plant", "lake", "null"]),
)

json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def deeply_nested(depth: int) -> Any:
    value: Any = [0, 0]
    for level in range(depth):
        value = [value] if level % 2 else {"plant": value}
    return value


spaces = st.one_of(
    st.tuples(st.integers(-3, 12), st.integers(-3, 12)).map(list),
    st.tuples(st.integers(-HUGE, HUGE), st.integers(-HUGE, HUGE)).map(list),
    json_values,
)
effects = st.lists(
    st.one_of(
        st.fixed_dictionaries({"plant": spaces}),
        st.fixed_dictionaries({"grow": spaces}),
        st.dictionaries(st.sampled_from(["plant", "grow", "dig", ""]), spaces, max_size=3),
        json_values,
    ),
    max_size=5,
)
powers = st.one_of(
    st.none(),
    json_values,
    st.fixed_dictionaries(
        {"power": st.sampled_from([*rules.edition.POWERS, "fly", ""])},
        optional={
            "timing": st.sampled_from(["before", "after", "during", 3]),
            "targets": st.lists(
                st.one_of(
                    spaces,
                    st.fixed_dictionaries(
                        {"lake": spaces},
                        optional={"grow": st.lists(spaces, max_size=3) | json_values},
                    ),
                ),
                max_size=4,
            )
            | json_values,
        },
    ),
)

MOVE_KEYS = ("type", "seat", "card", "action", "effects", "power")

payloads = st.one_of(
    json_values,
    st.builds(deeply_nested, st.integers(10, 200)),
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.sampled_from(["pick", "turn", "PICK", "", "move"]) | json_values,
            "seat": st.integers(-5, 5) | json_values,
            "card": st.sampled_from(["snow/sprout", "wild/lake", ""]) | json_values,
            "action": st.sampled_from(["A", "B", "C", "D", "E", "a"]) | json_values,
            "effects": effects | json_values,
            "power": powers,
        },
    ),
)


def legal_move(state: rules.GameState, seat: int, seed: int) -> dict[str, Any]:
    """A legal move for ``seat`` in its JSON form (the bots only make legal ones)."""
    return RandomBot(seed).choose(state, seat).to_json()


@st.composite
def near_misses(draw: st.DrawFn, state: rules.GameState, seat: int) -> dict[str, Any]:
    """A legal move of ``seat`` with one thing changed: most of these are illegal."""
    move = legal_move(state, seat, draw(st.integers(0, 50)))
    cards = sorted(rules.load_edition(state.edition).cards)
    if move["type"] == "pick":
        move["card"] = draw(
            st.sampled_from(
                [c for c in cards if c not in state.pool] + ["", "snow", "snow/sprout "]
            )
            | st.sampled_from(list(state.deck))  # a card still face down
            | st.text(max_size=20)
        )
        return move
    choice = draw(st.integers(0, 5))
    if choice == 0:
        move["action"] = draw(st.sampled_from([a for a in "ABCD" if a != move["action"]]))
    elif choice == 1 and move["effects"]:
        index = draw(st.integers(0, len(move["effects"]) - 1))
        (kind,) = move["effects"][index]
        move["effects"][index] = {kind: draw(spaces)}
    elif choice == 2:
        move["effects"] = [*move["effects"], draw(effects.filter(bool))[0]]
    elif choice == 3:
        move["power"] = draw(powers)
    elif choice == 4:
        move["type"] = "pick" if move["type"] == "turn" else "turn"
        move["card"] = draw(st.sampled_from(list(state.pool) or ["snow/sprout"]))
    else:
        move["effects"] = move["effects"][:-1] or [{"grow": [0, 0]}]
    return move
