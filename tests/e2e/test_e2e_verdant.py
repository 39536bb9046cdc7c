"""Verdant in the browser: two people play a game from their hidden starts to its end, a
solo game reaches its title, and a turn is played by touch on a 390 px phone.

The pages offer only legal choices (card + token pairs, cells, item targets); the test
takes what they offer, one choice at a time, by clicks (or taps, or keys), and checks
with the server's state that every move was accepted and nothing was refused.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game, Seat
from games.verdant import rules
from tests.e2e.e2ehelpers import IDLE, WAIT_MS, Shots, create_game, log_in
from tests.games.gamehelpers import PASSWORD, make_user
from tests.verdant.site.verdant_site_helpers import play_moves

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def state_of(game_id: int) -> rules.GameState:
    return Game.objects.get(pk=game_id).engine_state()


def seat_to_play(game_id: int, seconds: float = 30.0) -> int:
    """The seat to play once the round's hidden choices are revealed (by the worker)."""
    deadline = time.monotonic() + seconds
    while (seat := state_of(game_id).to_play) is None:
        assert time.monotonic() < deadline, "the start choices were never revealed"
        time.sleep(0.1)
    return seat


def idle(page: Page) -> None:
    page.wait_for_function(IDLE)


def wait_for_turn(game_id: int, turn: int, page: Page) -> None:
    """The server has the turn (an htmx request may still be on its way when the page
    looks idle for an instant)."""
    for _ in range(200):
        state = state_of(game_id)
        if state.turn >= turn or state.is_over:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"turn {turn} never reached the server")


def choose_side(page: Page, side: str, *, touch: bool = False) -> None:
    """Place the starting plant, as a person does: once the choice is taken the form is
    gone. A click the page's poll swallowed (the region swapped under the pointer, seen
    on a crowded machine) leaves the form there with no refusal: the person clicks again.
    A refusal is a failure."""
    for _ in range(3):
        radio = page.locator(f"#play input[name=side][value={side}]")
        radio.tap() if touch else radio.check()
        button = page.locator("#play button:has-text('Place my starting plant')")
        button.tap() if touch else button.click()
        idle(page)
        no_refusal(page)
        if button.count() == 0:
            return
    raise AssertionError("the starting plant was never placed")


def play_turn(page: Page, *, how: str = "mouse", use_items: bool = True) -> None:
    """Build a whole turn in the page's turn builder: at each question the first answer
    offered (an item is used on the first target offered, green thumbs are kept)."""
    builder = page.locator("#turn-builder")
    expect(builder).to_be_visible()
    for _ in range(12):
        idle(page)
        end = builder.locator("button:has-text('End my turn')")
        if end.count():
            if how == "touch":
                end.tap()
            else:
                end.click()
            idle(page)
            return
        radios = builder.locator("input[name=turn]")
        count = radios.count()
        assert count, "the builder offers nothing"
        values = [radios.nth(k).get_attribute("value") or "" for k in range(count)]
        last = values[-1].rsplit("/", 1)[-1]
        leave = last.startswith("skip") or last == "end"
        pick = count - 1 if leave and not use_items else 0
        chosen = radios.nth(pick)
        if how == "keyboard":
            chosen.focus()
            page.keyboard.press("Space")
            page.keyboard.press("Tab")
            expect(builder.locator("button:has-text('Next')")).to_be_focused()
            page.keyboard.press("Enter")
        elif how == "touch":
            chosen.tap()
            builder.locator("button:has-text('Next')").tap()
        else:
            chosen.check()
            builder.locator("button:has-text('Next')").click()
    raise AssertionError("the turn never reached its end")


def caught_up(page: Page, game_id: int) -> None:
    """Until the page shows the game as it is now (its poller brings it there)."""
    version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    shown = f'#play[data-version="{version}"], #play .status-bar[data-version="{version}"]'
    page.wait_for_selector(shown, timeout=WAIT_MS)
    idle(page)


def no_refusal(page: Page) -> None:
    assert page.locator("#play .error").count() == 0, page.locator("#play .error").inner_text()


# The turns (0-25 in a two-player game) played by the bots rather than in the pages: the
# first three rounds and the last are played by clicks, items used and kept, each page
# catching up with the other's turns. The whole game in the pages took 77 s of a parallel
# run (the solo game below plays every turn in the page).
BY_THE_BOTS = (6, 24)


