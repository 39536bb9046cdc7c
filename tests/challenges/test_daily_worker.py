"""Integration: the day's target played by a real Celery worker process from a Redis
broker, sent when the first visitor opens the day (production settings, not eager).
Without Redis these tests are skipped; with ``CI`` set they fail instead."""

from __future__ import annotations

from typing import Any

import pytest

from challenges import services, targets
from challenges.models import DailyChallenge
from games import kinds
from tests.games.liveworker import Live

# slow: a real Celery worker process and Redis
pytestmark = pytest.mark.slow


def test_opening_the_day_has_the_worker_play_the_target_once(live: Live, alice: Any) -> None:
    challenge = services.todays("evergreen")
    live.wait(
        lambda: DailyChallenge.objects.filter(pk=challenge.pk, target_at__isnull=False).exists(),
        "the target",
        timeout=90,
    )
    challenge.refresh_from_db()
    assert challenge.target_bot == "strong"
    kind = kinds.get("evergreen")
    final = targets.play_out(
        kind, kinds.Setup(1, challenge.seed, dict(challenge.options)), challenge.target_bot
    )
    assert challenge.target_score == kind.scores(final)[0]  # the same game, reproduced here
    assert challenge.target_title == kind.solo_title(final)

    assert targets.compute_target(challenge.pk) is False  # stored once: not played again
