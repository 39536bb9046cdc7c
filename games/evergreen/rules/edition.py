"""Editions: the printed components as data.

An edition (``standard-v1``) fixes the planet, the 42 Biome cards, the Power tracks,
the supplies and the small tables of the rulebook. It is loaded from a JSON file in
``editions/`` so that a correction is a new data file, never an engine change; a game
stores the name of the edition it was created with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.enginekit.editions import EditionFields, Shelf
from games.enginekit.errors import InvalidEdition
from games.enginekit.titles import earned_title

from .planet import BIOMES, SUITS, WILD, Planet

POWERS: tuple[str, ...] = ("sprout", "small", "big", "bush", "lake", "bud")
POWER_NAMES: dict[str, str] = {
    "sprout": "Plant Sprout",
    "small": "Small Tree Growth",
    "big": "Big Tree Growth",
    "bush": "Plant Bush",
    "lake": "Place Lake",
    "bud": "Bud",
}
ICONS = ("F1", "F2", "A", "-")
DEFAULT_EDITION = "standard-v1"
PACKAGE = __name__.rpartition(".")[0]  # the engine, whose editions/ folder holds the files


@dataclass(frozen=True)
class Card:
    """One Biome card: ``suit/power`` plus the icon at its top."""

    id: str
    suit: str
    power: str
    fertility: int  # Fertility icons shown (0, 1 or 2)
    aridity: bool

    @property
    def icon(self) -> str:
        if self.aridity:
            return "A"
        return f"F{self.fertility}" if self.fertility else "-"


@dataclass(frozen=True, eq=False)
class Edition:
    """All the components and tables of one edition."""

    name: str
    planet: Planet
    cards: dict[str, Card]
    card_order: tuple[str, ...]
    power_levels: dict[str, tuple[int, ...]]
    supply: dict[str, int]
    season_rounds: tuple[int, ...]
    setup_points: tuple[int, ...]
    setup_fertility_icons: int
    shadow: dict[str, int]  # tree kind -> shadow length
    light: dict[str, int]  # tree kind -> points when lit
    solo_pool: int
    solo_titles: tuple[tuple[int, str], ...]

    @property
    def seasons(self) -> int:
        return len(self.season_rounds)

    def power_value(self, power: str, position: int) -> int:
        """The level printed at ``position`` (1-based) of a Power track; 0 at the start."""
        return self.power_levels[power][position - 1] if position else 0

    def solo_title(self, score: int) -> str:
        return earned_title(self.solo_titles, score, below=self.solo_titles[0][1])

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Edition:
        """Build an edition from its JSON form; raises ``InvalidEdition`` when it is wrong."""
        with EditionFields():
            planet = Planet.parse(data["planet"])
            cards: dict[str, Card] = {}
            for suit, by_power in data["cards"].items():
                if suit not in SUITS:
                    raise InvalidEdition(f"Unknown card suit {suit!r}.")
                for power, icon in by_power.items():
                    if power not in POWERS or icon not in ICONS:
                        raise InvalidEdition(f"Bad card {suit}/{power}: {icon!r}.")
                    if suit == WILD and icon != "-":
                        raise InvalidEdition("Wild cards carry no icon.")
                    fertility = {"F1": 1, "F2": 2}.get(icon, 0)
                    card_id = f"{suit}/{power}"
                    cards[card_id] = Card(card_id, suit, power, fertility, icon == "A")
            levels = {p: tuple(int(v) for v in data["power_levels"][p]) for p in POWERS}
            trees = data["trees"]
            titles = tuple((int(t), str(n)) for t, n in data["solo_titles"])
            return cls(
                name=str(data["name"]),
                planet=planet,
                cards=cards,
                card_order=tuple(cards),
                power_levels=levels,
                supply={"bush": int(data["supply"]["bush"]), "lake": int(data["supply"]["lake"])},
                season_rounds=tuple(int(n) for n in data["season_rounds"]),
                setup_points=tuple(int(n) for n in data["setup_points"]),
                setup_fertility_icons=int(data["setup_fertility_icons"]),
                shadow={k: int(v["shadow"]) for k, v in trees.items()},
                light={k: int(v["light"]) for k, v in trees.items()},
                solo_pool=int(data["solo_pool"]),
                solo_titles=titles,
            )


SHELF = Shelf(PACKAGE, Edition.from_dict, DEFAULT_EDITION)
# available_editions() lists the editions shipped in editions/; load_edition(name) loads one
# (default: DEFAULT_EDITION), each once, and raises InvalidEdition for an unknown name.
available_editions = SHELF.names
load_edition = SHELF.load


__all__ = ["BIOMES", "DEFAULT_EDITION", "POWERS", "Card", "Edition", "load_edition"]