def test_e2e_two_people_play_a_verdant_game_to_its_end(new_context) -> None:
    shots = Shots("verdant-two")
    make_user("alice")
    make_user("bob")
    alice = new_context().new_page()
    bob = new_context().new_page()
    log_in(alice, "alice@example.org", PASSWORD)
    log_in(bob, "bob@example.org", PASSWORD)
    game_id = create_game(alice, "2", kind="verdant")
    invite = alice.locator(".messages a").get_attribute("href")
    assert invite
    bob.goto(invite)
    bob.click("main form button:has-text('Join this game')")
    bob.wait_for_url(f"**/games/{game_id}/")
    pages = {s.user.email: s.position for s in Seat.objects.filter(game_id=game_id)}
    people = {pages["alice@example.org"]: alice, pages["bob@example.org"]: bob}
    alice.reload()

    choose_side(alice, "left")
    expect(alice.locator("#status-line")).to_contain_text("Waiting for every player")
    # Bob's page never shows Alice's hidden choice.
    assert "start_side" not in bob.content()
    # Alice's hidden choice moved the game's version on, but Bob could not see it: his
    # page, older than the game, is not stale for his own choice.
    choose_side(bob, "bottom")
    shots.take(alice, "started")

    for _ in range(40):
        state = state_of(game_id)
        if state.is_over:
            break
        seat = state.to_play
        if seat is None:  # both start choices are in: the worker is revealing them
            seat = seat_to_play(game_id)
        page = people[seat]
        turn_before = state.turn
        if turn_before == BY_THE_BOTS[0]:
            # The middle of the game is played elsewhere (the bots, through the services):
            # both pages catch up with it by polling alone.
            play_moves(Game.objects.get(pk=game_id), lambda s: s.turn >= BY_THE_BOTS[1])
            for person in people.values():
                caught_up(person, game_id)
            continue
        # The page of the player to move catches up by itself (polling).
        caught_up(page, game_id)
        expect(page.locator("#turn-builder")).to_be_visible()
        play_turn(page, use_items=turn_before % 3 != 2)
        wait_for_turn(game_id, turn_before + 1, page)
        no_refusal(page)
        assert state_of(game_id).turn == turn_before + 1
        if turn_before == 5:
            shots.take(page, "mid-game")
    state = state_of(game_id)
    assert state.is_over and all(s.turns == 13 for s in state.seats)
    for page in people.values():
        expect(page.locator("#status-line")).to_contain_text("The game is over")
    shots.take(alice, "over")


def test_e2e_a_solo_verdant_game_reaches_its_title(new_context) -> None:
    shots = Shots("verdant-solo")
    make_user("sylvia")
    page = new_context().new_page()
    log_in(page, "sylvia@example.org", PASSWORD)
    game_id = create_game(page, "1", kind="verdant")
    choose_side(page, "right")
    for turn in range(13):
        play_turn(page, how="keyboard" if turn == 1 else "mouse")
        wait_for_turn(game_id, turn + 1, page)
        no_refusal(page)
    state = state_of(game_id)
    assert state.is_over
    score, title = state.outcome.scores[0], state.outcome.title
    status = page.locator("#status-line")
    expect(status).to_contain_text(f"{score} points")
    if title:
        expect(status).to_contain_text(title)
    shots.take(page, "title")


def test_e2e_a_verdant_turn_by_touch_on_a_phone(new_context) -> None:
    shots = Shots("verdant-phone")
    make_user("pia")
    phone: Any = new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    ).new_page()
    log_in(phone, "pia@example.org", PASSWORD)
    game_id = create_game(phone, "1", kind="verdant")
    choose_side(phone, "top", touch=True)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    shots.take(phone, "turn")
    play_turn(phone, how="touch")
    wait_for_turn(game_id, 1, phone)
    no_refusal(phone)
    assert state_of(game_id).turn == 1
    assert re.search(r"/games/\d+/", phone.url)


def offered_bots(page: Page) -> list[str]:
    return page.locator("main [name=bot]").evaluate(
        "select => [...select.options].filter(o => !o.matches(':disabled')).map(o => o.value)"
    )


def test_e2e_the_create_form_offers_the_chosen_games_own_computer_players(new_context) -> None:
    make_user("alice")
    page = new_context().new_page()
    log_in(page, "alice@example.org", PASSWORD)
    page.goto("/games/new/")
    assert offered_bots(page) == ["easy", "medium", "hard", "strong", "greedy", "random"]
    expect(page.locator("main [data-kind=verdant]").first).to_be_hidden()
    expect(page.locator("main [data-kind=evergreen]")).to_be_visible()  # the Sun's start

    page.select_option("main [name=kind]", "verdant")
    assert offered_bots(page) == ["random", "greedy", "strong"]
    assert page.locator("main [name=bot]").evaluate("s => s.value") == "greedy"
    expect(page.locator("main [data-kind=evergreen]")).to_be_hidden()
    expect(page.locator("main [name=verdant_variant]")).to_be_visible()

    page.fill("main [name=computer_seats]", "1")
    page.click("main form button[type=submit]:has-text('Create the game')")
    page.wait_for_url(re.compile(r"/games/\d+/"))
    game = Game.objects.get()
    assert game.kind == "verdant"
    assert Seat.objects.get(game=game, position=1).bot == "greedy"


def test_e2e_the_score_after_the_turn_follows_the_ticked_cell_at_once(new_context) -> None:
    make_user("sylvia")
    page = new_context().new_page()
    log_in(page, "sylvia@example.org", PASSWORD)
    create_game(page, "1", kind="verdant")
    choose_side(page, "right")
    builder = page.locator("#turn-builder")
    builder.locator("input[name=turn]").first.check()
    builder.locator("button:has-text('Next')").click()
    idle(page)
    cells = builder.locator("input[name=turn][data-preview]")
    assert cells.count() >= 2
    after = builder.locator("[data-preview-after]")
    expect(after).to_be_hidden()  # no cell chosen yet: no score after the turn
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    for k in (cells.count() - 1, 0):
        cells.nth(k).check()
        preview = cells.nth(k).get_attribute("data-preview")
        expect(after).to_have_text(f"· after this turn: {preview}")
    # No step was asked of the server (the page's polling aside).
    assert not [url for url in requests if "turn=" in url and "/poll/" not in url]
