"""The event page in a real browser (Debian's Chromium through Playwright): usable with
the keyboard alone, and no sideways scrolling on a phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client

from tests.games.gamehelpers import make_user
from tests.tournaments.tourpageshelpers import club_of, end_round, event_of, started
from tournaments import services
from tournaments.models import Registration

# slow: a real browser against the live server
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Any:
    # Playwright's sync API runs an event loop in this thread; the ORM calls between
    # browser steps are still plain synchronous calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()
        # While Playwright's loop runs, Django keys its connections to that context: close
        # the ones the test used here, or they outlive the test database.
        connections.close_all()


def logged_in(browser: Any, live_server: Any, user: Any, **options: Any) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(**options)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    return context.new_page()


def tab_to(page: Any, text: str, limit: int = 60) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == text:
            return
    raise AssertionError(f"Tab never reached {text!r}")


def test_a_player_registers_with_the_keyboard_alone(browser, live_server):
    alice, bob = make_user("alice"), make_user("bob")
    event = event_of(club_of(alice, "Oak", bob), alice)
    page = logged_in(browser, live_server, bob)
    page.goto(live_server.url + event.get_absolute_url())
    tab_to(page, "Register")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "You are registered for Autumn Swiss." in page.content()
    assert Registration.objects.get(user=bob).is_active


def test_rounds_open_with_the_keyboard_and_a_phone_never_scrolls_sideways(browser, live_server):
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    event = started(event_of(club_of(alice, "Oak", bob, carol), alice, alice, bob, carol), alice)
    end_round(event, alice)
    event.refresh_from_db()
    if event.current_round == 1:  # the after-commit work may have seated it already
        services.seat_next_round(event, alice)
    page = logged_in(browser, live_server, bob, viewport={"width": 360, "height": 740})
    page.goto(live_server.url + event.get_absolute_url())
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    first = page.locator("#round-1")
    assert first.get_attribute("open") is None  # the latest round is open, older ones folded
    page.focus("#round-1 summary")
    page.keyboard.press("Enter")
    assert first.get_attribute("open") is not None
