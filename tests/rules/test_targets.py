"""``targets``: the legal next effects of a turn being built, and the board maps."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.evergreen.rules import IllegalMove, RulesError
from games.evergreen.rules.edition import POWERS, load_edition
from games.evergreen.rules.engine import apply, new_game
from games.evergreen.rules.moves import Effect, LakePlacement, Pick, PowerUse, Turn
from games.evergreen.rules.pieces import BIG, BUSH, EMPTY, LAKE, SMALL, SPROUT
from games.evergreen.rules.planet import Space
from games.evergreen.rules.state import GameState, Phase
from games.evergreen.rules.targets import (
    forest_map,
    legal_targets,
    light_map,
    power_level_after_upgrade,
    shadow_map,
)

ED = load_edition()
PLANET = ED.planet
GRID = [(r, c) for r in range(PLANET.rows) for c in range(PLANET.cols)]
PLAYABLE = [PLANET.space(i) for i in PLANET.playable]

# A board with every kind of piece, several in the Snow biome:
#   Snow: (0,1) Sprout, (0,2) Small, (1,1) Big, (1,2) Bush, (2,2) Lake; (0,3), (1,0) empty.
MIXED: dict[Space, int] = {
    (0, 1): SPROUT,
    (0, 2): SMALL,
    (1, 1): BIG,
    (1, 2): BUSH,
    (2, 2): LAKE,
    (2, 3): SPROUT,  # grassland
    (3, 3): SMALL,  # grassland
    (4, 3): BIG,  # wheat
    (3, 0): SPROUT,  # swamp
    (5, 5): SMALL,  # flowers
    (6, 1): BUSH,  # wheat
}


def _action_phase() -> GameState:
    state = new_game(2, 0)
    while state.phase is Phase.DRAFT:
        state = apply(state, Pick(state.awaiting[0], state.pool[0]))
    return state


ACTION_PHASE = _action_phase()


def situation(
    card: str,
    pieces: dict[Space, int] | None = None,
    *,
    powers: dict[str, int] | None = None,
    supply: tuple[int, int] = (20, 20),
) -> GameState:
    """Seat 0 in the Action phase holding ``card``, with ``pieces`` on its planet."""
    board = [EMPTY] * PLANET.size
    for space, piece in (MIXED if pieces is None else pieces).items():
        board[PLANET.index(space)] = piece
    positions = tuple((powers or {}).get(p, 0) for p in POWERS)
    seat = replace(ACTION_PHASE.seats[0], card=card, board=tuple(board), powers=positions)
    return replace(ACTION_PHASE, seats=(seat, *ACTION_PHASE.seats[1:]), supply=supply)


def extended(
    state: GameState, effect: str, space: Space, partial: Turn | None, lake: Space | None = None
) -> Turn:
    """``partial`` with ``effect`` at ``space`` added as its next effect."""
    action = partial.action if partial else "D"
    effects = partial.effects if partial else ()
    use = partial.power if partial else None
    if effect in ("plant", "grow"):
        return Turn(0, action, (*effects, Effect(effect, space)), use)
    card = state.seats[0].card
    assert card is not None
    if use is None:
        use = PowerUse(ED.cards[card].power, "after", ())
    if effect == "lake":
        targets = (*use.targets, LakePlacement(space))
    elif effect == "lake_grow":
        targets = tuple(
            LakePlacement(t.lake, (*t.grow, space))
            if isinstance(t, LakePlacement) and t.lake == lake
            else t
            for t in use.targets
        )
        assert targets != use.targets, "the partial turn must place the Lake first"
    else:
        targets = (*use.targets, space)
    return Turn(0, action, effects, PowerUse(use.power, use.timing, targets))


def accepted(state: GameState, turn: Turn) -> bool:
    try:
        apply(state, turn)
    except RulesError:
        return False
    return True


def assert_exact(
    state: GameState, effect: str, partial: Turn | None = None, lake: Space | None = None
) -> list[Space]:
    """Every space offered is accepted by the engine, and every other space is refused."""
    offered = legal_targets(state, 0, effect, partial=partial, lake=lake)
    assert len(set(offered)) == len(offered)
    for space in GRID:
        turn = extended(state, effect, space, partial, lake)
        assert accepted(state, turn) == (space in offered), (effect, space, offered)
    return offered


def empty_in(biome: str | None, pieces: dict[Space, int] = MIXED) -> list[Space]:
    spaces = PLAYABLE if biome is None else [PLANET.space(i) for i in PLANET.biome_spaces[biome]]
    return [s for s in spaces if s not in pieces]


class TestActionEffects:
    def test_it_offers_the_empty_spaces_of_the_card_biome_for_planting(self) -> None:
        state = situation("snow/bud")
        offered = assert_exact(state, "plant", Turn(0, "A"))
        assert sorted(offered) == [(0, 3), (1, 0)]

    def test_it_offers_the_sprouts_and_small_trees_of_the_card_biome_for_growing(self) -> None:
        state = situation("snow/bud")
        offered = assert_exact(state, "grow", Turn(0, "B"))
        assert sorted(offered) == [(0, 1), (0, 2)]

    def test_it_offers_every_empty_space_with_a_wild_card(self) -> None:
        state = situation("wild/bud")
        offered = assert_exact(state, "plant", Turn(0, "A"))
        assert sorted(offered) == sorted(empty_in(None))
        assert len(offered) == len(PLANET.playable) - len(MIXED)

    def test_it_offers_growth_anywhere_with_a_wild_card(self) -> None:
        state = situation("wild/small")
        offered = assert_exact(state, "grow", Turn(0, "C"))
        assert sorted(offered) == [(0, 1), (0, 2), (2, 3), (3, 0), (3, 3), (5, 5)]

    @pytest.mark.parametrize("effect", ["plant", "grow"])
    def test_it_offers_any_biome_under_action_d(self, effect: str) -> None:
        state = situation("rock/lake")
        offered = assert_exact(state, effect, Turn(0, "D"))
        assert any(PLANET.biomes[PLANET.index(s)] != "rock" for s in offered)
        assert offered == legal_targets(state, 0, effect)  # no partial turn: Action D

    def test_it_offers_nothing_in_a_biome_with_no_room(self) -> None:
        full = {PLANET.space(i): BIG for i in PLANET.biome_spaces["grassland"]}
        state = situation("grassland/bud", full)
        assert assert_exact(state, "plant", Turn(0, "A")) == []
        assert assert_exact(state, "grow", Turn(0, "B")) == []

    @pytest.mark.parametrize(
        ("partial", "effect"),
        [
            (Turn(0, "A"), "grow"),
            (Turn(0, "B"), "plant"),
            (
                Turn(
                    0,
                    "A",
                    (Effect("plant", (0, 3)), Effect("plant", (1, 0)), Effect("plant", (5, 0))),
                ),
                "plant",
            ),
            (Turn(0, "B", (Effect("grow", (0, 1)), Effect("grow", (0, 2)))), "grow"),
            (Turn(0, "C", (Effect("plant", (0, 3)),)), "plant"),
            (Turn(0, "C", (Effect("grow", (0, 1)),)), "grow"),
            (Turn(0, "D", (Effect("plant", (5, 0)),)), "plant"),
            (Turn(0, "D", (Effect("plant", (5, 0)),)), "grow"),
        ],
        ids=[
            "A-grow",
            "B-plant",
            "A-full",
            "B-full",
            "C-plant-twice",
            "C-grow-twice",
            "D-1",
            "D-2",
        ],
    )
    def test_it_offers_nothing_beyond_the_action_limits(self, partial: Turn, effect: str) -> None:
        state = situation("wild/bud")
        assert assert_exact(state, effect, partial) == []

    def test_it_keeps_offering_plants_until_action_a_has_three(self) -> None:
        state = situation("wild/bud")
        partial = Turn(0, "A", (Effect("plant", (0, 3)), Effect("plant", (1, 0))))
        offered = assert_exact(state, "plant", partial)
        assert (0, 3) not in offered and (1, 0) not in offered
        assert len(offered) == len(empty_in(None)) - 2

    def test_it_never_offers_the_space_action_c_has_just_planted(self) -> None:
        state = situation("snow/bud")
        partial = Turn(0, "C", (Effect("plant", (0, 3)),))
        offered = assert_exact(state, "grow", partial)
        assert sorted(offered) == [(0, 1), (0, 2)]

    def test_it_never_offers_the_space_action_b_has_just_grown(self) -> None:
        state = situation("snow/bud")
        partial = Turn(0, "B", (Effect("grow", (0, 1)),))
        assert assert_exact(state, "grow", partial) == [(0, 2)]

    def test_it_counts_the_pieces_a_power_placed_before_the_action(self) -> None:
        state = situation("snow/sprout")
        partial = Turn(0, "C", (), PowerUse("sprout", "before", ((0, 3),)))
        assert assert_exact(state, "plant", partial) == [(1, 0)]
        assert sorted(assert_exact(state, "grow", partial)) == [(0, 1), (0, 2), (0, 3)]


class TestPowerEffects:
    def test_it_offers_every_empty_space_for_the_sprout_power(self) -> None:
        state = situation("snow/sprout")
        assert sorted(assert_exact(state, "sprout")) == sorted(empty_in(None))

    def test_it_offers_every_sprout_for_small_tree_growth(self) -> None:
        state = situation("swamp/small")
        assert sorted(assert_exact(state, "small")) == [(0, 1), (2, 3), (3, 0)]

    def test_it_offers_every_small_tree_for_big_tree_growth(self) -> None:
        state = situation("rock/big")
        assert sorted(assert_exact(state, "big")) == [(0, 2), (3, 3), (5, 5)]

    def test_it_offers_every_empty_space_for_a_bush_or_a_lake(self) -> None:
        assert sorted(assert_exact(situation("flowers/bush"), "bush")) == sorted(empty_in(None))
        assert sorted(assert_exact(situation("wheat/lake"), "lake")) == sorted(empty_in(None))

    def test_it_offers_nothing_when_the_supply_is_empty(self) -> None:
        assert assert_exact(situation("flowers/bush", supply=(0, 20)), "bush") == []
        assert assert_exact(situation("wheat/lake", supply=(20, 0)), "lake") == []

    def test_it_counts_what_the_partial_turn_already_takes_from_the_supply(self) -> None:
        state = situation("flowers/bush", powers={"bush": 1}, supply=(1, 20))
        partial = Turn(0, "A", (), PowerUse("bush", "after", ((0, 3),)))
        assert power_level_after_upgrade(state, 0, "bush") == 2
        assert assert_exact(state, "bush", partial) == []

    def test_it_offers_more_targets_while_the_power_level_allows(self) -> None:
        state = situation("snow/sprout", powers={"sprout": 1})
        partial = Turn(0, "A", (), PowerUse("sprout", "after", ((0, 3),)))
        offered = assert_exact(state, "sprout", partial)
        assert sorted(offered) == sorted(s for s in empty_in(None) if s != (0, 3))

    @pytest.mark.parametrize(
        ("card", "use", "effect"),
        [
            ("snow/sprout", PowerUse("sprout", "after", ((0, 3),)), "sprout"),
            ("swamp/small", PowerUse("small", "after", ((0, 1),)), "small"),
            ("rock/big", PowerUse("big", "after", ((0, 2),)), "big"),
            ("flowers/bush", PowerUse("bush", "after", ((0, 3),)), "bush"),
            ("wheat/lake", PowerUse("lake", "after", (LakePlacement((0, 3)),)), "lake"),
        ],
    )
    def test_it_offers_nothing_once_the_power_level_is_used_up(
        self, card: str, use: PowerUse, effect: str
    ) -> None:
        state = situation(card)  # fresh track: level 1 after the upgrade
        assert power_level_after_upgrade(state, 0, effect) == 1
        assert accepted(state, Turn(0, "A", (), use))
        assert assert_exact(state, effect, Turn(0, "A", (), use)) == []

    def test_it_offers_the_growable_spaces_around_a_lake(self) -> None:
        pieces = {(2, 2): SPROUT, (3, 3): SMALL, (4, 2): BIG, (0, 1): SPROUT}
        state = situation("wheat/lake", pieces)
        lake = (3, 2)
        partial = Turn(0, "A", (), PowerUse("lake", "after", (LakePlacement(lake),)))
        assert sorted(assert_exact(state, "lake_grow", partial, lake)) == [(2, 2), (3, 3)]
        one = Turn(0, "A", (), PowerUse("lake", "after", (LakePlacement(lake, ((2, 2),)),)))
        assert assert_exact(state, "lake_grow", one, lake) == [(3, 3)]
        two = Turn(0, "A", (), PowerUse("lake", "after", (LakePlacement(lake, ((2, 2), (3, 3))),)))
        assert assert_exact(state, "lake_grow", two, lake) == []

    def test_it_lets_a_lake_grow_what_the_action_planted_before_it(self) -> None:
        state = situation("wheat/lake", {})
        partial = Turn(
            0, "D", (Effect("plant", (3, 1)),), PowerUse("lake", "after", (LakePlacement((3, 2)),))
        )
        assert assert_exact(state, "lake_grow", partial, (3, 2)) == [(3, 1)]


class TestNoTargets:
    def test_it_offers_nothing_during_the_draft(self) -> None:
        state = new_game(2, 3)
        for effect in ("plant", "grow", "sprout", "bush", "lake"):
            assert legal_targets(state, state.awaiting[0], effect) == []

    def test_it_offers_nothing_to_a_seat_that_has_submitted(self) -> None:
        state = apply(situation("wild/sprout"), Turn(0, "A"))
        assert state.seats[0].turn is not None
        assert legal_targets(state, 0, "plant") == []
        assert legal_targets(state, 0, "sprout") == []

    def test_it_offers_nothing_to_a_seat_without_a_card(self) -> None:
        state = situation("wild/sprout")
        state = replace(state, seats=(replace(state.seats[0], card=None), *state.seats[1:]))
        assert legal_targets(state, 0, "plant") == []

    def test_it_refuses_an_unknown_effect_name(self) -> None:
        with pytest.raises(ValueError):
            legal_targets(situation("wild/sprout"), 0, "chop")

    def test_it_needs_the_lake_space_for_lake_growth(self) -> None:
        with pytest.raises(ValueError):
            legal_targets(situation("wheat/lake"), 0, "lake_grow")

    def test_it_refuses_an_illegal_partial_turn(self) -> None:
        state = situation("snow/bud")
        with pytest.raises(IllegalMove) as caught:
            legal_targets(state, 0, "plant", partial=Turn(0, "A", (Effect("plant", (6, 5)),)))
        assert caught.value.code == "wrong_biome"


class TestMaps:
    def test_it_maps_the_light_each_tree_collects(self) -> None:
        state = situation("snow/bud", {(1, 2): BIG, (3, 2): SMALL, (5, 2): SMALL, (4, 5): SMALL})
        assert state.sun == "N"
        assert light_map(state, 0) == {(1, 2): 2, (3, 2): 0, (5, 2): 1, (4, 5): 1}
        assert light_map(state, 0, "S") == {(1, 2): 2, (3, 2): 1, (5, 2): 1, (4, 5): 1}

    def test_it_lights_a_big_tree_standing_in_a_small_tree_shadow(self) -> None:
        state = situation("snow/bud", {(1, 2): SMALL, (2, 2): BIG, (3, 2): SMALL})
        assert light_map(state, 0, "N") == {(1, 2): 1, (2, 2): 2, (3, 2): 0}

    def test_it_counts_a_crevice_in_a_shadow_length(self) -> None:
        # (1,3) is a crevice: the Big Tree at (0,3) shades (1,3) and (2,3) with the Sun at N.
        state = situation("snow/bud", {(0, 3): BIG, (2, 3): BIG, (3, 3): SMALL})
        assert light_map(state, 0, "N") == {(0, 3): 2, (2, 3): 0, (3, 3): 0}

    def test_it_maps_the_shaded_spaces(self) -> None:
        state = situation("snow/bud", {(1, 2): BIG, (3, 2): SMALL, (5, 2): SMALL})
        assert shadow_map(state, 0) == [(2, 2), (3, 2), (4, 2), (6, 2)]
        assert shadow_map(state, 0, "S") == [(0, 2), (2, 2), (4, 2)]
        assert shadow_map(state, 0, "E") == [(1, 0), (1, 1), (3, 1), (5, 1)]

    def test_it_casts_no_shadow_from_sprouts_bushes_and_lakes(self) -> None:
        state = situation("snow/bud", {(1, 2): SPROUT, (2, 2): BUSH, (3, 2): LAKE})
        for sun in ("N", "E", "S", "W"):
            assert shadow_map(state, 0, sun) == []
            assert light_map(state, 0, sun) == {}

    def test_it_maps_the_forests_biggest_first(self) -> None:
        pieces = {
            (0, 1): SMALL,
            (0, 2): BUSH,
            (1, 2): BIG,
            (1, 4): BIG,  # cut off by the crevice at (1,3)
            (5, 5): SMALL,
            (5, 4): SPROUT,  # a Sprout breaks a Forest
            (5, 3): BUSH,
            (2, 0): LAKE,  # a Lake is no part of a Forest
        }
        forests = forest_map(situation("snow/bud", pieces), 0)
        assert forests[0] == [(0, 1), (0, 2), (1, 2)]
        assert sorted(forests[1:]) == [[(1, 4)], [(5, 3)], [(5, 5)]]

    def test_it_maps_no_forest_on_an_empty_planet(self) -> None:
        assert forest_map(situation("snow/bud", {}), 0) == []

    def test_it_gives_each_power_level_after_the_upgrade(self) -> None:
        state = situation("snow/bud", powers={"sprout": 4, "lake": 1, "bud": 2, "big": 3})
        levels = {p: power_level_after_upgrade(state, 0, p) for p in POWERS}
        assert levels == {"sprout": 4, "small": 1, "big": 3, "bush": 1, "lake": 2, "bud": 3}
