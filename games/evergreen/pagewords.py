"""The words of Evergreen's game page in one language, translated once (``words()``), and
what was drawn with them (the markup and labels of spaces, card faces and chips), which
``games.evergreen.svg`` reuses from one request to the next."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .words import (
    BIOME_NAMES,
    EFFECT_NAMES,
    ICON_NAMES,
    PIECE_NAMES,
    POWER_HELP,
    POWER_NAMES,
    SUN_SIDES,
)

if TYPE_CHECKING:  # the described values; their modules call these functions
    from .cards import CardInfo
    from .planets import Cell

KEPT = 5000  # spaces (markup, labels) remembered per language: a few MB at most


class Words:
    """The words of the game page in one language, translated once (``words()``).

    It also remembers what it drew: a space's markup and label depend only on the space
    (a ``planets.Cell``, a named tuple) and the language, and most spaces look the
    same from one request to the next.
    """

    def __init__(self) -> None:
        self.biomes = {key: str(name) for key, name in BIOME_NAMES.items()}
        self.pieces = {key: str(name) for key, name in PIECE_NAMES.items()}
        self.powers = {key: str(name) for key, name in POWER_NAMES.items()}
        self.power_help = {key: str(text) for key, text in POWER_HELP.items()}
        self.icons = {key: str(name) for key, name in ICON_NAMES.items()}
        self.effects = {key: str(name) for key, name in EFFECT_NAMES.items()}
        self.sides = {key: str(name) for key, name in SUN_SIDES.items()}
        # Planets
        self.crevice = _("crevice")
        self.empty = _("empty")
        self.in_shadow = _("in shadow")
        self.in_forest = _("in the biggest Forest")
        self.space = _("row %(row)s, column %(col)s")
        self.cell = _("%(where)s: %(what)s")
        self.button = _("%(effect)s at %(where)s (%(what)s)")
        self.title = _(
            "%(name)s's planet: %(light)s Light points with the Sun now, biggest Forest %(forest)s"
        )
        self.sun_now = _("The Sun now shines %(side)s")
        self.sun_next = _("Next season the Sun shines %(side)s")
        self.no_pieces = _("No pieces yet.")
        # Cards, tracks, the Fertility Zone, scores
        self.card = _("%(suit)s card, Power %(power)s, %(icon)s")
        self.start = _("start")
        self.level = _("level %(level)s")
        self.next_level = _("this round: up to %(level)s")
        self.face_down = _("face down")
        self.no_card = _("no card")
        self.you = _("you")
        self.first_player = _("First Player")
        self.turn_submitted = _("turn submitted")
        self._plurals: dict[tuple[str, int], str] = {}
        self.face_down_chip = f'<span class="chip is-down">{escape(self.face_down)}</span>'
        # Cards as the page shows them, by suit, Power and icon: a face, a face-up chip.
        self.faces: dict[tuple[str, str, str], SafeString] = {}
        self.chips: dict[tuple[str, str, str], str] = {}
        self.drawn: dict[Cell, str] = {}
        self.labels: dict[Cell, str] = {}

    # Plurals: one ngettext call each (so that makemessages finds them), kept per number.
    def light_points(self, n: int) -> str:
        key = ("light", n)
        if key not in self._plurals:
            text = ngettext("%(n)s Light point", "%(n)s Light points", n)
            self._plurals[key] = text % {"n": n}
        return self._plurals[key]

    def fertility(self, n: int) -> str:
        key = ("fertility", n)
        if key not in self._plurals:
            self._plurals[key] = ngettext("%(n)s Fertility", "%(n)s Fertility", n) % {"n": n}
        return self._plurals[key]

    def pieces_on_planet(self, n: int) -> str:
        key = ("pieces", n)
        if key not in self._plurals:
            text = ngettext("%(n)s piece on this planet", "%(n)s pieces on this planet", n)
            self._plurals[key] = text % {"n": n}
        return self._plurals[key]

    def where(self, row: int, col: int) -> str:
        return self.space % {"row": row, "col": col}

    def description(self, cell: Cell) -> str:
        """What is there: biome, piece, shadow, Light, Forest."""
        if cell.kind == "crevice":
            return self.crevice
        parts = [
            self.biomes[cell.biome or ""],
            self.pieces[cell.piece] if cell.piece else self.empty,
        ]
        if cell.shaded:
            parts.append(self.in_shadow)
        if cell.light is not None:
            parts.append(self.light_points(cell.light))
        if cell.forest:
            parts.append(self.in_forest)
        return ", ".join(parts)

    def label(self, cell: Cell) -> str:
        """ "Row 2, column 3: Snow, Small Tree, 1 Light point"."""
        label = self.labels.get(cell)
        if label is None:
            where = self.where(cell.row, cell.col)
            label = self.cell % {
                "where": where[:1].upper() + where[1:],
                "what": self.description(cell),
            }
            keep(self.labels, cell, label)
        return label

    def button_label(self, cell: Cell) -> str:
        return self.button % {
            "effect": self.effects[cell.target] if cell.target else "",
            "where": self.where(cell.row, cell.col),
            "what": self.description(cell),
        }

    def card_label(self, card: CardInfo) -> str:
        return self.card % {
            "suit": self.biomes[card.suit],
            "power": self.powers[card.power],
            "icon": self.icons[card.icon],
        }


def keep(memory: dict[Cell, str], cell: Cell, text: str) -> None:
    if len(memory) >= KEPT:
        memory.clear()
    memory[cell] = text


@cache
def _words(language: str | None) -> Words:
    return Words()


def words() -> Words:
    """The words for the active language."""
    return _words(get_language())


@receiver(setting_changed)
def _forget_words(*, setting: str, **kwargs: object) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"):
        _words.cache_clear()
