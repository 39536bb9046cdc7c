"""Fixtures for the security tests: named users (builders of games are in ``sechelpers``).

The helpers of ``tests/games`` (``gamehelpers``, ``test_api_helpers``) are shared:
their folder is put on ``sys.path`` here, as the other test folders do.
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


@pytest.fixture(autouse=True)
def fresh_cache() -> Any:
    """Throttle counters and cached pages live in the cache: none leak into other tests."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
