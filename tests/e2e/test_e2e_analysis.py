"""The hint and the analysis in the browser: a solo game asks the computer what it would
do, is finished, and its replay shows the analysis' progress bar (htmx polling) and then
the strong player's review of each step, the points lost by round and the biggest mistakes."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from celery import current_app
from playwright.sync_api import expect

from games.analysis import services
from games.analysis.models import Analysis
from games.models import Game
from tests.e2e.e2ehelpers import create_game, log_in
from tests.games.analysishelpers import play_to_the_end
from tests.games.gamehelpers import PASSWORD, make_user

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_e2e_a_hint_then_the_analysis_of_the_finished_game_on_its_replay(
    new_context: Any, settings: Any
) -> None:
    make_user("sylvia")
    page = new_context().new_page()
    log_in(page, "sylvia@example.org", PASSWORD)
    game_id = create_game(page, "1")

    page.click("#hint-box button:has-text('What would the computer do?')")
    expect(page.locator("#hint-box .hint-move")).to_contain_text(
        "The computer would do this: Taking"
    )

    play_to_the_end(Game.objects.get(pk=game_id))
    # The task is queued, not run at once: the page shows its progress while it waits.
    settings.CELERY_TASK_ALWAYS_EAGER = False
    with queued_tasks():
        ask_and_watch(page, game_id)


@contextlib.contextmanager
def queued_tasks() -> Iterator[None]:
    """Tasks go to the (in-memory) broker, which no worker reads, instead of running."""
    conf = current_app.conf
    eager, conf.task_always_eager = conf.task_always_eager, False
    try:
        yield
    finally:
        conf.task_always_eager = eager


def ask_and_watch(page: Any, game_id: int) -> None:
    page.goto(f"/games/{game_id}/replay/?move=3")
    panel = page.locator("#analysis-panel")
    expect(panel).to_contain_text("You may ask for 5 more analyses today.")
    panel.locator("button:has-text('Analyse my play')").click()
    expect(panel.locator("progress")).to_have_attribute("value", "0")
    expect(panel).to_contain_text("Reviewing your moves: 0 of 28")

    analysis = Analysis.objects.get(game_id=game_id)
    assert services.run(analysis.pk, limit=10) == "paused"
    expect(panel).to_contain_text("Reviewing your moves: 10 of 28")
    expect(panel.locator("progress")).to_have_attribute("value", "10")
    assert services.run(analysis.pk) == "done"

    expect(panel).to_contain_text("Points lost by round")
    expect(panel.locator("progress")).to_have_count(0)
    expect(panel.locator(".analysis-step")).to_contain_text(
        "Expected points to the end of the game"
    )
    mistakes = panel.locator(".analysis-mistakes li")
    expect(mistakes.first).to_contain_text("would have scored")
    worst = Analysis.objects.get(pk=analysis.pk)
    biggest = max(worst.reviews, key=lambda r: (r["loss"], -r["move"]))
    mistakes.first.locator("a").click()
    page.wait_for_url(f"**/replay/?move={biggest['move']}#analysis-panel")
    expect(page.locator("#analysis-panel .analysis-comment")).to_contain_text(
        f"\N{MINUS SIGN}{biggest['loss']}: "
    )
