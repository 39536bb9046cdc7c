"""End-of-game scoring (ruling 10), the goal cards (ruling 13) and the family variant (12).

``score_home`` scores one home: the engine at the end of the game, the bots on homes in
progress and the ``score`` command on a home read from JSON all call it, so each rule is
written once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .edition import Edition
from .home import DIAGONALS, NEIGHBOURS, OPPOSITE, Home, is_plant, is_room, position

SCORE_FIELDS = (
    "plants",
    "incomplete",
    "pots",
    "rooms",
    "items",
    "collector",
    "decorator",
    "goals",
)


@dataclass(frozen=True, slots=True)
class Score:
    """One home's score sheet, in the order of the rulebook's score pad."""

    plants: int = 0
    incomplete: int = 0
    pots: int = 0
    rooms: int = 0
    items: int = 0
    collector: int = 0
    decorator: int = 0
    goals: int = 0

    @property
    def total(self) -> int:
        # Summed by name: ``dataclasses.astuple`` deep-copies every field, and the total is
        # asked for on every page (each home, each round of the log) and in every bot's search.
        return sum(self._values())

    def to_json(self) -> dict[str, int]:
        values = self._values()
        return {**dict(zip(SCORE_FIELDS, values, strict=True)), "total": sum(values)}

    def _values(self) -> tuple[int, ...]:
        return tuple(getattr(self, name) for name in SCORE_FIELDS)


def light_match_count(home: Home, ed: Edition) -> int:
    """Room edges touching a plant that prefers that edge's light."""
    count = 0
    for i in home.occupied:
        card = home.cards[i]
        if not is_plant(card):
            continue
        assert card is not None
        lights = ed.plants[card].lights
        for side, j in NEIGHBOURS[i]:
            room = home.cards[j]
            if is_room(room):
                assert room is not None
                if ed.rooms[room].edges[OPPOSITE[side]] in lights:
                    count += 1
    return count


def _rooms(home: Home) -> list[int]:
    return [i for i in home.occupied if is_room(home.cards[i])]


def _plants(home: Home) -> list[int]:
    return [i for i in home.occupied if is_plant(home.cards[i])]


def _matching_item(home: Home, i: int, ed: Edition) -> bool:
    item, room = home.items[i], home.cards[i]
    return item is not None and room is not None and ed.items[item].color == ed.rooms[room].type


def _corners(cells: Iterable[int]) -> set[tuple[int, int]]:
    spots = [position(i) for i in cells]
    if not spots:
        return set()
    rows = [r for r, _ in spots]
    cols = [c for _, c in spots]
    return {(r, c) for r in (min(rows), max(rows)) for c in (min(cols), max(cols))}


GoalRule = Callable[[Home, Edition, int], int]


def _completed_by_type(home: Home, ed: Edition) -> Counter[str]:
    return Counter(
        ed.plants[c].type for i in _plants(home) if home.completed[i] and (c := home.cards[i])
    )


def _green_collection(home: Home, ed: Edition, thumbs: int) -> int:
    return min(10, 2 * sum(1 for n in _completed_by_type(home, ed).values() if n >= 2))


def _specialist(home: Home, ed: Edition, thumbs: int) -> int:
    return 5 if any(n >= 4 for n in _completed_by_type(home, ed).values()) else 0


def _big_growers(home: Home, ed: Edition, thumbs: int) -> int:
    return 2 * sum(
        1
        for i in _plants(home)
        if home.completed[i] and (c := home.cards[i]) and ed.plants[c].verdancy >= 5
    )


def _no_plant_left_behind(home: Home, ed: Edition, thumbs: int) -> int:
    plants = _plants(home)
    return 6 if plants and all(home.completed[i] for i in plants) else 0


def _items_of_group(group: str) -> GoalRule:
    def rule(home: Home, ed: Edition, thumbs: int) -> int:
        return 2 * sum(
            1 for i in _rooms(home) if (item := home.items[i]) and ed.items[item].group == group
        )

    return rule


