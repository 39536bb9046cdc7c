"""Set-up shared by every test directory: the named users (``tests/users.py``: ``alice``,
``bob``, ``carol``, ``staff``, ``superuser``); the translation catalogs, compiled; where
the run's artefacts went.

The ``.mo`` files are build products (not in git); ``make test`` compiles them with
``compilemessages``. A test run started any other way compiles the stale ones here, with
polib, before Django loads a catalog.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Any

import polib
import pytest

pytest_plugins = ["tests.users", "tests.ordering"]

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def compile_stale_catalogs() -> None:
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        # Written aside and moved in: parallel workers never read half a file.
        fd, temporary = tempfile.mkstemp(dir=po.parent, suffix=".mo.part")
        os.close(fd)
        polib.pofile(str(po)).save_as_mofile(temporary)
        os.replace(temporary, mo)


def pytest_configure(config: Any) -> None:
    compile_stale_catalogs()
    # A commit here need not wait for PostgreSQL to flush it to disk (~8 ms each on this
    # kind of machine, for every commit of the transactional tests, the live server, the
    # Celery workers and gunicorns the tests start: they inherit the variable). What
    # another connection sees is the same; only a crash of the server itself could lose
    # the last commits, and no test crashes it.
    os.environ.setdefault("PGOPTIONS", "-c synchronous_commit=off")


@pytest.fixture(autouse=True)
def _no_language_or_time_zone_left_over() -> Any:
    """Each test starts in the site's default language and time zone.

    A request activates the visitor's language and time zone in the thread (middleware),
    and nothing resets them after a test-client request: without this, a test after a
    German player's page would run in German.
    """
    yield
    from django.utils import timezone, translation

    translation.deactivate()
    timezone.deactivate()


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


@pytest.fixture(autouse=True)
def _celery_follows_the_test_settings(settings: Any) -> None:
    """Each test starts with Celery as the test settings say (eager, in-memory broker).

    Celery keeps its own copy of the configuration, read lazily; tests that hand tasks to
    a real worker change it (``celeryhelpers.live_broker``) and restore it, but a
    transactional test after one of them was seen starting non-eager, its ``.delay()``
    calls lost. Tests that want a worker change it again after this (their fixtures run
    later)."""
    from evergreen.celery import app

    app.conf.task_always_eager = settings.CELERY_TASK_ALWAYS_EAGER
    app.conf.broker_url = settings.CELERY_BROKER_URL


@pytest.fixture
def kept_parts(settings: Any) -> Any:
    """The parts of a game page kept in the cache (games.fragments) switched on, as in
    production, with the cache emptied before and after (the test settings keep none)."""
    from django.core.cache import cache

    settings.GAME_FRAGMENT_CACHE_SECONDS = 3600
    cache.clear()
    yield
    cache.clear()
