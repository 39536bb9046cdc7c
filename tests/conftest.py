"""Set-up shared by every test directory: the translation catalogs, compiled.

The ``.mo`` files are build products (not in git); ``make test`` compiles them with
``compilemessages``. A test run started any other way compiles the stale ones here, with
polib, before Django loads a catalog.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import polib
import pytest

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
