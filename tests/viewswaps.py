"""Views with one fact swapped at a time, for the tests that hold a kept part's key to
every fact its drawing reads (Evergreen's panels, Verdant's market, homes and scores)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any


def swapped(view: dict[str, Any], other: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """``view`` with each of its facts in turn taken from ``other``: every top-level one
    (None where ``other`` has none), and every one of each seat."""
    for field in view:
        if field != "seats" and view[field] != other.get(field):
            yield {**view, field: copy.deepcopy(other.get(field))}
    for k, seat in enumerate(view["seats"]):
        for field in seat:
            if seat[field] != other["seats"][k][field]:
                changed = copy.deepcopy(view)
                changed["seats"][k][field] = copy.deepcopy(other["seats"][k][field])
                yield changed
