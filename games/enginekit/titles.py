"""Solo titles: the title a solo game's score earns from an edition's table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T", str, str | None)


def earned_title(table: Iterable[tuple[int, str]], score: int, below: T) -> str | T:
    """The name of the highest threshold ``score`` reaches in ``table`` (``(threshold,
    name)``, lowest first), or ``below`` when it reaches none.

    >>> earned_title([(60, "Sprout"), (90, "Gardener")], 75, None)
    'Sprout'
    >>> earned_title([(60, "Sprout"), (90, "Gardener")], 12, None) is None
    True
    """
    title: str | T = below
    for threshold, name in table:
        if score >= threshold:
            title = name
    return title
