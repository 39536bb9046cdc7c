"""Hooks for the whole suite (fixtures live next to the tests that use them)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
_started: list[float] = []


def pytest_sessionstart(session: Any) -> None:
    _started.append(time.time())


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say where this run's artefacts went (browser screenshots: tests/e2e). Runs in the
    xdist controller too, which sees the files the workers wrote."""
    if not _started or not ARTIFACTS.is_dir():
        return
    new = [p for p in ARTIFACTS.rglob("*") if p.is_file() and p.stat().st_mtime >= _started[0]]
    if not new:
        return
    terminalreporter.write_sep("-", "test artefacts")
    for folder in sorted({p.parent for p in new}):
        count = sum(p.parent == folder for p in new)
        terminalreporter.write_line(f"{count} new files in {folder}")
