"""What the Verdant page draws: the market's columns and every home as cells of a grid,
ready for the SVG templates (positions in pixels, names in the player's language).

A home is drawn over the smallest window that holds its cards and the cells offered to
the viewer; each card says its type with a colour and a pattern (``_defs.html``), a room
its edge lights, a plant its preferred lights, verdancy and requirement, or its pot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from . import words
from .rules.edition import Edition

CELL = 72  # pixels per cell in the SVG
LIGHT_LETTERS = {"direct": "D", "indirect": "I", "low": "L"}


def _cell_key(key: str) -> tuple[int, int]:
    row, col = key.split(",")
    return (int(row), int(col))


def plant_card(ed: Edition, card_id: str) -> dict[str, Any]:
    plant = ed.plants[card_id]
    return {
        "id": card_id,
        "kind": "plant",
        "name": plant.name,
        "type": plant.type,
        "type_name": str(words.TYPES[plant.type]),
        "lights": [
            {"light": light, "letter": LIGHT_LETTERS[light], "name": str(words.LIGHTS[light])}
            for light in ed.lights
            if light in plant.lights
        ],
        "requirement": plant.verdancy,
        "points": plant.points,
        "verdancy": 0,  # a plant in the market has none yet; a home's cell says its own
    }


def room_card(ed: Edition, card_id: str) -> dict[str, Any]:
    room = ed.rooms[card_id]
    return {
        "id": card_id,
        "kind": "room",
        "name": words.card(ed, card_id),
        "type": room.type,
        "type_name": str(words.TYPES[room.type]),
        "edges": {
            side: {
                "light": light,
                "letter": LIGHT_LETTERS[light],
                "name": str(words.LIGHTS[light]),
            }
            for side, light in room.edges.items()
        },
    }


def card(ed: Edition, card_id: str) -> dict[str, Any]:
    """The card's facts as the templates show them (a new dict: a home's cell adds its
    own to it; what is inside is shared, never changed)."""
    return dict(_card(get_language(), ed, card_id))


@cache
def _card(language: str | None, ed: Edition, card_id: str) -> dict[str, Any]:
    """``card`` in ``language``, made once per process: a five-player page shows about
    fifty cards, their words looked up again for each page."""
    return plant_card(ed, card_id) if card_id in ed.plants else room_card(ed, card_id)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: object) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"):
        _card.cache_clear()
        _face.cache_clear()


def card_svg(
    ed: Edition,
    card_id: str,
    *,
    verdancy: int = 0,
    completed: bool = False,
    pot: str | None = None,
    item: str | None = None,
    size: int = CELL,
) -> SafeString:
    """The card drawn by ``_card.html`` (its face, ``size`` pixels square, at the origin)
    as a home's cell shows it (its verdancy, whether completed, its pot and item kinds; a
    market's card has none), drawn once per process for the same facts and language:
    every page draws the same few dozen cards again."""
    return _face(get_language(), ed, card_id, verdancy, completed, pot, item, size)


# About 1 kB a face: at most some 4 MB a process, the least recently drawn forgotten first.
@lru_cache(maxsize=4096)
def _face(
    language: str | None,
    ed: Edition,
    card_id: str,
    verdancy: int,
    completed: bool,
    pot: str | None,
    item: str | None,
    size: int,
) -> SafeString:
    """``card_svg`` in ``language`` (the active one), keyed on the facts themselves: a key
    digested from the card's whole dict of words cost more than a home's template loop."""
    facts = {
        **_card(language, ed, card_id),
        "verdancy": verdancy,
        "completed": completed,
        "pot": words.pot(pot) if pot else None,
        "item": token(ed, item),
    }
    return mark_safe(render_to_string("games/verdant/_card.html", {"c": facts, "size": size}))


def token(ed: Edition, kind: str | None) -> dict[str, Any] | None:
    if kind is None:
        return None
    group = ed.items[kind].group if ed.is_item(kind) else "nurture"
    color = ed.items[kind].color if ed.is_item(kind) else None
    return {"kind": kind, "name": words.item(kind), "group": group, "color": color}


def market(ed: Edition, view: Mapping[str, Any]) -> list[dict[str, Any]]:
    columns = []
    for column in view["market"]:
        columns.append(
            {
                "column": column["column"],
                "plant": _drawn(ed, column["plant"]) if column["plant"] else None,
                "plant_thumbs": column["plant_thumbs"],
                "token": token(ed, column["token"]),
                "room": _drawn(ed, column["room"]) if column["room"] else None,
                "room_thumbs": column["room_thumbs"],
                "pot": words.pot(column["pot"]) if column["pot"] else None,
            }
        )
    return columns


def _drawn(ed: Edition, card_id: str) -> dict[str, Any]:
    """A market's card: its facts and its face."""
    return {**card(ed, card_id), "svg": card_svg(ed, card_id)}


def placed(cells: Sequence[Mapping[str, Any]]) -> SafeString:
    """The cells' drawn cards, each in its place: written here rather than in a template
    loop, which cost a home about half a millisecond (fifteen cards, four values each)
    on every page for what is a few joined strings."""
    return mark_safe(  # a kind is "plant" or "room", x and y numbers, the svg drawn safe
        "".join(
            f'<g class="vcard vcard-{c["kind"]}" transform="translate({c["x"]},{c["y"]})">'
            f"{c['svg']}</g>"
            for c in cells
        )
    )


def home(
    ed: Edition,
    cells: Mapping[str, Mapping[str, Any]],
    offered: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """A home's cells in pixels, each card drawn (``svg``: all of them in their places);
    ``offered`` are the builder's answers with a ``cell`` (drawn as links to choose them)."""
    taken = {_cell_key(key): cell for key, cell in cells.items()}
    choices = {tuple(o["cell"]): o for o in offered if o.get("cell") is not None}
    spots = set(taken) | {c for c in choices if c not in taken}
    rows = [r for r, _ in spots] or [0]
    cols = [c for _, c in spots] or [0]
    top, left = min(rows), min(cols)
    width, height = max(cols) - left + 1, max(rows) - top + 1
    drawn = []
    for (row, col), cell in sorted(taken.items()):
        card_id = str(cell["card"])
        face = card_svg(
            ed,
            card_id,
            verdancy=cell["verdancy"],
            completed=cell["completed"],
            pot=cell["pot"],
            item=cell["item"],
        )
        kind = "plant" if card_id in ed.plants else "room"
        x, y = (col - left) * CELL, (row - top) * CELL
        drawn.append({"kind": kind, "x": x, "y": y, "row": row, "col": col, "svg": face})
    empty = [
        {
            "x": (c[1] - left) * CELL,
            "y": (c[0] - top) * CELL,
            "row": c[0],
            "col": c[1],
            "choice": choices[c],
        }
        for c in sorted(choices)
        if c not in taken
    ]
    return {
        "cells": drawn,
        "svg": placed(drawn),
        "offered": empty,
        "width": width * CELL,
        "height": height * CELL,
        "size": CELL,
    }
