"""Fixtures for the security tests: a fresh cache for each.

The named users come from the root ``conftest.py``; builders of games are in
``tests.security.sechelpers``, the helpers of the games tests in ``tests.games``.
"""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def fresh_cache() -> Any:
    """Throttle counters and cached pages live in the cache: none leak into other tests."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
