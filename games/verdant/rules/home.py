"""A player's home: the grid of cards, verdancy, pots and items, and the placement rules.

Coordinates are ``(row, column)`` relative to the player's starting room at ``(0, 0)``,
rows growing downwards and columns to the right. The home may spread in any direction
while its cards fit in a rectangle 5 columns wide and 3 rows tall (ruling 1), so every
legal cell has a row in -2..2 and a column in -4..4: the home is stored as flat tuples
over that 5 x 9 window. ``normalised`` gives the finished home's ``"r,c"`` cells with
r 0-2 and c 0-4, the coordinates of the score contract.
"""

from __future__ import annotations

from dataclasses import dataclass

from .edition import Edition

ROW_MIN, ROW_MAX = -2, 2
COL_MIN, COL_MAX = -4, 4
WIDTH = COL_MAX - COL_MIN + 1
SIZE = (ROW_MAX - ROW_MIN + 1) * WIDTH
ORIGIN = (0 - ROW_MIN) * WIDTH + (0 - COL_MIN)
OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
STEP = {"top": (-1, 0), "right": (0, 1), "bottom": (1, 0), "left": (0, -1)}

Pos = tuple[int, int]


def index(pos: Pos) -> int | None:
    """The flat index of ``pos``, or None outside the window any home can reach."""
    row, col = pos
    if not (ROW_MIN <= row <= ROW_MAX and COL_MIN <= col <= COL_MAX):
        return None
    return (row - ROW_MIN) * WIDTH + (col - COL_MIN)


def position(i: int) -> Pos:
    return (i // WIDTH + ROW_MIN, i % WIDTH + COL_MIN)


def _neighbours(i: int) -> tuple[tuple[str, int], ...]:
    row, col = position(i)
    found = []
    for side, (dr, dc) in STEP.items():
        j = index((row + dr, col + dc))
        if j is not None:
            found.append((side, j))
    return tuple(found)


# For each cell: (side of this cell on which the neighbour lies, the neighbour's index).
NEIGHBOURS: tuple[tuple[tuple[str, int], ...], ...] = tuple(_neighbours(i) for i in range(SIZE))
DIAGONALS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        j
        for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1))
        if (j := index((position(i)[0] + dr, position(i)[1] + dc))) is not None
    )
    for i in range(SIZE)
)


def is_plant(card: str | None) -> bool:
    return card is not None and card[0] == "P"


def is_room(card: str | None) -> bool:
    return card is not None and card[0] == "R"


def card_kind(card: str) -> str:
    return "plant" if card[0] == "P" else "room"


@dataclass(frozen=True, slots=True)
class Home:
    """One player's home. ``completed`` plants have no verdancy and usually a pot."""

    cards: tuple[str | None, ...]
    verdancy: tuple[int, ...]
    completed: tuple[bool, ...]
    pots: tuple[str | None, ...]  # the pot on a completed plant (None: none was left)
    items: tuple[str | None, ...]  # the furniture/pet on a room

    @classmethod
    def empty(cls) -> Home:
        return cls((None,) * SIZE, (0,) * SIZE, (False,) * SIZE, (None,) * SIZE, (None,) * SIZE)

    @property
    def occupied(self) -> tuple[int, ...]:
        return tuple(i for i, card in enumerate(self.cards) if card is not None)

    @property
    def card_count(self) -> int:
        return sum(card is not None for card in self.cards)

    def card_at(self, pos: Pos) -> str | None:
        i = index(pos)
        return None if i is None else self.cards[i]

    def normalised(self) -> dict[str, int]:
        """Each occupied index by its ``"r,c"`` key with the home's top-left cell at 0,0."""
        cells = self.occupied
        if not cells:
            return {}
        top = min(position(i)[0] for i in cells)
        left = min(position(i)[1] for i in cells)
        return {f"{position(i)[0] - top},{position(i)[1] - left}": i for i in cells}


ROW_OF: tuple[int, ...] = tuple(position(i)[0] for i in range(SIZE))
COL_OF: tuple[int, ...] = tuple(position(i)[1] for i in range(SIZE))


def bounding_box(cells: list[int] | tuple[int, ...]) -> tuple[int, int]:
    """(rows, columns) spanned by ``cells``."""
    rows = [ROW_OF[i] for i in cells]
    cols = [COL_OF[i] for i in cells]
    return max(rows) - min(rows) + 1, max(cols) - min(cols) + 1


