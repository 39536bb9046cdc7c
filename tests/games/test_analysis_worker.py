"""The analysis in a real Celery worker: asked for on the page's request, made by the
worker with its progress stored, and neither duplicated nor changed by the task sent
again (a retry, a duplicate delivery)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from celery import current_app

from games.analysis import services
from games.analysis.models import Analysis
from tests.games.analysishelpers import finished_solo
from tests.games.liveworker import Live

pytestmark = pytest.mark.slow


def runs_done(live: Live) -> list[str]:
    pattern = (
        r"Task games\.analysis\.tasks\.run_analysis\[[0-9a-f-]+\] succeeded in [0-9.e-]+s: (.*)"
    )
    return re.findall(pattern, live.log())


def test_the_worker_makes_the_analysis_once_and_a_duplicate_task_changes_nothing(
    live: Live, alice: Any
) -> None:
    # The game itself is played here, quickly: its rounds close in this process at each
    # commit; then the analysis goes to the worker.
    current_app.conf.task_always_eager = True
    try:
        game = finished_solo(alice)
    finally:
        current_app.conf.task_always_eager = False
    analysis, created = services.request_analysis(game.pk, alice)
    assert created and analysis.status == Analysis.Status.QUEUED

    def finished() -> Analysis | None:
        found = Analysis.objects.get(pk=analysis.pk)
        return found if found.status == Analysis.Status.DONE else None

    done = live.wait(finished, "the worker to finish the analysis", timeout=90)
    assert done.done == done.total == len(done.reviews) == 28
    assert [r["move"] for r in done.reviews] == list(range(1, 29))

    task = current_app.tasks[services.RUN_TASK]
    task.delay(analysis.pk)
    task.delay(analysis.pk)
    live.wait(lambda: len(runs_done(live)) == 3, "the duplicate tasks to run", timeout=60)
    assert runs_done(live) == ["'done'"] * 3
    again = Analysis.objects.get(pk=analysis.pk)
    assert (again.reviews, again.finished_at) == (done.reviews, done.finished_at)
    assert services.request_analysis(game.pk, alice) == (again, False)
    assert Analysis.objects.filter(game=game).count() == 1
