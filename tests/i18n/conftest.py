"""Fixtures for the translation tests: a fixed game seed.

The named users come from the root ``conftest.py``; the helpers the tests import live
in ``tests.i18n.i18nworld`` and ``tests.i18n.i18nhelpers``."""

from __future__ import annotations

from typing import Any

import pytest

from games import services


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: Any) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 4242)
