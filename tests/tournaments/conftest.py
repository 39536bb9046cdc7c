"""Fixtures for the tournaments tests: the games tests' named users and helpers.

``alice``, ``bob``, ``carol`` and ``staff`` as in tests/games/conftest.py (every
password is ``gamehelpers.PASSWORD``); import plain helpers from ``gamehelpers``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "games"))

from gamehelpers import make_user


@pytest.fixture
def alice(db: Any) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(db: Any) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(db: Any) -> Any:
    return make_user("carol")


@pytest.fixture
def staff(db: Any) -> Any:
    return make_user("staff", staff=True)


@pytest.fixture
def superuser(db: Any) -> Any:
    user = make_user("root", staff=True)
    user.is_superuser = True
    user.save(update_fields=["is_superuser"])
    return user


@pytest.fixture(autouse=True)
def deterministic_seeds(monkeypatch: Any) -> None:
    """Game and event seeds from a counter instead of ``secrets``: the games the bots play
    (their moves follow the game's seed) and the pairings come out the same on every run."""
    import itertools
    import secrets

    counter = itertools.count(1)
    monkeypatch.setattr(
        secrets, "randbits", lambda bits: (next(counter) * 2_654_435_761) % (1 << bits)
    )
