"""Season and final scoring: Light, the Biggest Forest and Fertility.

All functions take the planet geometry and a board (a tuple of piece codes, one per
space) and are pure. They are the hot path of the bots and the benchmark, so they
work on indices and precomputed lines rather than on objects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .edition import Edition
from .pieces import BIG, FOREST_PIECES, SMALL
from .planet import BIOMES, Planet

Board = Sequence[int]


def _light_walk(
    planet: Planet, board: Board, sun: str, shadow: Mapping[str, int], light: Mapping[str, int]
) -> tuple[dict[int, int], set[int]]:
    """Walk every line away from the Sun; return (points per tree, shadowed spaces)."""
    small_len, big_len = shadow["small"], shadow["big"]
    small_pts, big_pts = light["small"], light["big"]
    points: dict[int, int] = {}
    shaded: set[int] = set()
    for line in planet.lines[sun]:
        rem_small = rem_big = 0  # spaces still covered by a shadow of that height
        for i in line:
            if rem_small or rem_big:
                shaded.add(i)
            piece = board[i]
            if piece == SMALL:
                points[i] = 0 if (rem_small or rem_big) else small_pts
            elif piece == BIG:
                points[i] = 0 if rem_big else big_pts
            rem_small = rem_small - 1 if rem_small else 0
            rem_big = rem_big - 1 if rem_big else 0
            if piece == SMALL and small_len > rem_small:
                rem_small = small_len
            elif piece == BIG and big_len > rem_big:
                rem_big = big_len
    return points, shaded


def light_points(planet: Planet, board: Board, sun: str, edition: Edition) -> dict[int, int]:
    """Points each tree on the board collects with the Sun at ``sun`` (0 when shaded)."""
    return _light_walk(planet, board, sun, edition.shadow, edition.light)[0]


def shadowed_spaces(planet: Planet, board: Board, sun: str, edition: Edition) -> frozenset[int]:
    """Every space covered by some tree's shadow with the Sun at ``sun``."""
    return frozenset(_light_walk(planet, board, sun, edition.shadow, edition.light)[1])


def light_score(planet: Planet, board: Board, sun: str, edition: Edition) -> int:
    """Total Light points: the fast path used at the end of every season."""
    small_len, big_len = edition.shadow["small"], edition.shadow["big"]
    small_pts, big_pts = edition.light["small"], edition.light["big"]
    total = 0
    for line in planet.lines[sun]:
        rem_small = rem_big = 0
        for i in line:
            piece = board[i]
            if piece == SMALL:
                if not (rem_small or rem_big):
                    total += small_pts
                if rem_big:
                    rem_big -= 1
                rem_small = small_len
            elif piece == BIG:
                if not rem_big:
                    total += big_pts
                rem_big = big_len
                if rem_small:
                    rem_small -= 1
            else:
                if rem_small:
                    rem_small -= 1
                if rem_big:
                    rem_big -= 1
    return total


def _forest_mask(planet: Planet, board: Board) -> int:
    mask = 0
    for i in planet.playable:
        piece = board[i]
        if piece in FOREST_PIECES:
            mask |= 1 << i
    return mask


def _components(planet: Planet, mask: int) -> list[int]:
    """Connected groups of the set bits of ``mask`` (orthogonal adjacency), as masks.

    A flood fill on an integer bitboard: each step spreads a group one space in the four
    directions, clipped to ``mask``; far faster in Python than a search over sets.
    """
    cols, left_ok, right_ok = planet.cols, planet.not_first_col, planet.not_last_col
    groups = []
    while mask:
        group = mask & -mask
        while True:
            spread = (
                group
                | ((group << 1) & left_ok)
                | ((group >> 1) & right_ok)
                | (group << cols)
                | (group >> cols)
            ) & mask
            if spread == group:
                break
            group = spread
        groups.append(group)
        mask ^= group
    return groups


def forests(planet: Planet, board: Board) -> list[frozenset[int]]:
    """The Forests: orthogonally connected groups of Small Trees, Big Trees and Bushes."""
    return [
        frozenset(i for i in range(planet.size) if group >> i & 1)
        for group in _components(planet, _forest_mask(planet, board))
    ]


def biggest_forest(planet: Planet, board: Board) -> int:
    """Size of the biggest Forest (0 when there is none): one point per piece in it."""
    groups = _components(planet, _forest_mask(planet, board))
    return max((group.bit_count() for group in groups), default=0)


def fertility_breakdown(
    planet: Planet, board: Board, fertility: Mapping[str, int]
) -> dict[str, dict[str, int]]:
    """Per biome: its Fertility value, the Big Trees in it and the points they score."""
    result: dict[str, dict[str, int]] = {}
    for biome in BIOMES:
        value = fertility.get(biome, 0)
        bigs = sum(1 for i in planet.biome_spaces[biome] if board[i] == BIG)
        result[biome] = {"fertility": value, "big_trees": bigs, "points": value * bigs}
    return result


def fertility_score(planet: Planet, board: Board, fertility: Mapping[str, int]) -> int:
    """Final scoring: for each biome, its Fertility value times the Big Trees in it."""
    return sum(v["points"] for v in fertility_breakdown(planet, board, fertility).values())
