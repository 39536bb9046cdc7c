"""A new account in a real browser: its public name and the browser's time zone; the
invitation link copied from an open game's page; Back after a pick shows the game list
as it is now, not as the browser remembered it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Player
from tests.e2e.e2ehelpers import create_game, log_in, state_of
from tests.games.gamehelpers import PASSWORD, make_user

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_e2e_sign_up_takes_the_public_name_and_the_browsers_time_zone(new_context) -> None:
    page = new_context(timezone_id="Asia/Tokyo").new_page()
    page.goto("/accounts/signup/")
    page.fill("main [name=email]", "kenji@example.org")
    page.fill("main [name=display_name]", "Kenji")
    page.fill("main [name=password1]", PASSWORD)
    page.fill("main [name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    expect(page.locator(".site-header")).to_contain_text("Log out")
    player = Player.objects.get(user__email="kenji@example.org")
    assert (player.display_name, player.time_zone) == ("Kenji", "Asia/Tokyo")
    page.goto("/profile/")
    expect(page.locator("main [name=time_zone] option:checked")).to_have_text(
        re.compile(r"\(UTC\+09:00\) Tokyo")
    )


def test_e2e_the_invitation_link_is_copied_from_the_open_games_page(new_context) -> None:
    make_user("ines")
    context = new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    log_in(page, "ines@example.org", PASSWORD)
    game_id = create_game(page, "3")
    link = page.locator("#invite-url")
    expect(link).to_have_value(re.compile(r"/invite/[\w-]+/$"))
    page.click("button[data-copy='#invite-url']")
    expect(page.locator("button[data-copy='#invite-url']")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == link.input_value()
    assert str(game_id) in page.url


def test_e2e_back_after_a_pick_shows_the_games_as_they_are_now(new_context) -> None:
    for name in ("olga", "piet"):
        make_user(name)
    olga = new_context().new_page()
    piet = new_context().new_page()
    log_in(olga, "olga@example.org", PASSWORD)
    log_in(piet, "piet@example.org", PASSWORD)
    game_id = create_game(olga, "2")
    piet.goto(olga.url)
    piet.click("main button:has-text('Join this game')")
    picker = olga if state_of(game_id).to_pick == 0 else piet
    picker.goto("/games/mine/")
    expect(picker.locator("#my-move")).to_contain_text("(1)")
    picker.click(f"main a[href='/games/{game_id}/'] >> nth=0")
    picker.locator("main form[action$='/pick/'] button").first.click()
    expect(picker.locator("#status-line")).not_to_contain_text("Your pick")
    picker.go_back()
    expect(picker.locator("#my-move")).to_contain_text("(0)")
    expect(picker.locator("#waiting")).to_contain_text("(1)")
