"""The strong player's judgement of a home in progress: its score now and what it promises.

``home_value`` (the greedy bot's) scores a home as if the game ended now. A home in
progress also holds promises the final scoring will pay: an incomplete plant beside an
empty cell will get a room there (the home fills its 5 x 3 rectangle), whose edge may
light it; a room beside an empty cell may get a plant of its type; a plant or room type
still missing may yet come for the collector's and decorator's bonus; a room without an
item may yet hold a new kind (a promise only the search's item target weighs). ``outlook_value``
adds each promise, weighted by ``Outlook``: the chance it is kept, tuned by self-play
(see ``docs/verdant-strong-player.md``). At the game's end no cell is empty and every
promise is zero, so the outlook is the final score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .edition import Edition
from .home import COL_OF, NEIGHBOURS, ROW_OF, Home, is_room
from .policies import home_value
from .state import GameState


@dataclass(frozen=True, slots=True)
class Outlook:
    """How much each promise of a home in progress is worth (see the module docstring)."""

    thumb: float = 0.2  # a green thumb kept
    pot: float = 2.0  # the pot a completion is expected to bring
    light: float = 1.0  # a future room edge lighting a plant, per light the plant likes / 3
    room: float = 0.25  # a future plant of a room's type beside it, per point it would bring
    collector: float = 0.5  # the chance of a missing type's bonus, scaled by slots left
    decorator: float = 0.5
    kinds: float = 0.0  # the item table's steps still open to the home's rooms without an item


# Each cell's neighbours' indices (``NEIGHBOURS`` without the sides).
NEXT_TO: tuple[tuple[int, ...], ...] = tuple(tuple(j for _, j in n) for n in NEIGHBOURS)


def _open_cells(
    cards: Sequence[str | None], occupied: list[int], rows: int, columns: int
) -> set[int]:
    # A cell keeps the home within ``rows`` x ``columns`` exactly when its row and column
    # lie within these bounds (the home already fits): one comparison a neighbour. The
    # occupied cells come in row order, so only the columns need a pass for their bounds.
    row_low = ROW_OF[occupied[-1]] - rows + 1
    row_high = ROW_OF[occupied[0]] + rows - 1
    col_of = [COL_OF[i] for i in occupied]
    col_low, col_high = max(col_of) - columns + 1, min(col_of) + columns - 1
    found = set()
    for i in occupied:
        for j in NEXT_TO[i]:
            if (
                cards[j] is None
                and row_low <= ROW_OF[j] <= row_high
                and col_low <= COL_OF[j] <= col_high
            ):
                found.add(j)
    return found


def open_cells(home: Home, rows: int, columns: int) -> set[int]:
    """Empty cells beside the home where a card may still go (the rectangle allowing)."""
    cards = home.cards
    occupied = [i for i, card in enumerate(cards) if card is not None]
    return _open_cells(cards, occupied, rows, columns)


def _beside(i: int, empty: set[int]) -> int:
    count = 0
    for _, j in NEIGHBOURS[i]:
        if j in empty:
            count += 1
    return count


def _bonus_chance(missing: int, slots: float) -> float:
    """A rough chance to find ``missing`` types in ``slots`` cards still to come."""
    if missing <= 0:
        return 0.0  # already scored by ``home_value``
    if missing > slots:
        return 0.0
    return 1.0 - missing / (slots + 1.0)


def outlook_value(
    home: Home, thumbs: int, state: GameState, ed: Edition, outlook: Outlook
) -> float:
    """``home_value`` plus the home's promises (see the module docstring)."""
    value = home_value(home, thumbs, state, ed, outlook.thumb, outlook.pot)
    if state.family:
        return value
    cards = home.cards
    occupied = [i for i, card in enumerate(cards) if card is not None]
    left = ed.rows * ed.columns - len(occupied)
    if left <= 0:
        return value
    empty = _open_cells(cards, occupied, ed.rows, ed.columns)
    if not empty:
        return value
    plant_types: set[str] = set()
    room_types: set[str] = set()
    for i in occupied:
        card = cards[i]
        assert card is not None
        if card[0] == "P":
            plant = ed.plants[card]
            plant_types.add(plant.type)
            if home.completed[i]:
                continue
            beside = _beside(i, empty)
            if beside:
                need = plant.verdancy - home.verdancy[i]
                share = max(0.5, 0.5 * (plant.points + outlook.pot) / plant.verdancy)
                lit = min(need, beside * outlook.light * len(plant.lights) / 3.0)
                value += lit * share
        else:
            room = ed.rooms[card]
            room_types.add(room.type)
            beside = _beside(i, empty)
            if beside:
                item = home.items[i]
                per_plant = 2 if item is not None and ed.items[item].color == room.type else 1
                value += beside * outlook.room * per_plant
    slots = left / 2.0
    kinds = len(ed.plant_types)
    value += ed.collector_bonus * outlook.collector * _bonus_chance(kinds - len(plant_types), slots)
    value += ed.decorator_bonus * outlook.decorator * _bonus_chance(kinds - len(room_types), slots)
    if outlook.kinds:
        table = ed.item_score
        top = len(table) - 1
        held = min(len({item for item in home.items if item is not None}), top)
        bare = sum(1 for i in occupied if is_room(cards[i]) and home.items[i] is None)
        value += outlook.kinds * (table[min(held + bare, top)] - table[held])
    return value


