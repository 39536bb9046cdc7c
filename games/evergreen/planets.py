"""The planets as the game page draws them: spaces (``Cell``), Sun markers and the
``Planet`` whose picture ``games.evergreen.svg`` draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from . import pagewords, svg
from .rules.edition import Edition
from .rules.pieces import EMPTY, PIECE_CODES
from .rules.pieces import PIECE_NAMES as PIECE_IDS
from .rules.planet import CREVICE, Space
from .rules.planet import Planet as PlanetGeometry
from .rules.scoring import (
    forests,
    light_points,
    light_score,
    shadowed_spaces,
)
from .svg import CELL, MARGIN
from .words import SUN_ANGLES, SUN_SIDES

# --- Planets -------------------------------------------------------------------------------


class Cell(NamedTuple):
    """One space of a planet picture. A named tuple: pages build them by the hundred (a
    frozen dataclass is several times slower to build), and ``svg`` keys its cache on them."""

    row: int
    col: int
    kind: str  # "biome", "crevice" or "off"
    biome: str | None
    piece: str | None
    shaded: bool = False
    light: int | None = None  # Light points of a tree with the Sun now (0: in shadow)
    forest: bool = False  # part of the biggest Forest
    target: str | None = None  # the effect a click applies here now
    changed: bool = False  # changed by the turn in progress

    @property
    def description(self) -> str:
        """What is there: biome, piece, shadow, Light, Forest."""
        return pagewords.words().description(self)

    @property
    def label(self) -> str:
        return pagewords.words().label(self)

    @property
    def button_label(self) -> str:
        return pagewords.words().button_label(self)


@dataclass(frozen=True)
class SunMarker:
    side: str
    x: int
    y: int
    angle: int

    @property
    def side_name(self) -> str:
        return str(SUN_SIDES[self.side])


def _sun_marker(side: str, rows: int, cols: int) -> SunMarker:
    width, height, half = cols * CELL, rows * CELL, MARGIN // 2
    x, y = {
        "N": (width // 2, -half),
        "E": (width + half, height // 2),
        "S": (width // 2, height + half),
        "W": (-half, height // 2),
    }[side]
    return SunMarker(side, x, y, SUN_ANGLES[side])


def sun_markers(
    edition: Edition, sun: str, next_sun: str | None
) -> tuple[SunMarker, SunMarker | None]:
    """Where the Sun is now and next season, as every planet of ``edition`` shows it."""
    geo = edition.planet
    later = _sun_marker(next_sun, geo.rows, geo.cols) if next_sun else None
    return _sun_marker(sun, geo.rows, geo.cols), later


@dataclass(frozen=True)
class Planet:
    seat: int
    name: str
    cells: list[Cell]
    sun: SunMarker
    next_sun: SunMarker | None
    light: int  # Light points with the Sun now
    forest: int  # size of the biggest Forest
    rows: int
    cols: int
    preview: str = ""  # "building" or "submitted": shows a turn not yet revealed
    targets: int = 0  # number of clickable spaces

    @property
    def view_box(self) -> str:
        return (
            f"{-MARGIN} {-MARGIN} {self.cols * CELL + 2 * MARGIN} {self.rows * CELL + 2 * MARGIN}"
        )

    @property
    def changed(self) -> bool:
        return any(c.changed for c in self.cells)

    # The picture, drawn in Python (see games/evergreen/svg.py): a template loop over the spaces
    # costs tens of milliseconds a page.
    @property
    def picture(self) -> SafeString:
        return svg.planet_svg(self)

    @property
    def space_buttons(self) -> SafeString:
        return svg.space_buttons(self)

    @property
    def piece_items(self) -> SafeString:
        return svg.piece_items(self)

    @property
    def pieces_summary(self) -> str:
        n = sum(1 for c in self.cells if c.piece)
        return pagewords.words().pieces_on_planet(n)

    @property
    def numbers(self) -> str:
        return _("Light %(light)s · Forest %(forest)s") % {
            "light": self.light,
            "forest": self.forest,
        }


@cache
def _spaces(geo: PlanetGeometry) -> tuple[tuple[int, int, int, str, str | None], ...]:
    """Each space of a planet: (index, row, column, kind, biome); computed once."""
    spaces = []
    for i, char in enumerate(geo.chars):
        row, col = geo.space(i)
        biome = geo.biomes[i]
        kind = "biome" if biome else ("crevice" if char == CREVICE else "off")
        spaces.append((i, row, col, kind, biome))
    return tuple(spaces)


def board_from_view(edition: Edition, pieces: Mapping[str, str]) -> tuple[int, ...]:
    """A view's ``{"r,c": "small", ...}`` board back into the engine's tuple of codes."""
    board = [EMPTY] * edition.planet.size
    cols = edition.planet.cols
    for key, name in pieces.items():
        row, col = (int(v) for v in key.split(","))
        board[row * cols + col] = PIECE_CODES[name]
    return tuple(board)


def planet(
    edition: Edition,
    board: Sequence[int],
    sun: str,
    next_sun: str | None,
    *,
    seat: int,
    name: str,
    targets: Mapping[Space, str] | None = None,
    before: Sequence[int] | None = None,
    preview: str = "",
) -> Planet:
    """A planet picture: biomes, pieces, shadows and Light for the Sun at ``sun``.

    ``targets`` marks the clickable spaces; ``before`` is the revealed board when
    ``board`` is a ``preview`` of a turn ("building" or "submitted"), so the spaces the
    turn changes can be marked.
    """
    geo = edition.planet
    shaded = shadowed_spaces(geo, board, sun, edition)
    points = light_points(geo, board, sun, edition)
    groups = forests(geo, board)
    biggest = max((len(g) for g in groups), default=0)
    in_forest = {i for g in groups if len(g) == biggest and biggest > 1 for i in g}
    targets = targets or {}
    cells = [
        Cell(
            row,
            col,
            kind,
            biome,
            PIECE_IDS[board[i]] if board[i] != EMPTY else None,
            shaded=kind == "biome" and i in shaded,
            light=points.get(i),
            forest=i in in_forest,
            target=targets.get((row, col)),
            changed=before is not None and before[i] != board[i],
        )
        for i, row, col, kind, biome in _spaces(geo)
    ]
    return Planet(
        seat=seat,
        name=name,
        cells=cells,
        sun=_sun_marker(sun, geo.rows, geo.cols),
        next_sun=_sun_marker(next_sun, geo.rows, geo.cols) if next_sun else None,
        light=light_score(geo, board, sun, edition),
        forest=biggest,
        rows=geo.rows,
        cols=geo.cols,
        preview=preview,
        targets=len(targets),
    )


def planets(edition: Edition, view: Mapping[str, Any], names: Sequence[str]) -> list[Planet]:
    """Every seat's revealed planet, as the view shows it."""
    return [
        planet(
            edition,
            board_from_view(edition, seat["board"]),
            view["sun"],
            view["next_sun"],
            seat=seat["seat"],
            name=names[seat["seat"]],
        )
        for seat in view["seats"]
    ]
