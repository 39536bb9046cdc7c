"""The learnt value of a home being planned, quickly: ``predict(weights, quick_features(...))``
to the last bit, with what depends only on where the cards lie remembered.

The planner values every step of every cell of every selection, and within one turn the
cards stay where they are while items, verdancy and thumbs change; so each arrangement of
cards is read once (``Layout``: the plants and rooms in cell order, each room's plants of
its type beside it and its open cells, the types held, the bonuses' promises) and the
weighted sum is taken term by term in ``FEATURES`` order, as ``predict`` adds them. A test
values every home of games both ways and finds them equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .edition import Edition
from .outlook import NEXT_TO, HomeCells, Outlook, _bonus_chance, _open_cells
from .state import GameState

# The outlook inside the learnt features: the strong player's (``strong.OUTLOOK``, which
# imports this module, so it is written again here; a test checks they are equal).
FEATURE_OUTLOOK = Outlook(light=0.0, room=0.5, collector=1.0, decorator=1.0, pot=3.0)

LAYOUTS_KEPT = 200_000  # arrangements remembered before the memory starts again


def market_tokens(
    state: GameState, ed: Edition, kinds: set[str], taken: int | None
) -> tuple[int, int]:
    """The market's tokens left once the turn's (column ``taken``) is gone: items of a kind
    not in ``kinds``, and nurture tokens (two of the learnt features)."""
    new = nurture = 0
    for column, token in enumerate(state.market_tokens):
        if token is None or column == taken:
            continue
        if ed.is_item(token):
            new += token not in kinds
        else:
            nurture += 1
    return new, nurture


@dataclass(frozen=True, slots=True)
class Layout:
    """What a home's value owes to where its cards lie (see the module docstring)."""

    plants: tuple[tuple[int, int, int, float], ...]  # (cell, points, verdancy, share)
    rooms: tuple[tuple[int, str, int, int], ...]  # (cell, type, plants of it beside, open)
    room_cards: int
    plant_types: int
    room_types: int
    bonuses: int  # collector + decorator earned
    collector_promise: float | None  # None: no open cell, so no promise is added
    decorator_promise: float


_LAYOUTS: dict[int, tuple[Edition, dict[tuple[str | None, ...], Layout]]] = {}


def layout(cards: Sequence[str | None], ed: Edition) -> Layout:
    """The ``Layout`` of ``cards`` (remembered)."""
    entry = _LAYOUTS.get(id(ed))
    if entry is None or entry[0] is not ed:
        entry = _LAYOUTS[id(ed)] = (ed, {})
    known = entry[1]
    key = tuple(cards)
    found = known.get(key)
    if found is None:
        if len(known) >= LAYOUTS_KEPT:
            known.clear()
        found = known[key] = _read_layout(key, ed)
    return found


def _read_layout(cards: tuple[str | None, ...], ed: Edition) -> Layout:
    look = FEATURE_OUTLOOK
    occupied = [i for i, card in enumerate(cards) if card is not None]
    left = ed.rows * ed.columns - len(occupied)
    empty = _open_cells(cards, occupied, ed.rows, ed.columns) if occupied and left > 0 else set()
    plants: list[tuple[int, int, int, float]] = []
    rooms: list[tuple[int, str, int, int]] = []
    plant_types: set[str] = set()
    room_types: set[str] = set()
    for i in occupied:
        card = cards[i]
        assert card is not None
        if card[0] == "P":
            plant = ed.plants[card]
            plant_types.add(plant.type)
            share = max(0.5, 0.5 * (plant.points + look.pot) / plant.verdancy)
            plants.append((i, plant.points, plant.verdancy, share))
            continue
        room = ed.rooms[card]
        room_types.add(room.type)
        beside = same = 0
        for j in NEXT_TO[i]:
            other = cards[j]
            if other is None:
                beside += j in empty
            elif other[0] == "P" and ed.plants[other].type == room.type:
                same += 1
        rooms.append((i, room.type, same, beside))
    types = len(ed.plant_types)
    bonuses = ed.collector_bonus * (len(plant_types) == types)
    bonuses += ed.decorator_bonus * (len(room_types) == types)
    collector = decorator = None
    if empty:
        slots = left / 2.0
        collector = (
            ed.collector_bonus * look.collector * _bonus_chance(types - len(plant_types), slots)
        )
        decorator = (
            ed.decorator_bonus * look.decorator * _bonus_chance(types - len(room_types), slots)
        )
    return Layout(
        tuple(plants),
        tuple(rooms),
        len(rooms),
        len(plant_types),
        len(room_types),
        bonuses,
        collector,
        decorator or 0.0,
    )


def quick_prediction(
    weights: Sequence[float],
    home: HomeCells,
    held_thumbs: int,
    stored: str | None,
    state: GameState,
    ed: Edition,
    taken: int | None,
) -> float:
    """``predict(weights, quick_features(home, held_thumbs, stored, state, ed, taken))``,
    equal to the last bit, for a game without goal cards or the family variant."""
    look = FEATURE_OUTLOOK
    lay = layout(home.cards, ed)
    verdancy_of, completed, pots_of, items = home.verdancy, home.completed, home.pots, home.items
    pot_values, item_color = ed.pot_values, ed.items
    thumbs = min(held_thumbs, ed.max_thumbs)
    plant_points = pots = rooms = incomplete = verdancy = need = bare = 0
    progress = promise = 0.0
    kinds: set[str] = set()
    for i, points, full, share in lay.plants:
        if completed[i]:
            plant_points += points
            placed = pots_of[i]
            if placed is not None:
                pots += pot_values[placed]
            continue
        v = verdancy_of[i]
        incomplete += 1
        verdancy += v
        need += full - v
        progress += v * share
    room_weight = look.room
    for i, room_type, same, beside in lay.rooms:
        item = items[i]
        per_plant = 1
        if item is None:
            bare += 1
        else:
            kinds.add(item)
            if item_color[item].color == room_type:
                per_plant = 2
        rooms += same * per_plant
        promise += beside * room_weight * per_plant
    table = ed.item_score
    item_points = table[min(len(kinds), len(table) - 1)]
    bonuses = lay.bonuses
    if lay.collector_promise is not None:
        promise += lay.collector_promise
        promise += lay.decorator_promise
    settled = plant_points + pots + rooms + item_points + bonuses
    outlook = look.thumb * thumbs + settled + progress + promise
    market_new, market_nurture = market_tokens(state, ed, kinds, taken)
    has_stored = stored is not None
    stored_new = has_stored and ed.is_item(stored) and stored not in kinds  # type: ignore[arg-type]
    w = weights
    return (
        w[0] * 1.0
        + w[1] * outlook
        + w[2] * float(plant_points)
        + w[3] * float(pots)
        + w[4] * float(rooms)
        + w[5] * float(item_points)
        + w[6] * float(bonuses)
        + w[7] * float(incomplete)
        + w[8] * float(verdancy)
        + w[9] * float(need)
        + w[10] * float(len(kinds))
        + w[11] * float(bare)
        + w[12] * float(lay.room_cards)
        + w[13] * float(lay.plant_types)
        + w[14] * float(lay.room_types)
        + w[15] * float(thumbs)
        + w[16] * float(has_stored)
        + w[17] * float(stored_new)
        + w[18] * float(market_new)
        + w[19] * float(market_nurture)
    )
