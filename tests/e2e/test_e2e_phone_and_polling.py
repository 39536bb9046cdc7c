"""A phone plays a turn by touch; a poll never undoes a step made while it was under way.

Both tests start their games from the lobby and make every move in the browser.
"""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Request, Route, expect

from games.evergreen import rules
from games.evergreen.rules.moves import Turn
from tests.e2e.e2ehelpers import (
    Person,
    Shots,
    create_game,
    last_move,
    log_in,
    no_horizontal_scroll,
    state_of,
    version_of,
)
from tests.e2e.movechoice import Wishes, choose_pick, choose_turn
from tests.games.gamehelpers import PASSWORD, make_user, turn_text

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
SMALLEST_TARGET = 24  # CSS pixels: WCAG 2.2's minimum size of a pointer target


def test_e2e_a_phone_plays_a_turn_by_touch(new_context) -> None:
    shots = Shots("phone")
    make_user("pat")
    person = Person(new_context(**PHONE).new_page(), "Pat", seat=0, how="touch")
    page = person.page
    log_in(page, "pat@example.org", PASSWORD)
    game_id = create_game(page, "2", computer_seats="1")

    # The computer player in seat 1 picks by itself (at once when it is first).
    state = state_of(game_id)
    assert state.phase is rules.Phase.DRAFT and state.to_pick == 0
    person.wait_for_version(version_of(game_id))
    width, viewport = no_horizontal_scroll(page)
    assert width <= viewport, f"the game page is {width}px wide on a {viewport}px phone"
    shots.take(page, "draft")
    person.pick(choose_pick(state, 0, Wishes(), seed=3))

    state = state_of(game_id)
    assert state.phase is rules.Phase.ACTION and 0 in state.awaiting
    turn = choose_turn(state, 0, Wishes(actions={"C"}, timings={"after"}), seed=3)

    def check_layout(part: str) -> None:
        if part != "timing":
            return
        # Every highlighted space can be hit by a finger, and nothing sticks out sideways.
        sizes = page.locator(".space-button").evaluate_all(
            "bs => bs.map(b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })"
        )
        assert sizes, "no space is highlighted once the Action and timing are chosen"
        assert min(min(w, h) for w, h in sizes) >= SMALLEST_TARGET, sizes
        width, viewport = no_horizontal_scroll(page)
        assert width <= viewport, f"the turn builder is {width}px wide on a {viewport}px phone"
        page.locator("#planet-0").scroll_into_view_if_needed()
        shots.take(page, "building-the-turn", full_page=False)

    person.play_turn(turn, on_step=check_layout)
    assert last_move(game_id, 0).payload == turn.to_json()

    # The computer player's turn follows at once: the next round's Draft begins.
    state = state_of(game_id)
    assert (state.round, state.phase) == (2, rules.Phase.DRAFT)
    person.wait_for_version(version_of(game_id))
    shots.take(page, "next-round")
    print(f"\nE2E screenshots: {shots.folder}")


def test_e2e_a_poll_under_way_never_undoes_a_step(new_context) -> None:
    """Bob is building his turn when Alice submits hers. A poll of Bob's page, sent before
    Bob's next step, is answered while the step is under way: that answer (the page as it
    was before the step) must not replace the step's own answer."""
    make_user("alice")
    make_user("bob")
    alice = Person(new_context().new_page(), "Alice", seat=0)
    bob = Person(new_context().new_page(), "Bob", seat=1)
    log_in(alice.page, "alice@example.org", PASSWORD)
    game_id = create_game(alice.page, "2")
    log_in(bob.page, "bob@example.org", PASSWORD)
    bob.page.goto("/lobby/")
    bob.page.click(f"main form[action='/games/{game_id}/join/'] button")
    bob.page.wait_for_url(f"**/games/{game_id}/")
    people = {0: alice, 1: bob}

    state = state_of(game_id)
    while state.phase is rules.Phase.DRAFT:  # the two picks, whoever is first
        seat = state.to_pick
        people[seat].wait_for_version(version_of(game_id))
        people[seat].pick(state.pool[0])
        state = state_of(game_id)
    for person in people.values():
        person.wait_for_version(version_of(game_id))

    page = bob.page
    bob.operate(page.locator("#act-D"), expect_post="/turn/")
    done: list[Request] = []
    page.on("requestfinished", lambda request: done.append(request))
    page.on("requestfailed", lambda request: done.append(request))

    def until_done(request: Request) -> None:
        for _ in range(500):
            if request in done:
                return
            page.wait_for_timeout(20)
        raise AssertionError(f"{request.url} never finished")

    # Bob's next poll is held (it asks for the page at the version Bob sees now) ...
    polls: list[Route] = []
    with page.expect_request("**/poll/**"):
        page.route("**/poll/**", lambda route: polls.append(route))
    # ... while Alice submits her turn (the game moves on) ...
    alice.play_turn(Turn(0, "D"))
    # ... and Bob makes his next step, whose answer is held too.
    steps: list[Route] = []
    page.route("**/turn/", lambda route: steps.append(route))
    with page.expect_request("**/turn/"):
        page.click("#timing-none")
    # The poll is answered first (the page as it was before the step), then the step.
    for route in polls:
        with contextlib.suppress(PlaywrightError):  # unless the page gave up on it
            route.continue_()
        until_done(route.request)
    page.wait_for_function("() => !document.querySelector('.poller.htmx-request, .htmx-settling')")
    with page.expect_response("**/turn/"):
        steps[0].continue_()
    until_done(steps[0].request)
    page.unroute("**/turn/")
    page.unroute("**/poll/**")
    bob.idle()
    expect(page.locator("#turn-form input[name=steps]")).to_have_value(
        turn_text("D", "none", seat=1)
    )
    expect(page.locator("#play")).to_have_attribute("data-version", str(version_of(game_id)))
    bob.no_error()
    # And Bob's page goes on as usual: he submits, the round ends.
    bob.operate(page.locator("#turn-submit"), expect_post="/turn/submit/")
    assert state_of(game_id).round == 2
