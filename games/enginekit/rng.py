"""Seeded randomness kept inside the game state (SplitMix64).

An engine never touches the global ``random`` module: the generator's whole state is
one 64-bit integer stored in the game state (``GameState.rng``), so a game replays
exactly on any Python version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
MASK64 = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Turn any integer seed into a generator state."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64


def next_u64(state: int) -> tuple[int, int]:
    """Return ``(new_state, random 64-bit value)``."""
    state = (state + 0x9E3779B97F4A7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return ``(new_state, value)`` with ``0 <= value < n`` (n is small, bias negligible)."""
    state, value = next_u64(state)
    return state, value % n


def shuffled(state: int, items: Sequence[T]) -> tuple[int, tuple[T, ...]]:
    """Fisher-Yates shuffle; returns ``(new_state, shuffled tuple)``."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        state, j = below(state, i + 1)
        result[i], result[j] = result[j], result[i]
    return state, tuple(result)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game seeded ``game_seed`` (distinct per seat)."""
    return next_u64(seed_state(game_seed * 8 + seat))[1]
