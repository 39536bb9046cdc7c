"""The pages pass axe-core's checks in every language, the turn builder's controls all
have names a screen reader speaks, and Tab moves through them in reading order.

axe-core (vendored in tests/e2e/vendor/, see its README) is added to each page by
Playwright; a context that bypasses the Content-Security-Policy lets that script run
(the other browser tests check the policy itself).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from games.evergreen import rules
from tests.e2e.e2ehelpers import IDLE, Shots
from tests.e2e.pagehelpers import game_of, in_action, logged_in
from tests.games.gamehelpers import make_user, play_until
from tests.i18n.i18nworld import speak
from tests.tournaments.tourpageshelpers import club_of, event_of, started

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
LANGUAGES = ("en", "de", "fr", "ru")
SERIOUS = ("serious", "critical")
RUN_AXE = """async () => {
    const result = await axe.run(document, {resultTypes: ["violations"]});
    return result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
}"""


def before_my_pick(state: rules.GameState) -> bool:
    """The other seat picks first: my page offers the standing order (a select per card)."""
    return state.phase is rules.Phase.DRAFT and state.to_pick == 1 and state.seats[0].card is None


def in_second_draft(state: rules.GameState) -> bool:
    return state.phase is rules.Phase.DRAFT and state.round >= 2 and 0 in state.awaiting


def world() -> tuple[Any, dict[str, str]]:
    """A player (alice) and the pages to check: the home page, the lobby, a game in each
    phase, a replay, a club and an event."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    draft = play_until(game_of(alice, bob), in_second_draft)
    ranking = play_until(game_of(alice, bob), before_my_pick)
    assert before_my_pick(ranking.engine_state())
    action = play_until(game_of(alice, bob), in_action)
    over = play_until(game_of(alice, bob), lambda state: False)
    assert over.engine_state().is_over
    club = club_of(alice, "Oak", bob, carol)
    event = started(event_of(club, alice, alice, bob, carol), alice)
    return alice, {
        "home": "/",
        "lobby": "/lobby/",
        "draft": draft.get_absolute_url(),
        "ranking": ranking.get_absolute_url(),
        "action": action.get_absolute_url(),
        "over": over.get_absolute_url(),
        "replay": f"/games/{over.pk}/replay/?move=12",
        "club": club.get_absolute_url(),
        "event": event.get_absolute_url(),
    }


def serious_violations(page: Page) -> list[dict[str, Any]]:
    page.wait_for_function(IDLE)
    page.add_script_tag(path=str(AXE))
    return [v for v in page.evaluate(RUN_AXE) if v["impact"] in SERIOUS]


def test_e2e_no_page_has_a_serious_accessibility_violation_in_any_language(
    new_context, site
) -> None:
    alice, pages = world()
    page = logged_in(new_context, site, alice, bypass_csp=True)
    visitor = new_context(bypass_csp=True).new_page()
    shots = Shots("pages")
    found: dict[str, list[dict[str, Any]]] = {}
    for language in LANGUAGES:
        speak(alice, language)
        for name, path in pages.items():
            page.goto(path)
            assert page.locator("html").get_attribute("lang") == language, (name, language)
            if name == "ranking":  # the standing order: a drawn card and a select each
                assert page.locator("#ranking label .card-svg").count() >= 2
            if violations := serious_violations(page):
                found[f"{name} ({language})"] = violations
            if language == "en":  # the home page and a game in each phase, for people
                shots.take(page, name)
        visitor.set_extra_http_headers({"Accept-Language": language})
        visitor.goto("/")
        assert visitor.locator("html").get_attribute("lang") == language
        if violations := serious_violations(visitor):
            found[f"home, logged out ({language})"] = violations
    assert not found, found


def test_e2e_the_turn_builders_controls_have_names_and_tab_follows_reading_order(
    new_context, site
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    game = play_until(game_of(alice, bob), in_action)
    page = logged_in(new_context, site, alice, bypass_csp=True)
    shots = Shots("accessibility")
    page.goto(game.get_absolute_url())
    nameless = """() => [...document.querySelectorAll(
            '#play button, #play select, #play input:not([type=hidden]), #play a[href]')]
        .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim()
                       || (e.labels && [...e.labels].some(l => l.textContent.trim()))))
        .map(e => e.outerHTML.slice(0, 120))"""
    # Each step of the builder: the Actions, the timings, the spaces to click.
    page.click("#act-C")
    page.wait_for_function(IDLE)
    assert page.evaluate(nameless) == []
    page.click("#timing-after")
    page.wait_for_function(IDLE)
    assert page.locator(".space-button").count() > 0
    assert page.evaluate(nameless) == []
    assert serious_violations(page) == []
    shots.take(page, "turn-builder-spaces")
    # Tab from the top of the page: every stop comes after the one before it, none is
    # skipped back to (no positive tabindex), until the end of the page.
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    order_kept = """(previous) => previous === null || !!(
        previous.compareDocumentPosition(document.activeElement)
        & Node.DOCUMENT_POSITION_FOLLOWING)"""
    previous = None
    stops = 0
    for _ in range(300):
        page.keyboard.press("Tab")
        handle = page.evaluate_handle("() => document.activeElement")
        if page.evaluate("e => e === document.body", handle):
            break
        assert page.evaluate(order_kept, previous), page.evaluate(
            "e => e.outerHTML.slice(0, 160)", handle
        )
        previous = handle
        stops += 1
    assert stops > 10
    assert page.locator("[tabindex]:not([tabindex='0']):not([tabindex='-1'])").count() == 0
