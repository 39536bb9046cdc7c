"""The engines' shared kit (``games.enginekit``): what both engines rely on alike.

Each engine's own tests (tests/rules, tests/verdant) prove its records, seeds and
editions through the kit; these check the kit's promises once, engine by engine.
"""

from __future__ import annotations

import doctest

import pytest

import games.enginekit.titles
from games.enginekit.errors import InvalidEdition, InvalidState, RulesError
from games.enginekit.rng import seed_state, shuffled
from games.evergreen import rules as evergreen
from games.evergreen.rules.edition import SHELF as EVERGREEN_SHELF
from games.evergreen.rules.record import GameRecord as EvergreenRecord
from games.verdant import rules as verdant
from games.verdant.rules.edition import SHELF as VERDANT_SHELF
from games.verdant.rules.record import GameRecord as VerdantRecord


def test_the_examples_in_the_docstrings_hold() -> None:
    assert doctest.testmod(games.enginekit.titles).failed == 0


def test_both_engines_raise_the_one_error_hierarchy() -> None:
    assert evergreen.RulesError is verdant.RulesError is RulesError
    assert evergreen.InvalidState is verdant.InvalidState is InvalidState


def test_the_generator_gives_the_same_shuffle_for_the_same_seed() -> None:
    first = shuffled(seed_state(7), range(10))
    assert first == shuffled(seed_state(7), range(10))
    assert first != shuffled(seed_state(8), range(10))
    assert sorted(first[1]) == list(range(10))


@pytest.mark.parametrize("shelf", [EVERGREEN_SHELF, VERDANT_SHELF], ids=["evergreen", "verdant"])
def test_each_engine_loads_its_default_edition_once_and_refuses_an_unknown_one(shelf) -> None:
    assert shelf.default in shelf.names()
    assert shelf.load() is shelf.load(shelf.default)
    with pytest.raises(InvalidEdition) as refused:
        shelf.load("no-such-edition")
    assert refused.value.code == "unknown_edition"


@pytest.mark.parametrize(
    ("record", "other"),
    [(EvergreenRecord, VerdantRecord), (VerdantRecord, EvergreenRecord)],
    ids=["evergreen", "verdant"],
)
def test_an_engine_refuses_the_other_engines_record(record, other) -> None:
    data = other(("Ann", "Bob"), 3).to_json()
    with pytest.raises(InvalidState) as refused:
        record.from_json(data)
    assert refused.value.code == "not_a_record"
