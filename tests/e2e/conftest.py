"""Fixtures for the browser tests: Debian's Chromium driven by Playwright against the
live server (pytest-django's ``live_server``, a real PostgreSQL, Celery eager).

* Never downloads a browser: ``/usr/bin/chromium`` (``scripts/ensure-chromium``, run by
  ``make test``, installs it). ``--no-sandbox`` because containers often run it as root.
* Playwright's sync API keeps an asyncio loop running in the test's thread, so Django's
  guard against ORM calls from async code is lifted for these tests only
  (``DJANGO_ALLOW_ASYNC_UNSAFE``); the test thread reads the database, to choose moves
  and to check what the pages show, and a test may play the middle of a game through the
  services, as the other players' API clients would.
* The game page polls every 15 s in production; here every quarter of a second, so the other
  player's page catches up quickly (the polling itself is what is being tested).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
POLL_SECONDS = 0.25


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run scripts/ensure-chromium (make test does) "
            "to install Debian's chromium; the browser tests never download one."
        )
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
        )
        try:
            yield chromium
        finally:
            chromium.close()
            # Connections the test opened while Playwright's loop ran live in that
            # context; close them, or the test database cannot be dropped at the end.
            connections.close_all()


@pytest.fixture
def site(
    django_db_setup: Any, live_server: Any, transactional_db: Any, monkeypatch: pytest.MonkeyPatch
) -> str:
    """The live server's address, with the game page polling fast."""
    from games.views import play

    monkeypatch.setattr(play, "POLL_SECONDS", POLL_SECONDS)
    return str(live_server.url)


@pytest.fixture
def new_context(browser: Any, site: str) -> Iterator[Any]:
    """Open a fresh browser context (a separate person: own cookies) on the live site."""
    contexts: list[Any] = []
    refused: list[str] = []  # what the Content-Security-Policy blocked: the pages need none

    def on_console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    def make(**options: Any) -> Any:
        context = browser.new_context(base_url=site, **options)
        context.set_default_timeout(20_000)
        context.on("console", on_console)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
    assert not refused, "\n".join(refused[:10])
