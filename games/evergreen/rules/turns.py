"""Validating and carrying out one seat's turn on its own planet.

``execute_turn`` is the single place where an Action and a Power are checked against
the rules; the engine calls it when a turn is submitted (to refuse an illegal turn at
once) and again when the round is revealed.
"""

from __future__ import annotations

from games.enginekit.errors import IllegalMove, InvalidMove

from .edition import POWERS, Card, Edition
from .moves import ACTION_EFFECT_NAMES, ACTION_EFFECTS, ACTIONS, TIMINGS, LakePlacement, Turn
from .pieces import BIG, BUSH, EMPTY, GROWS_INTO, LAKE, PIECE_NAMES, SMALL, SPROUT
from .planet import CREVICE, WILD, Planet, Space

POWER_INDEX = {p: i for i, p in enumerate(POWERS)}
# (most plants, most growths, most effects in all) for each Action
ACTION_LIMITS: dict[str, tuple[int, int, int]] = {
    "A": (3, 0, 3),
    "B": (0, 2, 2),
    "C": (1, 1, 2),
    "D": (1, 1, 1),
}
ACTION_NAMES = {
    "A": "Action A (up to 3 Plant Sprout)",
    "B": "Action B (up to 2 Generic Growth)",
    "C": "Action C (up to 1 Plant Sprout and 1 Generic Growth)",
    "D": "Action D (1 Plant Sprout or 1 Generic Growth anywhere)",
}
PIECE_WORDS = ("an empty space", "a Sprout", "a Small Tree", "a Big Tree", "a Bush", "a Lake")


def describe(space: Space) -> str:
    return f"row {space[0]}, column {space[1]}"


def at(space: Space, prefix: str = "") -> dict[str, object]:
    """A space as error params: ``{"row": r, "col": c}`` (keys prefixed, e.g. ``lake_row``)."""
    return {f"{prefix}row": space[0], f"{prefix}col": space[1]}


def space_index(planet: Planet, space: Space) -> int:
    """Index of a playable space; raises ``IllegalMove`` off the planet or on a crevice."""
    if not planet.on_grid(space):
        raise IllegalMove(
            f"The space at {describe(space)} is off the planet.", "off_planet", at(space)
        )
    i = planet.index(space)
    char = planet.chars[i]
    if char == CREVICE:
        raise IllegalMove(
            f"The space at {describe(space)} is a crevice: nothing can ever be placed there.",
            "crevice",
            at(space),
        )
    if planet.biomes[i] is None:
        raise IllegalMove(
            f"The space at {describe(space)} is off the planet.", "off_planet", at(space)
        )
    return i


def place(board: list[int], planet: Planet, space: Space, piece: int, what: str) -> int:
    i = space_index(planet, space)
    if board[i] != EMPTY:
        raise IllegalMove(
            f"You cannot place {what} at {describe(space)}: it already holds {PIECE_WORDS[board[i]]}.",
            "occupied",
            {**at(space), "piece": PIECE_NAMES[piece], "held": PIECE_NAMES[board[i]]},
        )
    board[i] = piece
    return i


def generic_growth(board: list[int], planet: Planet, space: Space) -> int:
    """Sprout → Small Tree or Small Tree → Big Tree."""
    i = space_index(planet, space)
    piece = board[i]
    if piece in GROWS_INTO:
        board[i] = GROWS_INTO[piece]
        return i
    raise _cannot_grow(piece, space)


def _cannot_grow(piece: int, space: Space) -> IllegalMove:
    where = describe(space)
    if piece == EMPTY:
        return IllegalMove(
            f"There is nothing to grow at {where}: plant a Sprout first.",
            "nothing_to_grow",
            at(space),
        )
    if piece == BIG:
        return IllegalMove(
            f"The Big Tree at {where} cannot grow any further.",
            "big_tree_cannot_grow",
            at(space),
        )
    return IllegalMove(
        f"{PIECE_WORDS[piece].capitalize()} at {where} does not grow; only Sprouts and Small Trees do.",
        "cannot_grow_piece",
        {**at(space), "held": PIECE_NAMES[piece]},
    )


