"""A page whose game moved on only by another seat's hidden turn takes the new status bar
and score table and leaves the board it shows in place (the poll's quiet answer, games/views/quietpoll.py)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games import services
from tests.e2e.e2ehelpers import IDLE
from tests.e2e.pagehelpers import game_of, in_action, logged_in
from tests.games.gamehelpers import make_user, play_until, user_at


def test_e2e_the_rivals_hidden_turn_updates_the_status_bar_not_the_board(
    new_context: Any, site: str
) -> None:
    from games.evergreen.rules.bots import RandomBot

    game = play_until(game_of(make_user("alice"), make_user("bob")), in_action)
    page = logged_in(new_context, site, user_at(game, 0))
    page.goto(f"/games/{game.pk}/")
    page.wait_for_function(IDLE)
    page.evaluate("document.querySelector('#play .play-grid').dataset.drawnBefore = 'yes'")
    bar, scores = page.locator("#play .status-bar"), page.locator("#play .panel.scores")
    expect(scores).not_to_contain_text("turn submitted")
    state = game.engine_state()
    services.submit_move(game.pk, user_at(game, 1), RandomBot(1).choose(state, 1))
    game.refresh_from_db()
    expect(bar).to_have_attribute("data-version", str(game.version))
    expect(page.locator("#play")).to_have_attribute("data-version", str(game.version - 1))
    expect(page.locator("#play .play-grid")).to_have_attribute("data-drawn-before", "yes")
    expect(scores).to_contain_text("turn submitted")  # Bob's mark, not his turn
    expect(page.locator("#play .poller")).to_have_attribute(
        "hx-get", f"/games/{game.pk}/poll/?version={game.version}&focus=0"
    )
