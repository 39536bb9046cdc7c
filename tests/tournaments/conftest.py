"""Fixtures for the tournaments tests: seeds that come out the same on every run.

The named users (``alice``, ``bob``, ``carol``, ``staff``, ``superuser``) come from the
root ``conftest.py``; ``oak`` is their club; plain helpers from ``tests.games.gamehelpers`` and
``tests.tournaments.tourhelpers``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.tourpageshelpers import club_of


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


@pytest.fixture
def oak(alice: Any, bob: Any, carol: Any) -> Any:
    """Alice organizes Oak; Bob and Carol are members."""
    return club_of(alice, "Oak", bob, carol)
