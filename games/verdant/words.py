"""Verdant's words in the player's language: items, pots, plant types, lights, sides,
solo titles, and the names of cards.

The engine speaks in identifiers (``"cat"``, ``"concrete"``, ``"P100"``); a person reads
these. Plant names are the common names printed on the cards, the same in every language
(as players of the published game use them); everything else is translated.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .rules import load_edition
from .rules.edition import Edition

ITEMS = {
    "terrarium_table": _("Terrarium Table"),
    "tortoise": _("Tortoise"),
    "armchair": _("Armchair"),
    "cat": _("Cat"),
    "bookshelf": _("Bookshelf"),
    "dog": _("Dog"),
    "hanging_lamp": _("Hanging Lamp"),
    "parrot": _("Parrot"),
    "curio_cabinet": _("Curio Cabinet"),
    "goldfish": _("Goldfish"),
    "fertilizer": _("Fertilizer"),
    "trowel": _("Hand Trowel"),
    "watering_can": _("Watering Can"),
}
# "took Monstera and a Cat": the item with its article, as a sentence names it.
ITEMS_WITH_ARTICLE = {
    "terrarium_table": _("a Terrarium Table"),
    "tortoise": _("a Tortoise"),
    "armchair": _("an Armchair"),
    "cat": _("a Cat"),
    "bookshelf": _("a Bookshelf"),
    "dog": _("a Dog"),
    "hanging_lamp": _("a Hanging Lamp"),
    "parrot": _("a Parrot"),
    "curio_cabinet": _("a Curio Cabinet"),
    "goldfish": _("a Goldfish"),
    "fertilizer": _("a Fertilizer"),
    "trowel": _("a Hand Trowel"),
    "watering_can": _("a Watering Can"),
}
POTS = {
    "concrete": _("concrete pot"),
    "wood": _("wooden pot"),
    "ceramic": _("ceramic pot"),
    "terracotta": _("terra cotta pot"),
}
TYPES = {
    "succulent": _("Succulent"),
    "flowering": _("Flowering"),
    "foliage": _("Foliage"),
    "vining": _("Vining"),
    "unusual": _("Unusual"),
}
LIGHTS = {
    "direct": _("direct light"),
    "indirect": _("indirect light"),
    "low": _("low light"),
}
SIDES = {
    "top": pgettext_lazy("verdant side", "above"),
    "right": pgettext_lazy("verdant side", "to the right"),
    "bottom": pgettext_lazy("verdant side", "below"),
    "left": pgettext_lazy("verdant side", "to the left"),
}
TITLES = {
    "A good start!": _("A good start!"),
    "You're getting it!": _("You're getting it!"),
    "Very Good!": _("Very Good!"),
    "Excellent!": _("Excellent!"),
    "Elite!": _("Elite!"),
}
VARIANTS = {"standard": _("Standard"), "family": _("Family")}


def edition(name: str | None = None) -> Edition:
    return load_edition(name) if name else load_edition()


def item(kind: str | None) -> str:
    return str(ITEMS.get(kind or "", kind or ""))


def item_with_article(kind: str | None) -> str:
    return str(ITEMS_WITH_ARTICLE.get(kind or "", kind or ""))


def pot(kind: str | None) -> str:
    return str(POTS.get(kind or "", kind or ""))


def title(name: str | None) -> str:
    return str(TITLES.get(name or "", name or ""))


def card(ed: Edition, card_id: str | None) -> str:
    """A card's name: a plant's common name, or a room by its type ("Succulent room")."""
    if card_id is None:
        return ""
    if card_id in ed.plants:
        return ed.plants[card_id].name
    if card_id in ed.rooms:
        return str(_("%(type)s room") % {"type": TYPES.get(ed.rooms[card_id].type, "")})
    return card_id
