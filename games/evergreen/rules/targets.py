"""Helpers for the interface and the bots: legal targets, shadows, forests.

``legal_targets`` answers "where may this seat apply this effect now?", optionally
after a partly built turn (built in the order it will be carried out), so a page can
highlight the spaces while a player assembles a turn step by step.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.enginekit.errors import IllegalMove

from .edition import Edition
from .engine import edition_of
from .moves import ACTION_EFFECTS, POWER_EFFECTS, LakePlacement, Turn
from .pieces import EMPTY, GROWS_INTO, SMALL, SPROUT
from .planet import WILD, Planet, Space
from .scoring import forests, light_points, shadowed_spaces
from .state import GameState, Phase
from .turns import ACTION_LIMITS, POWER_INDEX, execute_turn, space_index


def plant_targets(planet: Planet, board: Sequence[int], biome: str | None) -> list[int]:
    """Empty playable spaces (in ``biome`` unless it is None)."""
    spaces = planet.playable if biome is None else planet.biome_spaces[biome]
    return [i for i in spaces if board[i] == EMPTY]


def grow_targets(planet: Planet, board: Sequence[int], biome: str | None) -> list[int]:
    """Spaces where Generic Growth applies (Sprouts and Small Trees)."""
    spaces = planet.playable if biome is None else planet.biome_spaces[biome]
    return [i for i in spaces if board[i] in GROWS_INTO]


def preview_board(state: GameState, seat: int, partial: Turn | None) -> tuple[int, ...]:
    """The seat's board after a (possibly unfinished) turn; raises ``IllegalMove`` if illegal."""
    seat_state = state.seats[seat]
    if partial is None:
        return seat_state.board
    if seat_state.card is None:
        raise IllegalMove("You have no card this round, so you have no turn.", "no_card")
    ed = edition_of(state)
    power = partial.power
    if power is not None and not power.targets and power.power != "bud":
        partial = Turn(partial.seat, partial.action, partial.effects, None)
    board, _, _ = execute_turn(
        ed, seat_state.board, seat_state.powers, ed.cards[seat_state.card], partial, state.supply
    )
    return board


def planned_board(state: GameState, seat: int) -> tuple[int, ...]:
    """The seat's board after the turn it has submitted (its board as it is when it has
    none). The turn's Bushes and Lakes left the supply when it was submitted (the supply
    now counts them out), so they are not asked of the supply again."""
    seat_state = state.seats[seat]
    if seat_state.turn is None or seat_state.card is None:
        return seat_state.board
    ed = edition_of(state)
    board, _, _ = execute_turn(
        ed, seat_state.board, seat_state.powers, ed.cards[seat_state.card], seat_state.turn, None
    )
    return board


def legal_targets(
    state: GameState,
    seat: int,
    effect: str,
    *,
    partial: Turn | None = None,
    lake: Space | None = None,
) -> list[Space]:
    """Spaces where ``seat`` may apply ``effect`` next.

    ``effect`` is an Action effect (``plant``, ``grow``: restricted by the card's biome and
    the declared Action of ``partial``) or a Power effect (``sprout``, ``small``, ``big``,
    ``bush``, ``lake``, or ``lake_grow`` around the Lake at ``lake``). Returns ``[]`` when
    the effect cannot be applied. Raises ``IllegalMove`` if ``partial`` itself is illegal,
    ``ValueError`` for an unknown effect name.
    """
    if effect not in ACTION_EFFECTS and effect not in POWER_EFFECTS:
        raise ValueError(f"unknown effect {effect!r}")
    seat_state = state.seats[seat]
    if state.phase is not Phase.ACTION or seat_state.card is None or seat_state.turn is not None:
        return []
    ed = edition_of(state)
    planet = ed.planet
    card = ed.cards[seat_state.card]
    board = preview_board(state, seat, partial)
    if effect in ACTION_EFFECTS:
        action = partial.action if partial else "D"
        most_plants, most_grows, most_total = ACTION_LIMITS[action]
        done = partial.effects if partial else ()
        plants = sum(1 for e in done if e.kind == "plant")
        grows = len(done) - plants
        if len(done) >= most_total:
            return []
        if (effect == "plant" and plants >= most_plants) or (
            effect == "grow" and grows >= most_grows
        ):
            return []
        biome = None if card.suit == WILD or action == "D" else card.suit
        used = {planet.index(e.space) for e in done}
        found = (plant_targets if effect == "plant" else grow_targets)(planet, board, biome)
        return [planet.space(i) for i in found if i not in used]
    return [planet.space(i) for i in _power_targets(state, seat, ed, board, effect, partial, lake)]


