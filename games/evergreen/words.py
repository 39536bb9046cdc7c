"""Evergreen's words in the active language: seasons, biomes, Powers, pieces, icons,
Actions, solo titles, card names, spaces.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import rules
from .rules.planet import Space

SEASON_NAMES = (
    gettext_lazy("Spring"),
    gettext_lazy("Summer"),
    gettext_lazy("Autumn"),
    gettext_lazy("Winter"),
)
BIOME_NAMES = {
    "snow": gettext_lazy("Snow"),
    "swamp": gettext_lazy("Swamp"),
    "rock": gettext_lazy("Rock"),
    "flowers": gettext_lazy("Flowers"),
    "wheat": gettext_lazy("Wheat"),
    "grassland": gettext_lazy("Grassland"),
    "wild": gettext_lazy("Wild"),
}
POWER_NAMES = {
    "sprout": gettext_lazy("Plant Sprout"),
    "small": gettext_lazy("Small Tree Growth"),
    "big": gettext_lazy("Big Tree Growth"),
    "bush": gettext_lazy("Plant Bush"),
    "lake": gettext_lazy("Place Lake"),
    "bud": gettext_lazy("Bud"),
}
PIECE_NAMES = {
    "sprout": gettext_lazy("Sprout"),
    "small": gettext_lazy("Small Tree"),
    "big": gettext_lazy("Big Tree"),
    "bush": gettext_lazy("Bush"),
    "lake": gettext_lazy("Lake"),
}
# What each Power does (tooltips on the board, the rules page).
POWER_HELP = {
    "sprout": gettext_lazy("Place a Sprout on an empty space, in any biome."),
    "small": gettext_lazy("Turn a Sprout into a Small Tree, in any biome."),
    "big": gettext_lazy("Turn a Small Tree into a Big Tree, in any biome."),
    "bush": gettext_lazy("Place a Bush on an empty space: it collects no Light but joins Forests."),
    "lake": gettext_lazy(
        "Place a Lake on an empty space, then grow up to 2 different spaces next to it."
    ),
    "bud": gettext_lazy("Score at once as many points as the level the track shows."),
}
ICON_NAMES = {
    "F1": gettext_lazy("1 Fertility icon"),
    "F2": gettext_lazy("2 Fertility icons"),
    "A": gettext_lazy("Aridity"),
    "-": gettext_lazy("no icon"),
}
ACTION_TEXT = {
    "A": gettext_lazy("Up to 3 Plant Sprout in your card's biome"),
    "B": gettext_lazy("Up to 2 Generic Growth in your card's biome, in different spaces"),
    "C": gettext_lazy("Up to 1 Plant Sprout and 1 Generic Growth in your card's biome"),
    "D": gettext_lazy("1 Plant Sprout or 1 Generic Growth anywhere"),
}
ACTION_EFFECT_NAMES = {
    "plant": gettext_lazy("Plant Sprout"),
    "grow": gettext_lazy("Generic Growth"),
}
# The solo titles of the edition's table (games/evergreen/rules/editions), as the rulebooks name them.
SOLO_TITLES = {
    "Broccoli": gettext_lazy("Broccoli"),
    "Bonsai": gettext_lazy("Bonsai"),
    "Olive Tree": gettext_lazy("Olive Tree"),
    "Holly": gettext_lazy("Holly"),
    "Birch": gettext_lazy("Birch"),
    "Pine": gettext_lazy("Pine"),
    "Oak": gettext_lazy("Oak"),
    "Baobab": gettext_lazy("Baobab"),
    "Legendary Sequoia": gettext_lazy("Legendary Sequoia"),
}
EFFECT_NAMES = {
    "plant": gettext_lazy("Plant a Sprout"),
    "grow": gettext_lazy("Grow"),
    "sprout": gettext_lazy("Plant a Sprout"),
    "small": gettext_lazy("Grow a Sprout into a Small Tree"),
    "big": gettext_lazy("Grow a Small Tree into a Big Tree"),
    "bush": gettext_lazy("Plant a Bush"),
    "lake": gettext_lazy("Place a Lake"),
    "lake_grow": gettext_lazy("Grow beside the Lake"),
}
SUN_SIDES = {
    "N": gettext_lazy("from the north (top)"),
    "E": gettext_lazy("from the east (right)"),
    "S": gettext_lazy("from the south (bottom)"),
    "W": gettext_lazy("from the west (left)"),
}
SUN_ANGLES = {"N": 0, "E": 90, "S": 180, "W": 270}


def season_name(season: int) -> str:
    if 1 <= season <= len(SEASON_NAMES):
        return str(SEASON_NAMES[season - 1])
    return _("Season %(number)s") % {"number": season}


def solo_title(title: str) -> str:
    """A solo title of the edition in the active language."""
    return str(SOLO_TITLES.get(title, title))


def card_name(card_id: str) -> str:
    """A card of the standard edition by its id ("snow/sprout"), as the page names it."""
    edition = rules.load_edition(rules.DEFAULT_EDITION)
    if card_id not in edition.cards:
        return card_id[:40]
    card = edition.cards[card_id]
    return _("%(biome)s (%(power)s)") % {
        "biome": BIOME_NAMES[card.suit],
        "power": POWER_NAMES[card.power],
    }


def space_text(space: Space) -> str:
    # Numbered from 0, like the engine's messages and the API.
    return _("row %(row)s, column %(col)s") % {"row": space[0], "col": space[1]}
