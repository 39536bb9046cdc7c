"""The repetitive parts of the game page, drawn as HTML strings: the planets (SVG, the
buttons over their clickable spaces, their pieces in words), biome swatches, card faces,
the Power tracks, the Fertility Zone and the rows of the score table.

A planet has 49 spaces, a page shows several planets and dozens of cards, and every
node of a Django template costs a few microseconds: drawing these with template loops
and includes cost tens of milliseconds a request, joining strings here well under one.
The templates keep the structure of the page and call these through the presenters
(``Planet.picture``, ``CardInfo.face``, ``Track.row``…).

The shapes (a tile per biome with its pattern, shade, pieces, Sun markers) are defined
once per page in ``templates/games/evergreen/_board_defs.html`` and placed with ``<use href>``.
The words are translated once per language (``pagewords.Words``); every text that goes
into the markup is escaped (biome, piece and icon codes come from the edition), so the results are
marked safe.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .pagewords import Words, keep, words

if TYPE_CHECKING:  # the drawn values; their modules call these functions
    from .cards import CardInfo, Stack, Track
    from .planets import Cell, Planet
    from .status import Scores

CELL = 40  # SVG units per space
MARGIN = 36  # room around the grid for the Sun markers
PICTURE = 7 * CELL + 2 * MARGIN  # the picture's width and height, in SVG units


# --- Planets -----------------------------------------------------------------------------


def _space(cell: Cell, w: Words) -> str:
    """One space: a group titled with its label, its tile, then what is on it."""
    x, y = cell.col * CELL, cell.row * CELL
    head = (
        f'data-space="{cell.row},{cell.col}" data-piece="{cell.piece or ""}">'
        f"<title>{escape(w.label(cell))}</title>"
    )
    if cell.kind == "crevice":
        return f'<g class="cell cell-crevice" {head}<use href="#tile-crevice" x="{x}" y="{y}"/></g>'
    classes = "cell cell-biome"
    if cell.shaded:
        classes += " is-shaded"
    if cell.target:
        classes += " is-target"
    if cell.changed:
        classes += " is-changed"
    if cell.forest:
        classes += " is-forest"
    out = [f'<g class="{classes}" {head}<use href="#tile-{cell.biome}" x="{x}" y="{y}"/>']
    if cell.shaded:
        out.append(f'<use href="#tile-shade" x="{x}" y="{y}"/>')
    if cell.piece:
        out.append(f'<use href="#piece-{cell.piece}" x="{x}" y="{y}" width="40" height="40"/>')
    if cell.light is not None:
        dark = "" if cell.light else " is-dark"
        out.append(
            f'<g class="light-badge{dark}"><circle cx="{x + 33}" cy="{y + 7}" r="6"/>'
            f'<text x="{x + 33}" y="{y + 10}" text-anchor="middle">{cell.light}</text></g>'
        )
    if cell.forest:
        out.append(f'<rect class="forest-edge" x="{x + 3}" y="{y + 3}" width="34" height="34"/>')
    if cell.target:
        out.append(f'<rect class="target-edge" x="{x + 2}" y="{y + 2}" width="36" height="36"/>')
    if cell.changed:
        out.append(f'<rect class="changed-edge" x="{x + 1}" y="{y + 1}" width="38" height="38"/>')
    out.append("</g>")
    return "".join(out)


def planet_svg(planet: Planet) -> SafeString:
    """The planet as an ``<svg>`` element: a titled group per space, then the Sun markers."""
    w = words()
    seat = planet.seat
    title = w.title % {"name": escape(planet.name), "light": planet.light, "forest": planet.forest}
    out = [
        f'<svg class="board" viewBox="{planet.view_box}" role="img" '
        f'aria-labelledby="planet-{seat}-title" focusable="false">'
        f'<title id="planet-{seat}-title">{title}</title>'
    ]
    drawn = w.drawn
    for cell in planet.cells:
        if cell.kind != "off":
            markup = drawn.get(cell)
            if markup is None:
                markup = _space(cell, w)
                keep(drawn, cell, markup)
            out.append(markup)
    for css, sun, sentence, symbol in (
        ("sun", planet.sun, w.sun_now, "sun-now"),
        ("sun-next", planet.next_sun, w.sun_next, "sun-next"),
    ):
        if sun is not None:
            out.append(
                f'<g class="{css}" transform="translate({sun.x} {sun.y}) rotate({sun.angle})">'
                f"<title>{sentence % {'side': escape(w.sides[sun.side])}}</title>"
                f'<use href="#{symbol}" x="-18" y="-18" width="36" height="36"/></g>'
            )
    out.append("</svg>")
    return mark_safe("".join(out))  # every text in it is escaped


def space_buttons(planet: Planet) -> SafeString:
    """A button over each clickable space; each submits ``#turn-form`` with its space.

    Their size is in ``board.css``; only their position differs.
    """
    w = words()
    out = []
    for cell in planet.cells:
        if cell.target:
            label = escape(w.button_label(cell))
            # Positioned by board.css's row-N/col-N classes: the CSP allows no style attribute.
            out.append(
                f'<button type="submit" form="turn-form" name="step" value="{cell.row},{cell.col}" '
                f'id="sp-{cell.row}-{cell.col}" class="space-button row-{cell.row} col-{cell.col}" '
                f'aria-label="{label}" title="{label}"></button>'
            )
    return mark_safe("".join(out))  # every text in it is escaped


def piece_items(planet: Planet) -> SafeString:
    """The ``<li>`` items saying, space by space, which piece is where (or that none is)."""
    w = words()
    items = [f"<li>{escape(w.label(cell))}</li>" for cell in planet.cells if cell.piece]
    return mark_safe("".join(items) or f"<li>{escape(w.no_pieces)}</li>")  # escaped


# --- Swatches and cards --------------------------------------------------------------------

_ICON_MARKS = {"F1": "✿", "F2": "✿✿", "A": "☀︎"}


@cache
def swatch(biome: str) -> SafeString:
    """A small square of the biome's colour and pattern (decorative: its name is beside it)."""
    b = escape(biome)
    return mark_safe(  # the biome is escaped
        f'<svg class="swatch" viewBox="0 0 20 20" aria-hidden="true" focusable="false">'
        f'<rect class="biome-{b}" width="20" height="20" rx="3"/>'
        f'<rect width="20" height="20" rx="3" fill="url(#pat-{b})"/></svg>'
    )


