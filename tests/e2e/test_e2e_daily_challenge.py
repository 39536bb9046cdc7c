"""The daily challenge in the browser: a player opens it from the navigation, starts
today's game, finds another player's game of the day hidden, finishes hers, and then
sees the leaderboard of the day with titles, the target and her streak.

The game itself is played quickly through the services (the solo game's pages have
their own browser tests); what is tested here is the challenge around it.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from challenges import services
from challenges.models import ChallengeEntry
from games.models import Game
from tests.challenges.challengehelpers import clock_at, finish
from tests.e2e.e2ehelpers import Shots, log_in
from tests.games.gamehelpers import PASSWORD, make_user

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_e2e_a_daily_challenge_from_the_navigation_to_the_leaderboard(
    new_context, monkeypatch
) -> None:
    clock_at(monkeypatch)  # noon UTC: the whole test happens within one challenge day
    # Targets by each kind's quick player: tests run Celery eagerly, so the page that opens
    # the day (Verdant's here) would play the strong player's whole game (~9 s of CPU, past
    # the browser's patience on a busy machine) inside its request; a worker does it live.
    monkeypatch.setattr(services, "target_bot", lambda kind: kind.default_bot)
    shots = Shots("daily")
    bob = make_user("bob")
    bobs, _ = services.start(bob, "evergreen")
    bobs_game = finish(bobs.game, bob)
    bobs_score = bobs_game.seats.get().score
    rowan = make_user("rowan")

    page = new_context().new_page()
    log_in(page, "rowan@example.org", PASSWORD)
    page.click(".site-header a:has-text('Daily challenge')")
    section = page.locator("#challenge-evergreen")
    expect(section.locator(".hidden-board")).to_contain_text("stays hidden")
    expect(section.locator(".target")).to_contain_text("scored")
    expect(section).not_to_contain_text("Bob")
    shots.take(page, "before-playing")

    section.locator('button:has-text("Play today\'s challenge")').click()
    page.wait_for_url(re.compile(r"/games/\d+/"))
    entry = ChallengeEntry.objects.get(user=rowan, challenge__kind="evergreen")
    assert page.url.endswith(f"/games/{entry.game_id}/")
    assert entry.game.seed == bobs_game.seed  # the same deal as Bob's
    expect(page.locator("#status-line")).to_contain_text("Your pick")

    refused = page.goto(f"/games/{bobs.game_id}/")
    assert refused is not None and refused.status == 403
    expect(page.locator("main")).to_contain_text("until you have finished yours")
    expect(page.locator("main")).not_to_contain_text(str(bobs_score) + " points")

    finish(entry.game, rowan)
    page.goto(f"/games/{entry.game_id}/")
    expect(page.locator("#status-line")).to_contain_text("Game over")

    page.click(".site-header a:has-text('Daily challenge')")
    board = page.locator("#challenge-evergreen table.leaderboard")
    expect(board.locator("tbody tr")).to_have_count(2)
    rows = {
        name: board.locator("tbody tr", has=page.locator(f"th:has-text('{name}')"))
        for name in ("Bob", "Rowan")
    }
    expect(rows["Bob"].locator("td[data-label=Score]")).to_have_text(str(bobs_score))
    expect(rows["Rowan"]).to_have_class("me")
    for row in rows.values():
        expect(row.locator("td[data-label=Title]")).not_to_be_empty()
    expect(page.locator("#challenge-evergreen .streak")).to_have_text("1 day")
    expect(page.locator("#challenge-evergreen a:has-text('See your game')")).to_be_visible()
    shots.take(page, "leaderboard")

    rows["Bob"].locator("a").click()
    page.wait_for_url(f"**/games/{bobs.game_id}/")
    expect(page.locator("#status-line")).to_contain_text("Game over")
    assert Game.objects.filter(seats__user=rowan).count() == 1
