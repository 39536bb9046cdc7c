"""The story of a game in a browser: the game log, the replay with every planet and the
arrow keys, the end of a game and a rematch between two browsers.

The games are played through the services (the moves are not what is tested here); the
pages are read and used in Debian's Chromium against the live server.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Game
from games.rematches.models import Rematch
from tests.e2e.e2ehelpers import Shots, log_in
from tests.games.gamehelpers import PASSWORD, make_user, play_until

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def a_game(until: Callable[[Any], bool]) -> Game:
    rowan, ash = make_user("rowan"), make_user("ash")
    game = services.create_game(rowan, players=2)
    services.join_game(game.pk, ash)
    return play_until(Game.objects.get(pk=game.pk), until, limit=1000)


def test_e2e_the_log_and_the_replay_with_every_planet_and_the_arrow_keys(new_context) -> None:
    shots = Shots("story")
    game = a_game(lambda s: s.season == 2 and s.round == 2)
    page = new_context(viewport={"width": 1280, "height": 900}).new_page()
    log_in(page, "rowan@example.org", PASSWORD)

    page.goto(f"/games/{game.pk}/")
    log = page.locator("section.story")
    expect(log.locator("h2")).to_have_text("Game log")
    expect(log.locator("details[open] summary")).to_have_text("Summer, round 2")
    log.locator("summary", has_text="Spring, round 5").click()
    spring = log.locator("details", has_text="Spring, round 5")
    expect(spring).to_contain_text("Spring scored:")
    expect(spring).to_contain_text(re.compile(r"Rowan took .+; Action [ABCD]:"))
    expect(spring.locator("svg.story-icon use").first).to_have_attribute(
        "href", re.compile("#icon-")
    )
    # The newest rounds are shown; the earlier ones come in place of the link that asks.
    expect(log.locator("details.story-round")).to_have_count(3)
    log.locator(".story-earlier a", has_text="Show the 4 earlier rounds").click()
    expect(log.locator("details.story-round")).to_have_count(7)
    expect(log.locator(".story-earlier")).to_have_count(0)
    expect(log.locator("details.story-round summary").last).to_have_text("Spring, round 1")
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))  # still the game page
    # The opponents' planet beside mine, at a readable size, with its numbers.
    other = page.locator(".planet-row .planet-medium")
    expect(other).to_have_count(1)
    assert other.bounding_box()["width"] >= 250
    expect(other.locator(".planet-numbers")).not_to_be_empty()

    page.goto(f"/games/{game.pk}/replay/?move=0")
    expect(page.locator(".replay-planets figure.planet")).to_have_count(2)
    for planet in page.locator(".replay-planets figure.planet").all():
        expect(planet).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(r"\?move=1$"))
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(r"\?move=2$"))
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(r"\?move=1$"))
    page.locator(".replay-jumps a", has_text="End of Spring").click()
    expect(page.locator(".season-line")).to_contain_text("Summer")
    expect(page.locator("section.story details[open] summary")).to_have_text("Spring, round 5")
    expect(page.locator(".replay-nav svg.nav-icon")).to_have_count(4)
    shots.take(page, "replay")


def test_e2e_the_end_of_a_game_and_a_rematch_between_two_browsers(new_context) -> None:
    shots = Shots("ending")
    game = a_game(lambda s: s.is_over)
    rowan = new_context(viewport={"width": 1280, "height": 900}).new_page()
    ash = new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    log_in(rowan, "rowan@example.org", PASSWORD)
    log_in(ash, "ash@example.org", PASSWORD)

    rowan.goto(f"/games/{game.pk}/")
    ending = rowan.locator("section.ending")
    expect(ending.locator(".rank")).to_have_count(2)
    expect(ending.locator(".rank").first).to_contain_text("1.")
    expect(ending.locator("svg.score-chart polyline")).to_have_count(2)
    expect(rowan.locator("section.scores")).to_contain_text("Winter")
    shots.take(rowan, "end")
    rowan.get_by_role("button", name="Offer a rematch").click()
    expect(ending.locator(".rematch-status")).to_contain_text("Waiting for: Ash.")

    ash.goto(f"/games/{game.pk}/")
    expect(ash.locator(".rematch-status")).to_contain_text("Accepted by: Rowan.")
    ash.get_by_role("button", name="Accept the rematch").click()
    new = Rematch.objects.get(game=game).new_game
    assert new is not None
    expect(ash).to_have_url(re.compile(rf"/games/{new.pk}/$"))
    expect(ash.locator("section.story, #play")).not_to_have_count(0)
    # Rowan's page was polling while the rematch waited: it offers the way to the new game.
    rowan.get_by_role("link", name="Go to the rematch").click()
    expect(rowan).to_have_url(re.compile(rf"/games/{new.pk}/$"))
    assert list(new.seats.order_by("position").values_list("user__username", flat=True)) == [
        "rowan",
        "ash",
    ]
