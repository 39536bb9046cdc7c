"""The order the suite runs in, so that the xdist workers of ``pytest -n auto`` finish
together: the longest groups of tests first, the short ones last to fill the gaps.

A group is a test module, or the whole of ``tests/e2e`` (its tests share the live
server). Groups stay whole and keep their tests' order, so module- and package-scoped
fixtures (a Celery worker, a gunicorn) start about once per worker: each worker runs its
share of the global order in that order. (Each browser test starts its own Chromium: one
shared by a worker's browser tests made two of them fail now and then in whole runs.)

pytest-django's order still holds where it matters: every test that runs inside a
rolled-back transaction comes before every test that empties the tables (transactional
tests, the live server), as in Django's own runner. Tests that use no database can run
anywhere and join the second part, by their length.

The lengths come from ``tests/durations.json`` (seconds of each module in a measured
run, ``python -m tests.ordering RESULTS.xml`` writes it from a ``--junitxml`` file); a
module not in it counts 4 s per test marked ``slow`` and 0.1 s per other test. The workers take
tests one small chunk at a time (``--maxschedchunk`` in pyproject.toml), or the first
worker would get all the long groups at once.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

DURATIONS = Path(__file__).resolve().with_name("durations.json")
SLOW_GUESS = 4.0
QUICK_GUESS = 0.1


def group_of(nodeid: str) -> str:
    path = nodeid.split("::", 1)[0]
    return "tests/e2e" if path.startswith("tests/e2e/") else path


def rolled_back(item: pytest.Item) -> bool:
    """The test uses the database inside a transaction that is rolled back (pytest-django's
    ``db``), not one that commits and empties the tables afterwards."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", [])
    transactional = "transactional_db" in fixtures or "live_server" in fixtures
    if marker is not None:
        transactional = transactional or bool(
            marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")
        )
    uses_db = marker is not None or "db" in fixtures
    return uses_db and not transactional


def measured() -> dict[str, float]:
    try:
        return {str(k): float(v) for k, v in json.loads(DURATIONS.read_text()).items()}
    except FileNotFoundError:
        return {}


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)  # after pytest-django's own sort
def pytest_collection_modifyitems(items: list[Any]) -> None:
    known = measured()
    guessed: dict[str, float] = defaultdict(float)
    for item in items:
        slow = item.get_closest_marker("slow") is not None
        guessed[module_of(item.nodeid)] += SLOW_GUESS if slow else QUICK_GUESS
    length = {module: known.get(module, guess) for module, guess in guessed.items()}
    group_length: dict[str, float] = defaultdict(float)
    for module, seconds in length.items():
        group_length[group_of(module)] += seconds
    first_place: dict[str, int] = {}
    for index, item in enumerate(items):
        first_place.setdefault(module_of(item.nodeid), index)
        first_place.setdefault(group_of(item.nodeid), index)

    def place(pair: tuple[int, Any]) -> tuple[Any, ...]:
        index, item = pair
        module, group = module_of(item.nodeid), group_of(item.nodeid)
        return (
            0 if rolled_back(item) else 1,
            -group_length[group],
            first_place[group],
            -length[module],  # inside tests/e2e, the longest module first
            first_place[module],
            index,
        )

    items[:] = [item for _, item in sorted(enumerate(items), key=place)]


def durations_from_junit(path: Path) -> dict[str, float]:
    """Seconds per test module (setup, call and teardown) from a ``--junitxml`` report."""
    totals: dict[str, float] = defaultdict(float)
    for case in ET.parse(path).iter("testcase"):
        module = case.get("classname", "").split(".")
        # classname is "tests.games.test_x" or "tests.games.test_x.TestClass"
        while module and not module[-1].startswith("test_"):
            module.pop()
        if module:
            totals["/".join(module) + ".py"] += float(case.get("time", 0))
    return {group: round(seconds, 1) for group, seconds in sorted(totals.items()) if seconds >= 1}


if __name__ == "__main__":
    DURATIONS.write_text(json.dumps(durations_from_junit(Path(sys.argv[1])), indent=1) + "\n")
