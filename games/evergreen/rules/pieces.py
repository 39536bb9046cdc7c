"""The pieces that can stand on a space. A board is a tuple of these codes, one per space."""

from __future__ import annotations

EMPTY = 0
SPROUT = 1
SMALL = 2
BIG = 3
BUSH = 4
LAKE = 5

PIECE_NAMES: tuple[str, ...] = ("empty", "sprout", "small", "big", "bush", "lake")
PIECE_CODES: dict[str, int] = {name: code for code, name in enumerate(PIECE_NAMES)}
FOREST_PIECES = frozenset((SMALL, BIG, BUSH))
# Generic Growth: what each piece becomes (absent: cannot grow).
GROWS_INTO: dict[int, int] = {SPROUT: SMALL, SMALL: BIG}