def _power_targets(
    state: GameState,
    seat: int,
    ed: Edition,
    board: Sequence[int],
    effect: str,
    partial: Turn | None,
    lake: Space | None,
) -> list[int]:
    planet = ed.planet
    seat_state = state.seats[seat]
    assert seat_state.card is not None
    power = ed.cards[seat_state.card].power
    partial_power = partial.power if partial is not None else None
    wanted = "lake" if effect == "lake_grow" else effect
    if wanted != power:
        return []  # not this card's Power: applying it would be refused (wrong_power)
    if (
        effect != "lake_grow"
        and partial_power is not None
        and len(partial_power.targets) >= power_level_after_upgrade(state, seat, power)
    ):
        return []  # the Power is used up at its level
    bushes_left, lakes_left = state.supply
    if partial is not None and partial.power is not None:
        used_bushes, used_lakes = partial.power.supply_used()
        bushes_left -= used_bushes
        lakes_left -= used_lakes
    if effect in ("sprout", "bush", "lake"):
        if (effect == "bush" and bushes_left <= 0) or (effect == "lake" and lakes_left <= 0):
            return []
        return plant_targets(planet, board, None)
    if effect == "small":
        return [i for i in planet.playable if board[i] == SPROUT]
    if effect == "big":
        return [i for i in planet.playable if board[i] == SMALL]
    if lake is None:
        raise ValueError("lake_grow needs the Lake's space")
    lake_index = space_index(planet, lake)
    chosen: set[Space] = set()
    if partial is not None and partial.power is not None:
        for target in partial.power.targets:
            if isinstance(target, LakePlacement) and target.lake == lake:
                chosen = set(target.grow)
                if len(chosen) >= 2:
                    return []
    return [
        i
        for i in planet.neighbours[lake_index]
        if board[i] in GROWS_INTO and planet.space(i) not in chosen
    ]


def light_map(state: GameState, seat: int, sun: str | None = None) -> dict[Space, int]:
    """Light points each tree of ``seat`` would score with the Sun at ``sun`` (default: now)."""
    ed = edition_of(state)
    points = light_points(ed.planet, state.seats[seat].board, sun or state.sun, ed)
    return {ed.planet.space(i): p for i, p in points.items()}


def shadow_map(state: GameState, seat: int, sun: str | None = None) -> list[Space]:
    """Spaces of ``seat``'s planet lying in a shadow with the Sun at ``sun`` (default: now)."""
    ed = edition_of(state)
    shaded = shadowed_spaces(ed.planet, state.seats[seat].board, sun or state.sun, ed)
    return sorted(ed.planet.space(i) for i in shaded)


def forest_map(state: GameState, seat: int) -> list[list[Space]]:
    """``seat``'s Forests, biggest first, each as a sorted list of spaces."""
    ed = edition_of(state)
    groups = forests(ed.planet, state.seats[seat].board)
    groups.sort(key=len, reverse=True)
    return [sorted(ed.planet.space(i) for i in g) for g in groups]


def power_level_after_upgrade(state: GameState, seat: int, power: str) -> int:
    """How many times ``power`` may be applied if used this round."""
    ed = edition_of(state)
    levels = ed.power_levels[power]
    position = min(state.seats[seat].powers[POWER_INDEX[power]] + 1, len(levels))
    return levels[position - 1]


__all__ = [
    "forest_map",
    "grow_targets",
    "legal_targets",
    "light_map",
    "planned_board",
    "plant_targets",
    "power_level_after_upgrade",
    "preview_board",
    "shadow_map",
]
