"""Helpers for the browser tests: accounts, the game's rows, screenshots, people at browsers.

Every move is made in the browser, by clicks, taps or key presses on the pages. The
engine (``games.evergreen.rules``) only *chooses* what to do (``tests.e2e.movechoice``):
it reads the game's state from the database, proposes a legal pick or turn, and the test
then carries it out through the page, checking at each step that the page offers exactly
that option (a highlighted space, a card button, an Action button) and that nothing was
refused.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from games.evergreen import rules
from games.evergreen.rules.moves import LakePlacement, Turn
from games.models import Game, Move
from tests.e2e.movechoice import spaces_placed, turn_text

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
PASSWORD = "Sun-and-Forest-2026"
# The longest any single page update may take before the test fails. A bound for a page
# that never settles, not a speed check: on 2026-11-28 a whole run on a slower machine took
# the browser tests 2-5 times as long as before, and one step of a turn waited over 20 s.
WAIT_MS = 45_000

# htmx marks the element making a request, the target being swapped and the new content
# while it settles; none of them present means the page is at rest.
IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


# --- Accounts and the lobby -------------------------------------------------------------------


def sign_up(page: Page, email: str) -> None:
    """Fill in allauth's sign-up form on the current page (or open it) and land logged in."""
    if "/accounts/signup/" not in page.url:
        page.goto("/accounts/signup/")
    page.fill("main [name=email]", email)
    page.fill("main [name=display_name]", email.split("@")[0].capitalize())
    page.fill("main [name=password1]", PASSWORD)
    page.fill("main [name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    expect(page.locator(".site-header")).to_contain_text("Log out")


def log_in(page: Page, email: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("main [name=login]", email)
    page.fill("main [name=password]", password)
    page.click("main form button[type=submit]")
    expect(page.locator(".site-header")).to_contain_text("Log out")


def create_game(page: Page, players: str, **fields: str) -> int:
    """Start a game from the lobby's form; returns the new game's id (from the address)."""
    page.goto("/lobby/")
    page.click("main a:has-text('Start a game')")
    page.select_option("main [name=players]", players)
    for name, value in fields.items():
        locator = page.locator(f"main [name={name}]")
        if locator.evaluate("e => e.tagName") == "SELECT":
            locator.select_option(value)
        else:
            locator.fill(value)
    page.click("main form button[type=submit]:has-text('Create the game')")
    page.wait_for_url(re.compile(r"/games/\d+/"))
    match = re.search(r"/games/(\d+)/", page.url)
    assert match, page.url
    return int(match.group(1))


# --- The game as the server holds it (to choose moves and to check the pages) -----------------


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


def state_of(game_id: int, seconds: float = WAIT_MS / 1000) -> rules.GameState:
    """The game's state once the round it may be waiting to close is closed: the closing
    task is sent after the answer to the round's last move (``games.handoff``), so it may
    still be under way when the browser shows that answer."""
    deadline = time.monotonic() + seconds
    while (game := game_row(game_id)).needs_closing:
        assert time.monotonic() < deadline, f"game {game_id}'s round was never closed"
        time.sleep(0.05)
    return game.engine_state()


def version_of(game_id: int) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game_id)


def last_move(game_id: int, seat: int) -> Move:
    return Move.objects.filter(game_id=game_id, seat=seat).order_by("-number").first()


# --- Screenshots -------------------------------------------------------------------------------


@dataclass
class Shots:
    """Screenshots of the pages at key moments, saved under test-artifacts/e2e/."""

    prefix: str
    folder: Path = ARTIFACTS
    taken: list[Path] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob(f"{self.prefix}-*.png"):
            old.unlink()

    def take(self, page: Page, name: str, *, full_page: bool = True) -> Path:
        path = self.folder / f"{self.prefix}-{len(self.taken) + 1:02d}-{name}.png"
        page.wait_for_function(IDLE)
        page.screenshot(path=str(path), full_page=full_page)
        self.taken.append(path)
        return path


# --- A person at a browser ------------------------------------------------------------------------


@dataclass
class Person:
    """One player's browser page and how they operate it: mouse, touch or keyboard."""

    page: Page
    name: str
    seat: int = -1
    how: str = "mouse"  # "mouse", "touch" or "keyboard"
    steps_done: int = 0
    waited: float = 0.0  # seconds spent waiting for the page to catch up (polling)
    busy: float = 0.0  # seconds spent operating controls and waiting for the answers
    server: float = 0.0  # of which the server took
    tabs: int = 0  # Tab presses made

    # The page at rest and up to date.

    def idle(self) -> None:
        self.page.wait_for_function(IDLE, timeout=WAIT_MS)

    def wait_for_version(self, version: int) -> None:
        """Until the page shows the game at ``version`` (htmx polling brings it there: the
        whole region, or its status bar alone while the moves since are hidden from it)."""
        start = time.perf_counter()
        shown = f'#play[data-version="{version}"], #play .status-bar[data-version="{version}"]'
        self.page.wait_for_selector(shown, timeout=WAIT_MS)
        self.idle()
        self.waited += time.perf_counter() - start

    def no_error(self) -> None:
        alert = self.page.locator("#play [role=alert]")
        if alert.count():
            raise AssertionError(f"{self.name}'s page refused a step: {alert.first.inner_text()}")

    # Operating a control: the way this person does it, then wait for htmx's answer.

    def operate(self, target: Locator, *, expect_post: str = "/games/") -> None:
        """Click, tap, or Tab to ``target`` and press Enter or Space; wait for the answer."""
        start = time.perf_counter()

        def is_step(response: Any) -> bool:
            return response.request.method == "POST" and expect_post in response.url

        with self.page.expect_response(is_step, timeout=WAIT_MS) as answer:
            if self.how == "touch":
                target.tap()
            elif self.how == "keyboard":
                self.tab_to(target)
                self.page.keyboard.press("Enter" if self.steps_done % 2 == 0 else " ")
            else:
                target.click()
        response = answer.value
        timing = response.request.timing
        self.server += max(timing["responseStart"] - timing["requestStart"], 0) / 1000
        assert response.status == 200, f"{response.url} answered {response.status}"
        self.idle()
        self.steps_done += 1
        self.no_error()
        if self.how == "keyboard":
            # Where a keyboard user goes on from: the page keeps the focus in the play region.
            inside = self.page.evaluate("() => !!document.activeElement.closest('#play')")
            assert inside, f"after {target} the keyboard focus left the play region"
        self.busy += time.perf_counter() - start

    def tab_to(self, target: Locator, limit: int = 400) -> None:
        """Move the keyboard focus to ``target`` with Tab (or Shift+Tab when it comes
        earlier on the page), as a person would."""
        handle = target.element_handle()
        assert handle is not None
        where = """e => e === document.activeElement ? 0
            : document.activeElement.compareDocumentPosition(e)
              & Node.DOCUMENT_POSITION_PRECEDING ? -1 : 1"""
        for _ in range(limit):
            direction = self.page.evaluate(where, handle)
            if direction == 0:
                return
            self.page.keyboard.press("Tab" if direction > 0 else "Shift+Tab")
            self.tabs += 1
        raise AssertionError(f"Tab never reached {target}")

    # Draft.

    def pick(self, card: str) -> None:
        button = self.page.locator(
            f'.pool-card form:has(input[name="card"][value="{card}"]) button.card-button'
        )
        self.operate(button, expect_post="/pick/")

    # Turn.

    def space(self, space: tuple[int, int]) -> Locator:
        return self.page.locator(f"#sp-{space[0]}-{space[1]}")

    def play_turn(
        self,
        turn: Turn,
        *,
        on_step: Callable[[str], None] | None = None,
        action_chosen: bool = False,
        undo_once: bool = False,
        preview: tuple[int, int] | None = None,
    ) -> None:
        """Build ``turn`` in the turn builder, step by step, and submit it.

        ``on_step(part)`` is called after the timing is chosen (``"timing"``) and after each
        space clicked (``"action"`` or ``"power"``), the page at rest. With ``undo_once``
        the first space clicked is undone and clicked again; ``preview`` is the (Light,
        Forest) the page's live preview must show before the turn is submitted.
        """
        page = self.page
        if not action_chosen:
            self.operate(page.locator(f"#act-{turn.action}"), expect_post="/turn/")
        power = turn.power
        timing = power.timing if power is not None else "none"
        self.operate(page.locator(f"#timing-{timing}"), expect_post="/turn/")
        if on_step is not None:
            on_step("timing")
        action_spaces = [e.space for e in turn.effects]
        power_spaces: list[tuple[int, int]] = []
        if power is not None:
            for target in power.targets:
                if isinstance(target, LakePlacement):
                    power_spaces += [target.lake, *target.grow]
                else:
                    power_spaces.append(target)
        blocks: Iterable[tuple[str, list[tuple[int, int]]]]
        if power is None:
            blocks = [("action", action_spaces)]
        elif timing == "before":
            blocks = [("power", power_spaces), ("action", action_spaces)]
        else:
            blocks = [("action", action_spaces), ("power", power_spaces)]
        for k, (name, spaces) in enumerate(blocks):
            if k == 1:
                self.operate(page.locator("#turn-next"), expect_post="/turn/")
            for space in spaces:
                self.operate(self.space(space), expect_post="/turn/")
                if undo_once:
                    undo_once = False
                    steps = page.locator("#turn-form input[name=steps]")
                    before = steps.input_value()
                    self.operate(page.locator("#turn-undo"), expect_post="/turn/")
                    assert spaces_placed(steps.input_value()) == spaces_placed(before) - 1
                    self.operate(self.space(space), expect_post="/turn/")
                    assert steps.input_value() == before
                if on_step is not None:
                    on_step(name)
        expected = turn_text(turn)
        built = json.loads(page.locator("#turn-form input[name=steps]").input_value())
        assert built == expected, f"the page built {built!r}, the engine chose {expected!r}"
        if preview is not None:
            light, forest = preview
            expect(page.locator(".turn-preview")).to_contain_text(
                f"Light {light} + biggest Forest {forest} = {light + forest} points"
            )
        self.operate(page.locator("#turn-submit"), expect_post="/turn/submit/")


def no_horizontal_scroll(page: Page) -> tuple[int, int]:
    """(document width, the screen's width) for the assertion that nothing sticks out
    sideways. The screen's width is the context's viewport: a mobile browser widens its
    layout viewport (and ``window.innerWidth``) to fit a page that is too wide."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None
    return width, viewport["width"]
