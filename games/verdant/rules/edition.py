"""Editions: the printed components of Verdant as data.

An edition (``standard-v1``) fixes the 50 plant cards, the 50 room cards, the item
tokens, the plant pots, the goal cards and the small tables of the rulebook. It is
loaded from a JSON file in ``editions/`` so that a correction is a new data file, never
an engine change; a game stores the name of the edition it was created with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.enginekit.editions import EditionFields, Shelf
from games.enginekit.errors import InvalidEdition
from games.enginekit.titles import earned_title

DEFAULT_EDITION = "standard-v1"
PACKAGE = __name__.rpartition(".")[0]  # the engine, whose editions/ folder holds the files
SIDES: tuple[str, ...] = ("top", "right", "bottom", "left")
POT_KINDS: tuple[str, ...] = ("concrete", "wood", "ceramic", "terracotta")
BONUS_POTS: tuple[str, ...] = ("concrete", "wood", "ceramic")
GOAL_DECKS: tuple[str, ...] = ("plants", "items", "rooms")


@dataclass(frozen=True, slots=True)
class Plant:
    """A plant card: its type, preferred lights, verdancy requirement and points."""

    id: str
    name: str
    type: str
    lights: frozenset[str]
    verdancy: int
    points: int


@dataclass(frozen=True, slots=True)
class Room:
    """A room card: its type (colour) and the light on each edge."""

    id: str
    type: str
    edges: dict[str, str]  # side -> light


@dataclass(frozen=True, slots=True)
class ItemKind:
    """A furniture or pet kind: its colour is a plant/room type."""

    kind: str
    name: str
    group: str  # "furniture" or "pet"
    color: str
    count: int


@dataclass(frozen=True, slots=True)
class Goal:
    """An advanced goal card (scored by ``scoring.goal_points``)."""

    id: str
    deck: str
    name: str
    text: str


@dataclass(frozen=True, eq=False)
class Edition:
    """All the components and tables of one edition."""

    name: str
    plant_types: tuple[str, ...]
    lights: tuple[str, ...]
    columns: int
    rows: int
    turns_per_player: int
    market_columns: int
    plants: dict[str, Plant]
    rooms: dict[str, Room]
    items: dict[str, ItemKind]
    nurture: dict[str, int]  # kind -> count
    pot_values: dict[str, int]
    bonus_pots_by_players: dict[int, int]
    terracotta: int
    max_thumbs: int
    action_cost: int
    start_thumbs: dict[str, int]  # first, last, others, solo
    item_score: tuple[int, ...]
    collector_bonus: int
    decorator_bonus: int
    family_plant_points: int
    solo_titles: tuple[tuple[int, str], ...]
    goals: dict[str, Goal]

    def is_item(self, kind: str) -> bool:
        return kind in self.items

    def is_nurture(self, kind: str) -> bool:
        return kind in self.nurture

    def tokens(self) -> tuple[str, ...]:
        """Every token of the bag, by kind (items first, then nurture), in edition order."""
        bag: list[str] = []
        for item in self.items.values():
            bag.extend([item.kind] * item.count)
        for kind, count in self.nurture.items():
            bag.extend([kind] * count)
        return tuple(bag)

    def goal_deck(self, deck: str) -> tuple[str, ...]:
        return tuple(g.id for g in self.goals.values() if g.deck == deck)

    def solo_title(self, score: int) -> str | None:
        """The solo title a score earns, or None below the lowest threshold."""
        return earned_title(self.solo_titles, score, below=None)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Edition:
        """Build an edition from its JSON form; raises ``InvalidEdition`` when it is wrong."""
        with EditionFields():
            if data["game"] != "verdant":
                raise InvalidEdition("This edition is not a Verdant edition.")
            types = tuple(str(t) for t in data["plant_types"])
            lights = tuple(str(x) for x in data["lights"])
            plants = {}
            for p in data["plants"]:
                plant = Plant(
                    str(p["id"]),
                    str(p["name"]),
                    str(p["type"]),
                    frozenset(str(x) for x in p["lights"]),
                    int(p["verdancy"]),
                    int(p["points"]),
                )
                if plant.type not in types or not plant.lights <= set(lights):
                    raise InvalidEdition(f"Plant {plant.id} has an unknown type or light.")
                plants[plant.id] = plant
            rooms = {}
            for r in data["rooms"]:
                edges = {side: str(r["edges"][side]) for side in SIDES}
                room = Room(str(r["id"]), str(r["type"]), edges)
                if room.type not in types or not set(edges.values()) <= set(lights):
                    raise InvalidEdition(f"Room {room.id} has an unknown type or light.")
                rooms[room.id] = room
            items = {}
            for i in data["items"]:
                item = ItemKind(
                    str(i["kind"]),
                    str(i["name"]),
                    str(i["group"]),
                    str(i["color"]),
                    int(i["count"]),
                )
                if item.group not in ("furniture", "pet") or item.color not in types:
                    raise InvalidEdition(f"Item {item.kind} has an unknown group or colour.")
                items[item.kind] = item
            pots = data["pots"]
            thumbs = data["green_thumb"]
            goals = {}
            for deck in GOAL_DECKS:
                for g in data["goals"][deck]:
                    goals[str(g["id"])] = Goal(str(g["id"]), deck, str(g["name"]), str(g["text"]))
            values = {str(k): int(v) for k, v in pots["values"].items()}
            if set(values) != set(POT_KINDS):
                raise InvalidEdition("The pots must be concrete, wood, ceramic and terracotta.")
            return cls(
                name=str(data["name"]),
                plant_types=types,
                lights=lights,
                columns=int(data["home"]["columns"]),
                rows=int(data["home"]["rows"]),
                turns_per_player=int(data["turns_per_player"]),
                market_columns=int(data["market_columns"]),
                plants=plants,
                rooms=rooms,
                items=items,
                nurture={str(n["kind"]): int(n["count"]) for n in data["nurture"]},
                pot_values=values,
                bonus_pots_by_players={
                    int(k): int(v) for k, v in pots["bonus_per_type_by_players"].items()
                },
                terracotta=int(pots["terracotta"]),
                max_thumbs=int(thumbs["max_held"]),
                action_cost=int(thumbs["action_cost"]),
                start_thumbs={str(k): int(v) for k, v in thumbs["start"].items()},
                item_score=tuple(int(v) for v in data["item_score"]),
                collector_bonus=int(data["collector_bonus"]),
                decorator_bonus=int(data["decorator_bonus"]),
                family_plant_points=int(data["family_plant_points"]),
                solo_titles=tuple((int(t), str(n)) for t, n in data["solo_titles"]),
                goals=goals,
            )


SHELF = Shelf(PACKAGE, Edition.from_dict, DEFAULT_EDITION)
# available_editions() lists the editions shipped in editions/; load_edition(name) loads one
# (default: DEFAULT_EDITION), each once, and raises InvalidEdition for an unknown name.
available_editions = SHELF.names
load_edition = SHELF.load
