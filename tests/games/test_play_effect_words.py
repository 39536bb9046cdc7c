"""Evergreen's effects are named once, by the engine (``rules.moves``): the turn builder,
the API and the words of the pages follow its vocabulary."""

from __future__ import annotations

from games.evergreen import turnbuilder, words
from games.evergreen.rules import moves, targets


def test_every_effect_the_engine_knows_has_a_name_on_the_page_and_no_other_does() -> None:
    assert set(words.EFFECT_NAMES) == set(moves.EFFECTS)


def test_the_action_effects_named_in_refusals_are_the_engines() -> None:
    assert set(words.ACTION_EFFECT_NAMES) == set(moves.ACTION_EFFECTS)
    assert set(moves.ACTION_EFFECT_NAMES) == set(moves.ACTION_EFFECTS)


def test_every_power_but_bud_is_an_effect_on_a_space_and_so_is_a_growth_beside_a_lake() -> None:
    assert moves.POWER_EFFECTS == ("sprout", "small", "big", "bush", "lake", "lake_grow")


def test_the_turn_builder_and_the_targets_use_the_engines_vocabulary() -> None:
    assert turnbuilder.ACTION_EFFECTS is moves.ACTION_EFFECTS
    assert turnbuilder.POWER_EFFECTS is moves.POWER_EFFECTS
    assert targets.ACTION_EFFECTS is moves.ACTION_EFFECTS
    assert targets.POWER_EFFECTS is moves.POWER_EFFECTS