def _matching_decor(home: Home, ed: Edition, thumbs: int) -> int:
    return 2 * sum(1 for i in _rooms(home) if _matching_item(home, i, ed))


def _green_thumb(home: Home, ed: Edition, thumbs: int) -> int:
    return thumbs // 2


def _colorful_rows(home: Home, ed: Edition, thumbs: int) -> int:
    rows: dict[int, set[str]] = {}
    for i in _rooms(home):
        card = home.cards[i]
        assert card is not None
        rows.setdefault(position(i)[0], set()).add(ed.rooms[card].type)
    return 3 * sum(1 for types in rows.values() if len(types) >= 3)


def _suites(home: Home, ed: Edition, thumbs: int) -> int:
    pairs = 0
    for i in _rooms(home):
        card = home.cards[i]
        assert card is not None
        for j in DIAGONALS[i]:
            other = home.cards[j]
            if j > i and is_room(other) and other and ed.rooms[other].type == ed.rooms[card].type:
                pairs += 1
    return 2 * pairs


def _corner_rooms(home: Home, ed: Edition, thumbs: int) -> int:
    corners = _corners(home.occupied)
    return 2 * sum(1 for i in _rooms(home) if position(i) in corners)


def _well_lit(home: Home, ed: Edition, thumbs: int) -> int:
    return light_match_count(home, ed) // 2


GOAL_RULES: dict[str, GoalRule] = {
    "GP1": _green_collection,
    "GP2": _specialist,
    "GP3": _big_growers,
    "GP4": _no_plant_left_behind,
    "GI1": _items_of_group("pet"),
    "GI2": _items_of_group("furniture"),
    "GI3": _matching_decor,
    "GI4": _green_thumb,
    "GR1": _colorful_rows,
    "GR2": _suites,
    "GR3": _corner_rooms,
    "GR4": _well_lit,
}


def goal_points(goal: str, home: Home, ed: Edition, thumbs: int) -> int:
    """What one goal card gives this home (``thumbs``: green thumbs held at the end)."""
    return GOAL_RULES[goal](home, ed, thumbs)


def score_home(
    home: Home, ed: Edition, *, family: bool = False, goals: Iterable[str] = (), thumbs: int = 0
) -> Score:
    """Score one home as at the end of the game (ruling 10; ruling 12 when ``family``)."""
    plants_points = incomplete = pots = rooms = 0
    plant_types: set[str] = set()
    room_types: set[str] = set()
    kinds: set[str] = set()
    cards = home.cards
    for i in home.occupied:
        card = cards[i]
        assert card is not None
        if card[0] == "P":
            plant = ed.plants[card]
            plant_types.add(plant.type)
            if home.completed[i]:
                plants_points += ed.family_plant_points if family else plant.points
                pot = home.pots[i]
                if pot is not None and not family:
                    pots += ed.pot_values[pot]
            else:
                incomplete += home.verdancy[i]
            continue
        room = ed.rooms[card]
        room_types.add(room.type)
        item = home.items[i]
        if item is not None:
            kinds.add(item)
        per_plant = 2 if _matching_item(home, i, ed) else 1
        for _, j in NEIGHBOURS[i]:
            other = cards[j]
            if other is not None and other[0] == "P" and ed.plants[other].type == room.type:
                rooms += per_plant
    table = ed.item_score
    return Score(
        plants=plants_points,
        incomplete=0 if family else incomplete // 2,
        pots=pots,
        rooms=rooms,
        items=table[min(len(kinds), len(table) - 1)],
        collector=ed.collector_bonus if len(plant_types) == len(ed.plant_types) else 0,
        decorator=ed.decorator_bonus if len(room_types) == len(ed.plant_types) else 0,
        goals=sum(goal_points(g, home, ed, thumbs) for g in goals),
    )
