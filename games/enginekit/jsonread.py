"""Reading the values of a move's JSON form: what counts as an integer and as a place.

JSON has no integers apart from numbers, and Python's ``True`` is an ``int``: a move
that says ``"seat": true`` or ``"at": [1.0, 2]`` is refused here, in both engines alike.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from .errors import InvalidMove


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an integer (``bool`` is not)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_pair(value: Any, what: str, code: str) -> tuple[int, int]:
    """A ``[row, column]`` pair of integers; raises ``InvalidMove`` (``code``) otherwise."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(is_int(v) for v in value):
        return (value[0], value[1])
    raise InvalidMove(f"{what} must be a [row, column] pair of integers, not {value!r}.", code)