def card_face(card: CardInfo) -> SafeString:
    """A card as text: swatch, suit, Power and icon (the icon also in words)."""
    w = words()
    key = (card.suit, card.power, card.icon)
    face = w.faces.get(key)
    if face is None:
        icon_name = escape(w.icons[card.icon])
        mark = _ICON_MARKS.get(card.icon)
        icon = f'{mark}<span class="visually-hidden"> {icon_name}</span>' if mark else ""
        face = w.faces[key] = mark_safe(  # every text in it is escaped
            f'<span class="card-face suit-{escape(card.suit)}">{swatch(card.suit)}'
            f'<span class="card-text"><span class="card-suit">{escape(w.biomes[card.suit])}</span> '
            f'<span class="card-power" title="{escape(w.power_help[card.power])}">'
            f"{escape(w.powers[card.power])}</span> "
            f'<span class="card-icon icon-{escape(card.icon)}" title="{icon_name}">{icon}</span>'
            "</span></span>"
        )
    return face


# --- Power tracks, the Fertility Zone, scores ---------------------------------------------


def track_row(track: Track) -> SafeString:
    """A Power track as a table row: its name, its spaces (the marker's is the current
    step) and the level it gives."""
    w = words()
    spaces = []
    for space in track.spaces:
        css = ("is-reached" if space.reached else "") + (" is-current" if space.current else "")
        current = ' aria-current="step"' if space.current else ""
        inside = (
            str(space.level)
            if space.position
            else '<span aria-hidden="true">·</span>'
            f'<span class="visually-hidden">{escape(w.start)}</span>'
        )
        spaces.append(f'<li class="{css}"{current}>{inside}</li>')
    level: str = escape(w.level % {"level": track.level})
    if track.on_card:
        level += f"<br><small>{escape(w.next_level % {'level': track.next_level})}</small>"
    return mark_safe(  # every text in it is escaped
        f'<tr class="{"is-on-card" if track.on_card else ""}">'
        f'<th scope="row" title="{escape(w.power_help[track.power])}">'
        f"{escape(w.powers[track.power])}</th>"
        f'<td><ol class="track">{"".join(spaces)}</ol></td>'
        f'<td class="track-level">{level}</td></tr>'
    )