def _grow_exactly(board: list[int], planet: Planet, space: Space, source: int) -> None:
    """Small Tree Growth (source Sprout) or Big Tree Growth (source Small Tree)."""
    i = space_index(planet, space)
    piece = board[i]
    if piece == source:
        board[i] = GROWS_INTO[piece]
        return
    where = describe(space)
    if source == SMALL and piece == SPROUT:
        raise IllegalMove(
            f"The Sprout at {where} cannot grow straight into a Big Tree: it must become a Small Tree first.",
            "sprout_to_big_tree",
            at(space),
        )
    if source == SPROUT and piece in (SMALL, BIG):
        raise IllegalMove(
            f"Small Tree Growth needs a Sprout, but {where} holds {PIECE_WORDS[piece]}.",
            "needs_sprout",
            {**at(space), "held": PIECE_NAMES[piece]},
        )
    raise _cannot_grow(piece, space)


def check_action(planet: Planet, card: Card, turn: Turn) -> None:
    """Shape checks of the Action alone (effect kinds and counts, distinct spaces)."""
    if turn.action not in ACTIONS:
        raise IllegalMove("Declare one of the Actions A, B, C or D.", "unknown_action")
    for effect in turn.effects:
        if effect.kind not in ACTION_EFFECTS:
            raise InvalidMove(
                f"Unknown effect {effect.kind!r}: an Action plants or grows.",
                "bad_effect",
                {"effect": str(effect.kind)[:20]},
            )
    most_plants, most_grows, most_total = ACTION_LIMITS[turn.action]
    plants = sum(1 for e in turn.effects if e.kind == "plant")
    grows = len(turn.effects) - plants
    name = ACTION_NAMES[turn.action]
    if (plants and not most_plants) or (grows and not most_grows):
        extra = "plant" if plants and not most_plants else "grow"
        raise IllegalMove(
            f"{name} has no {ACTION_EFFECT_NAMES[extra]} effect.",
            "effect_not_allowed",
            {"action": turn.action, "effect": extra},
        )
    if plants > most_plants or grows > most_grows or len(turn.effects) > most_total:
        raise IllegalMove(
            f"Too many effects: {name} allows no more.",
            "too_many_effects",
            {"action": turn.action},
        )
    spaces = [e.space for e in turn.effects]
    if len(set(spaces)) != len(spaces):
        raise IllegalMove(
            f"{name} must use different spaces for its effects.",
            "same_space_twice",
            {"action": turn.action},
        )


def _apply_action(board: list[int], planet: Planet, card: Card, turn: Turn) -> None:
    anywhere = card.suit == WILD or turn.action == "D"
    for effect in turn.effects:
        if not anywhere:
            i = space_index(planet, effect.space)
            if planet.biomes[i] != card.suit:
                raise IllegalMove(
                    f"Your card is {card.suit.capitalize()}: this Action's effects must be in the "
                    f"{card.suit.capitalize()} biome, and {describe(effect.space)} is "
                    f"{str(planet.biomes[i]).capitalize()}.",
                    "wrong_biome",
                    {**at(effect.space), "suit": card.suit, "biome": str(planet.biomes[i])},
                )
        if effect.kind == "plant":
            place(board, planet, effect.space, SPROUT, "a Sprout")
        else:
            generic_growth(board, planet, effect.space)