class HomeCells(Protocol):
    """A home's cells, frozen (``Home``) or being built (a turn's ``WorkingHome``)."""

    @property
    def cards(self) -> Sequence[str | None]: ...
    @property
    def verdancy(self) -> Sequence[int]: ...
    @property
    def completed(self) -> Sequence[bool]: ...
    @property
    def pots(self) -> Sequence[str | None]: ...
    @property
    def items(self) -> Sequence[str | None]: ...


def quick_outlook_value(
    home: HomeCells, thumbs: int, state: GameState, ed: Edition, outlook: Outlook
) -> float:
    """``outlook_value`` in one pass over the home, equal to it (a test checks): the
    search's rollouts spend most of their time valuing homes.

    It reads the cells of a home being built too, so a turn need not freeze one. Goal
    cards and the family variant take the general path.
    """
    if state.family or state.goals:
        frozen = Home(
            tuple(home.cards),
            tuple(home.verdancy),
            tuple(home.completed),
            tuple(home.pots),
            tuple(home.items),
        )
        return outlook_value(frozen, thumbs, state, ed, outlook)
    cards = home.cards
    occupied = [i for i, card in enumerate(cards) if card is not None]
    if not occupied:
        return outlook.thumb * min(thumbs, ed.max_thumbs)
    left = ed.rows * ed.columns - len(occupied)
    empty = _open_cells(cards, occupied, ed.rows, ed.columns) if left > 0 else set()
    verdancy, completed, items = home.verdancy, home.completed, home.items
    plants, rooms_of, pot_values = ed.plants, ed.rooms, ed.pot_values
    pot = outlook.pot
    value = outlook.thumb * min(thumbs, ed.max_thumbs)
    plant_types: set[str] = set()
    room_types: set[str] = set()
    kinds: set[str] = set()
    bare = 0  # rooms without an item
    for i in occupied:
        card = cards[i]
        assert card is not None
        if card[0] == "P":
            plant = plants[card]
            plant_types.add(plant.type)
            if completed[i]:
                value += plant.points
                placed = home.pots[i]
                if placed is not None:
                    value += pot_values[placed]
                continue
            share = max(0.5, 0.5 * (plant.points + pot) / plant.verdancy)
            value += verdancy[i] * share
            if empty and outlook.light:  # (a light of 0 promises nothing)
                beside = sum(j in empty for j in NEXT_TO[i])
                if beside:
                    need = plant.verdancy - verdancy[i]
                    lit = min(need, beside * outlook.light * len(plant.lights) / 3.0)
                    value += lit * share
            continue
        room = rooms_of[card]
        room_types.add(room.type)
        item = items[i]
        per_plant = 1
        if item is None:
            bare += 1
        else:
            kinds.add(item)
            if ed.items[item].color == room.type:
                per_plant = 2
        beside = 0
        for j in NEXT_TO[i]:
            other = cards[j]
            if other is None:
                beside += j in empty
            elif other[0] == "P" and plants[other].type == room.type:
                value += per_plant
        if beside:
            value += beside * outlook.room * per_plant
    table = ed.item_score
    top = len(table) - 1
    held = min(len(kinds), top)
    value += table[held]
    if empty and outlook.kinds:
        value += outlook.kinds * (table[min(held + bare, top)] - table[held])
    types = len(ed.plant_types)
    if len(plant_types) == types:
        value += ed.collector_bonus
    if len(room_types) == types:
        value += ed.decorator_bonus
    if empty:
        slots = left / 2.0
        bonus = ed.collector_bonus * outlook.collector
        value += bonus * _bonus_chance(types - len(plant_types), slots)
        bonus = ed.decorator_bonus * outlook.decorator
        value += bonus * _bonus_chance(types - len(room_types), slots)
    return value


__all__ = ["HomeCells", "Outlook", "open_cells", "outlook_value", "quick_outlook_value"]
