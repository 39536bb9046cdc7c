"""Helpers of the load and fault tests."""

from __future__ import annotations

import os
import shutil

import pytest
from django.conf import settings


def ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off")


def needs_stack() -> None:
    """These tests start gunicorn, a Celery worker and a private redis-server against the
    PostgreSQL test database: skipped without them, failed under ``CI``."""
    reason = None
    if getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql":
        reason = "the PostgreSQL test database (other processes use it)"
    elif shutil.which("redis-server") is None:
        reason = "redis-server (a private one is started and restarted)"
    if reason is None:
        return
    if ci():
        pytest.fail(f"CI is set and this test needs {reason}", pytrace=False)
    pytest.skip(f"needs {reason}")
