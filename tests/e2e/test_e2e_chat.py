"""Two people, two browsers, one game's chat: messages travel by the chat's own polling
(what one is typing survives the other's messages arriving), a report reaches the admin,
and a block hides the blocked player's messages from the one who blocked them only.
The ``new_context`` fixture fails the test on any Content-Security-Policy violation."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from conversations.models import Report, Shield
from games import services
from tests.e2e.e2ehelpers import log_in
from tests.games.gamehelpers import PASSWORD, make_user

# slow: two real browsers against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def open_game(new_context: Any, email: str, game_id: int) -> Page:
    page = new_context().new_page()
    log_in(page, email, PASSWORD)
    page.goto(f"/games/{game_id}/")
    expect(page.locator("#chat-game h2")).to_have_text("Chat")
    return page


def send(page: Page, text: str) -> None:
    page.fill("#chat-game textarea[name=text]", text)
    page.click("#chat-game button:has-text('Send')")
    expect(page.locator("#chat-game textarea[name=text]")).to_have_value("")


def lines(page: Page) -> Any:
    return page.locator("#chat-game .chat-text")


def test_e2e_chat_between_two_browsers_with_a_report_and_a_block(new_context, settings) -> None:
    settings.CHAT_RATE_LIMIT = "1000/minute"
    alice, bob = make_user("alice"), make_user("bob")
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)

    at_alice = open_game(new_context, "alice@example.org", game.pk)
    at_bob = open_game(new_context, "bob@example.org", game.pk)
    expect(at_bob.locator("#chat-game")).to_contain_text("No messages yet.")

    send(at_alice, "Good luck, <b>Bob</b>!")
    expect(lines(at_alice)).to_have_text(["Good luck, <b>Bob</b>!"])  # escaped, shown as typed
    expect(lines(at_bob)).to_have_text(["Good luck, <b>Bob</b>!"])  # by polling

    # Bob is typing when Alice's next message arrives: his words stay in the box.
    at_bob.fill("#chat-game textarea[name=text]", "Thanks, you")
    send(at_alice, "Ready?")
    expect(lines(at_bob)).to_have_text(["Good luck, <b>Bob</b>!", "Ready?"])
    expect(at_bob.locator("#chat-game textarea[name=text]")).to_have_value("Thanks, you")
    at_bob.fill("#chat-game textarea[name=text]", "Thanks, you too!")
    at_bob.click("#chat-game button:has-text('Send')")
    expect(lines(at_alice)).to_have_text(["Good luck, <b>Bob</b>!", "Ready?", "Thanks, you too!"])
    expect(at_alice.locator("#chat-game .chat-line.is-mine .chat-author").first).to_have_text(
        "Alice"
    )

    # Bob reports Alice's second message.
    ready = at_bob.locator("#chat-game .chat-line", has_text="Ready?")
    ready.locator("summary").click()
    ready.locator("input[name=reason]").fill("too impatient")
    ready.locator("button:has-text('Report')").click()
    expect(at_bob.locator("#chat-game .notice")).to_contain_text("Thank you")
    report = Report.objects.get()
    assert (report.reporter_id, report.message.text, report.reason) == (
        bob.pk,
        "Ready?",
        "too impatient",
    )

    # Bob blocks Alice: her messages leave his page, and new ones never reach it.
    first = at_bob.locator("#chat-game .chat-line", has_text="Good luck")
    first.locator("summary").click()
    first.locator("button:has-text('Block Alice')").click()
    expect(lines(at_bob)).to_have_text(["Thanks, you too!"])
    expect(at_bob.locator("#chat-game .chat-blocked summary")).to_have_text("Players you blocked")
    assert Shield.objects.filter(owner=bob, other=alice, kind="block").exists()
    send(at_alice, "Are you still there?")
    expect(lines(at_alice)).to_have_count(4)
    at_bob.wait_for_timeout(1500)  # several polls of the chat
    expect(lines(at_bob)).to_have_text(["Thanks, you too!"])

    # Unblocking brings her messages back.
    at_bob.locator("#chat-game .chat-blocked summary").click()
    at_bob.click("#chat-game button:has-text('Unblock Alice')")
    expect(lines(at_bob)).to_have_count(4)