def _chip(card: CardInfo, w: Words) -> str:
    key = (card.suit, card.power, card.icon)
    chip = w.chips.get(key)
    if chip is None:
        chip = w.chips[key] = (
            f'<span class="chip icon-{escape(card.icon)}" title="{escape(w.card_label(card))}">'
            f"{escape(w.icons[card.icon])}</span>"
        )
    return chip


def stack_item(stack: Stack) -> SafeString:
    """A Fertility Zone stack: biome, total, and its cards (face-up ones by their icon)."""
    w = words()
    chips = [_chip(card, w) if face_up else w.face_down_chip for card, face_up in stack.cards]
    if not chips:
        chips.append(f'<span class="chip is-empty">{escape(w.no_card)}</span>')
    total = w.fertility(stack.total)
    return mark_safe(  # every text in it is escaped
        f'<li class="stack"><span class="stack-name">{swatch(stack.biome)} '
        f"{escape(w.biomes[stack.biome])}</span>"
        f'<strong class="stack-total">{escape(total)}</strong>'
        f'<span class="stack-cards">{"".join(chips)}</span></li>'
    )


def score_rows(scores: Scores) -> SafeString:
    """The body of the score table: a row per seat, a cell per scored season. Drawn for
    every viewer alike (``scores.viewer_holes``), the viewer's marks are holes that
    ``mark_viewer`` fills for each page."""
    w = words()
    first = escape(w.first_player)
    rows = []
    for row in scores.rows:
        name: str = escape(row.name)
        if scores.viewer_holes:
            name += viewer_hole(row.seat, "name")
        elif row.is_viewer:
            name += _you(w)
        if row.first_player:
            name += (
                f' <span class="token" title="{first}">①'
                f'<span class="visually-hidden"> {first}</span></span>'
            )
        if row.card is None:
            card = "—"
        else:
            card = card_face(row.card)
            if row.submitted:
                card += f' ✓<span class="visually-hidden"> {escape(w.turn_submitted)}</span>'
        cells = [f'<th scope="row">{name}</th><td>{card}</td><td>{row.setup_points}</td>']
        cells.extend(
            f"<td>{s['light']} / {s['forest']} / {s['bud']} = <strong>{s['total']}</strong></td>"
            for s in row.seasons
        )
        cells.append(f"<td>{row.fertility if scores.final else row.bud_so_far}</td>")
        cells.append(f"<td><strong>{row.score}</strong></td>")
        if scores.viewer_holes:
            viewer = viewer_hole(row.seat, "row")
        else:
            viewer = _VIEWER_ROW if row.is_viewer else ""
        rows.append(f"<tr{viewer}>{''.join(cells)}</tr>")
    return mark_safe("".join(rows))  # every text in it is escaped


_VIEWER_ROW = ' class="is-viewer"'


def _you(w: Words) -> str:
    return f" <small>({escape(w.you)})</small>"


def viewer_hole(seat: int, where: str) -> str:
    """Where a score table drawn for every viewer marks ``seat``'s row as the viewer's
    (``where``: after the ``"name"``, in the ``"row"``'s tag): plain words that nothing
    drawn contains, the same escaped."""
    return f"evergreen-seat-{seat}-viewer-{where}-hole"


def mark_viewer(drawn: str, viewer: int | None, seats: int) -> SafeString:
    """A score table drawn with ``viewer_holes`` with the marks of this page's ``viewer``
    (a seat; None: a spectator, no row marked) in its holes."""
    you = _you(words())
    for seat in range(seats):
        mine = seat == viewer
        drawn = drawn.replace(viewer_hole(seat, "name"), you if mine else "")
        drawn = drawn.replace(viewer_hole(seat, "row"), _VIEWER_ROW if mine else "")
    return mark_safe(drawn)  # the marks are the page's own markup