def _apply_power(
    board: list[int],
    edition: Edition,
    card: Card,
    turn: Turn,
    powers: tuple[int, ...],
    supply: tuple[int, int] | None,
) -> tuple[tuple[int, ...], int]:
    """Upgrade the track and apply the Power; return (new track positions, Bud points)."""
    use = turn.power
    assert use is not None
    planet = edition.planet
    k = POWER_INDEX[use.power]
    levels = edition.power_levels[use.power]
    position = min(powers[k] + 1, len(levels))
    level = levels[position - 1]
    new_powers = (*powers[:k], position, *powers[k + 1 :])
    targets = use.targets
    if use.power == "bud":
        if targets:
            raise IllegalMove(
                "Bud takes no target: it simply scores points.", "bud_takes_no_target"
            )
        return new_powers, level
    if not targets:
        raise IllegalMove(
            "A Power you activate must be applied at least once; leave it out instead.",
            "power_needs_effect",
        )
    if len(targets) > level:
        raise IllegalMove(
            f"Your {use.power.capitalize()} Power is at level {level} after the upgrade: "
            f"at most {level} effect(s), not {len(targets)}.",
            "too_many_effects",
            {"power": use.power, "level": level, "count": len(targets)},
        )
    lake_power = use.power == "lake"
    for target in targets:
        if lake_power != isinstance(target, LakePlacement):
            raise InvalidMove(
                "Place Lake targets are Lake placements; other Powers target spaces.", "bad_power"
            )
    if supply is not None:
        bushes, lakes = use.supply_used()
        if bushes > supply[0]:
            raise IllegalMove(
                f"Only {supply[0]} Bush(es) left in the supply; you asked for {bushes}.",
                "bush_supply_empty",
                {"left": supply[0], "asked": bushes},
            )
        if lakes > supply[1]:
            raise IllegalMove(
                f"Only {supply[1]} Lake(s) left in the supply; you asked for {lakes}.",
                "lake_supply_empty",
                {"left": supply[1], "asked": lakes},
            )
    for target in targets:
        if isinstance(target, LakePlacement):
            lake_index = place(board, planet, target.lake, LAKE, "a Lake")
            if len(target.grow) > 2:
                raise IllegalMove(
                    "A Lake grows at most 2 adjacent spaces.",
                    "too_many_effects",
                    at(target.lake, "lake_"),
                )
            if len(set(target.grow)) != len(target.grow):
                raise IllegalMove(
                    "A Lake's two growths must be in different spaces.",
                    "same_space_twice",
                    at(target.lake, "lake_"),
                )
            for space in target.grow:
                i = space_index(planet, space)
                if i not in planet.neighbours[lake_index]:
                    raise IllegalMove(
                        f"The space at {describe(space)} is not orthogonally adjacent to the Lake at "
                        f"{describe(target.lake)}.",
                        "lake_not_adjacent",
                        {**at(space), **at(target.lake, "lake_")},
                    )
                generic_growth(board, planet, space)
        elif use.power == "sprout":
            place(board, planet, target, SPROUT, "a Sprout")
        elif use.power == "bush":
            place(board, planet, target, BUSH, "a Bush")
        elif use.power == "small":
            _grow_exactly(board, planet, target, SPROUT)
        else:  # big
            _grow_exactly(board, planet, target, SMALL)
    return new_powers, 0


def execute_turn(
    edition: Edition,
    board: tuple[int, ...],
    powers: tuple[int, ...],
    card: Card,
    turn: Turn,
    supply: tuple[int, int] | None,
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Check and carry out ``turn`` with ``card``; return (board, power tracks, Bud points).

    ``supply`` is the shared Bush/Lake supply still available, or None to skip that
    check (when a turn that already reserved its pieces is revealed).
    Raises ``IllegalMove`` (or ``InvalidMove``) and changes nothing when the turn is illegal.
    """
    planet = edition.planet
    check_action(planet, card, turn)
    use = turn.power
    if use is not None:
        if use.power != card.power:
            raise IllegalMove(
                f"Your card's Power is {card.power.capitalize()}, not {use.power.capitalize()}.",
                "wrong_power",
                {"card_power": card.power, "power": use.power},
            )
        if use.timing not in TIMINGS:
            raise InvalidMove("The Power's timing must be 'before' or 'after'.", "bad_timing")
    work = list(board)
    bud = 0
    if use is not None and use.timing == "before":
        powers, bud = _apply_power(work, edition, card, turn, powers, supply)
    _apply_action(work, planet, card, turn)
    if use is not None and use.timing == "after":
        powers, bud = _apply_power(work, edition, card, turn, powers, supply)
    return tuple(work), powers, bud
