"""A visitor on the home page tries a solo game: asked to sign up first, then one click
opens the new game."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.e2ehelpers import Shots, sign_up

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_e2e_a_visitor_signs_up_and_is_one_click_from_a_solo_game(new_context) -> None:
    shots = Shots("home")
    page = new_context().new_page()
    page.goto("/")
    expect(page.locator(".showcase svg.board")).to_be_visible()
    expect(page.locator(".showcase-cards .card-svg")).to_have_count(4)
    shots.take(page, "visitor")
    page.click("#try-solo")
    page.wait_for_url(re.compile(r"/accounts/signup/"))
    sign_up(page, "newcomer@example.org")
    page.wait_for_url(re.compile(r"/games/solo/"))
    assert not Game.objects.exists()
    page.click("#try-solo")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert game.solo and game.seats.get().user.email == "newcomer@example.org"
    expect(page.locator(".pool .card-svg").first).to_be_visible()
    shots.take(page, "solo-game")
    # Back home, signed in: the button starts another one at once.
    page.goto("/")
    page.click("#try-solo")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    assert Game.objects.count() == 2