Cards = tuple[str | None, ...] | list[str | None]


def _box(cards: Cards) -> tuple[int, int, int, int] | None:
    occupied = [i for i, c in enumerate(cards) if c is not None]
    if not occupied:
        return None
    rows = [ROW_OF[i] for i in occupied]
    cols = [COL_OF[i] for i in occupied]
    return min(rows), max(rows), min(cols), max(cols)


def _why_not(
    cards: Cards, kind: str, i: int, box: tuple[int, int, int, int], ed: Edition
) -> tuple[str, str] | None:
    if cards[i] is not None:
        return "cell_taken", "There is already a card there."
    letter = kind[0].upper()
    touching = False
    for _, j in NEIGHBOURS[i]:
        other = cards[j]
        if other is None:
            continue
        touching = True
        if other[0] == letter:
            return (
                "same_kind_adjacent",
                f"A {kind} cannot go next to another {kind}: plants and rooms alternate.",
            )
    if not touching:
        return "not_adjacent", "A card must touch a card of your home."
    top, bottom, left, right = box
    row, col = ROW_OF[i], COL_OF[i]
    if (
        max(bottom, row) - min(top, row) >= ed.rows
        or max(right, col) - min(left, col) >= ed.columns
    ):
        return (
            "outside_home",
            f"There your home would exceed {ed.columns} columns by {ed.rows} rows.",
        )
    return None


def placement_error(cards: Cards, kind: str, pos: Pos, ed: Edition) -> tuple[str, str] | None:
    """Why a ``kind`` card ("plant"/"room") cannot go at ``pos``: (code, message), or None."""
    i = index(pos)
    if i is None:
        return (
            "outside_home",
            f"Cell {pos[0]},{pos[1]} is outside any {ed.columns} x {ed.rows} home.",
        )
    box = _box(cards)
    if box is None:
        return "not_adjacent", "A card must touch a card of your home."
    error = _why_not(cards, kind, i, box, ed)
    if error is None:
        return None
    code, message = error
    return code, f"At {pos[0]},{pos[1]}: {message[0].lower()}{message[1:]}"


def legal_cells(cards: Cards, kind: str, ed: Edition) -> list[Pos]:
    """Every cell where a ``kind`` card may be placed now.

    In a checkerboard home the kind of every cell is fixed by its parity, so an empty
    cell beside the home takes ``kind`` exactly when its parity is ``kind``'s and the home
    still fits in its rectangle (``placement_error`` says the same, more slowly).
    """
    occupied = [i for i, c in enumerate(cards) if c is not None]
    if not occupied:
        return []
    top, bottom, left, right = (
        min(ROW_OF[i] for i in occupied),
        max(ROW_OF[i] for i in occupied),
        min(COL_OF[i] for i in occupied),
        max(COL_OF[i] for i in occupied),
    )
    some = occupied[0]
    same = (cards[some] or "?")[0] == kind[0].upper()
    parity = (ROW_OF[some] + COL_OF[some] + (0 if same else 1)) % 2
    rows, columns = ed.rows, ed.columns
    found = set()
    for i in occupied:
        for _, j in NEIGHBOURS[i]:
            if cards[j] is not None or (ROW_OF[j] + COL_OF[j]) % 2 != parity:
                continue
            row, col = ROW_OF[j], COL_OF[j]
            if (
                max(bottom, row) - min(top, row) < rows
                and max(right, col) - min(left, col) < columns
            ):
                found.add(j)
    return [position(j) for j in sorted(found)]


def light_matches(
    cards: tuple[str | None, ...] | list[str | None], i: int, ed: Edition
) -> list[int]:
    """Plants that the card at ``i`` lights: one entry per matching edge (repeats allowed)."""
    card = cards[i]
    assert card is not None
    lit: list[int] = []
    for side, j in NEIGHBOURS[i]:
        other = cards[j]
        if other is None or card_kind(other) == card_kind(card):
            continue
        if is_plant(card):
            plant, room, edge = ed.plants[card], ed.rooms[other], OPPOSITE[side]
            target = i
        else:
            plant, room, edge = ed.plants[other], ed.rooms[card], side
            target = j
        if room.edges[edge] in plant.lights:
            lit.append(target)
    return lit
