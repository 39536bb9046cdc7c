"""Changing and deleting one's own chat message in a browser: the change and the
deletion reach the other player's page by the chat's polling ("edited", "message
deleted"); the form to change is offered to the author only. The ``new_context`` fixture
fails the test on any Content-Security-Policy violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from tests.e2e.test_e2e_chat import lines, open_game, send
from tests.games.gamehelpers import make_user

# slow: two real browsers against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_e2e_an_author_edits_then_deletes_a_message(new_context, settings) -> None:
    settings.CHAT_RATE_LIMIT = "1000/minute"
    alice, bob = make_user("alice"), make_user("bob")
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    at_alice = open_game(new_context, "alice@example.org", game.pk)
    at_bob = open_game(new_context, "bob@example.org", game.pk)

    send(at_alice, "Good lcuk!")
    expect(lines(at_bob)).to_have_text(["Good lcuk!"])
    expect(at_bob.locator("#chat-game .chat-own")).to_have_count(0)

    mine = at_alice.locator("#chat-game .chat-line.is-mine")
    mine.locator(".chat-own summary").click()
    mine.locator("textarea[name=new_text]").fill("Good luck!")
    mine.locator("button:has-text('Save the change')").click()
    expect(lines(at_alice)).to_have_text(["Good luck!"])
    expect(lines(at_bob)).to_have_text(["Good luck!"])  # by polling
    expect(at_bob.locator("#chat-game .chat-edited")).to_have_text("edited")

    mine = at_alice.locator("#chat-game .chat-line.is-mine")
    mine.locator(".chat-own summary").click()
    mine.locator("button:has-text('Delete the message')").click()
    expect(lines(at_alice)).to_have_text(["message deleted"])
    expect(lines(at_bob)).to_have_text(["message deleted"])
    expect(at_alice.locator("#chat-game .chat-own")).to_have_count(0)
