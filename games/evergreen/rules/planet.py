"""Planet geometry: biomes, crevices, adjacency and the lines light travels along.

A planet is described in the edition file's text format: one character per space
(``s m r f w g`` biomes, ``#`` crevice, ``.`` not on the planet), rows separated, the
characters of a row optionally separated by spaces. Internally a space is an index
``row * cols + col``; outside the engine it is a ``(row, col)`` pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.enginekit.errors import InvalidEdition

BIOMES: tuple[str, ...] = ("snow", "swamp", "rock", "flowers", "wheat", "grassland")
WILD = "wild"
SUITS: tuple[str, ...] = (*BIOMES, WILD)
BIOME_CHARS: dict[str, str] = {
    "s": "snow",
    "m": "swamp",
    "r": "rock",
    "f": "flowers",
    "w": "wheat",
    "g": "grassland",
}
CREVICE = "#"
OFF_PLANET = "."
SUNS: tuple[str, ...] = ("N", "E", "S", "W")  # clockwise

Space = tuple[int, int]


def next_sun(sun: str) -> str:
    """The Sun position one step clockwise (N → E → S → W → N)."""
    return SUNS[(SUNS.index(sun) + 1) % 4]


@dataclass(frozen=True, eq=False)
class Planet:
    """The fixed geometry of one planet board."""

    rows: int
    cols: int
    chars: tuple[str, ...]
    biomes: tuple[str | None, ...]  # biome name per index; None for crevices and off-planet
    playable: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    lines: dict[str, tuple[tuple[int, ...], ...]] = field(repr=False)
    biome_spaces: dict[str, tuple[int, ...]] = field(repr=False)
    # Bit masks for flood fills on boards packed into integers (bit i = space i):
    # spaces that may receive a shift from their left / right neighbour.
    not_first_col: int = field(default=0, repr=False)
    not_last_col: int = field(default=0, repr=False)

    @classmethod
    def parse(cls, rows: Sequence[str]) -> Planet:
        """Read a planet from rows of characters.

        Raises ``InvalidEdition`` on an unknown character or rows of unequal length.
        """
        grid = [row.replace(" ", "").replace("\t", "") for row in rows]
        grid = [row for row in grid if row]
        if not grid:
            raise InvalidEdition("The planet has no rows.", "planet_empty")
        width = len(grid[0])
        for number, row in enumerate(grid):
            if len(row) != width:
                raise InvalidEdition(
                    f"Planet row {number} has {len(row)} spaces, but row 0 has {width}.",
                    "planet_ragged",
                )
            for char in row:
                if char not in BIOME_CHARS and char not in (CREVICE, OFF_PLANET):
                    raise InvalidEdition(
                        f"Unknown planet character {char!r} in row {number}; use "
                        "s m r f w g for biomes, # for a crevice, . for off the planet.",
                        "planet_unknown_char",
                    )
        n_rows, n_cols = len(grid), width
        chars = tuple(char for row in grid for char in row)
        biomes = tuple(BIOME_CHARS.get(char) for char in chars)
        playable = tuple(i for i, b in enumerate(biomes) if b is not None)
        neighbours = []
        for i in range(n_rows * n_cols):
            r, c = divmod(i, n_cols)
            near = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < n_rows and 0 <= cc < n_cols and biomes[rr * n_cols + cc]:
                    near.append(rr * n_cols + cc)
            neighbours.append(tuple(near))
        columns = [tuple(r * n_cols + c for r in range(n_rows)) for c in range(n_cols)]
        rows_ = [tuple(r * n_cols + c for c in range(n_cols)) for r in range(n_rows)]
        lines = {
            "N": tuple(columns),
            "S": tuple(tuple(reversed(col)) for col in columns),
            "W": tuple(rows_),
            "E": tuple(tuple(reversed(row)) for row in rows_),
        }
        biome_spaces = {b: tuple(i for i in playable if biomes[i] == b) for b in BIOMES}
        not_first = sum(1 << i for i in range(n_rows * n_cols) if i % n_cols)
        not_last = sum(1 << i for i in range(n_rows * n_cols) if i % n_cols != n_cols - 1)
        return cls(
            n_rows,
            n_cols,
            chars,
            biomes,
            playable,
            tuple(neighbours),
            lines,
            biome_spaces,
            not_first,
            not_last,
        )

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def on_grid(self, space: Space) -> bool:
        r, c = space
        return 0 <= r < self.rows and 0 <= c < self.cols

    def index(self, space: Space) -> int:
        """Index of a ``(row, col)`` space (no check that it is playable)."""
        return space[0] * self.cols + space[1]

    def space(self, index: int) -> Space:
        row, col = divmod(index, self.cols)
        return (row, col)

    def is_playable(self, index: int) -> bool:
        return self.biomes[index] is not None

    def text(self) -> list[str]:
        """The planet in the edition's text format, one string per row."""
        return [" ".join(self.chars[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)]
