"""Celery tasks of the daily challenge: the day's targets."""

from __future__ import annotations

from celery import shared_task

from . import services, targets
from .models import DailyChallenge


@shared_task(name="challenges.tasks.compute_target")
def compute_target(challenge_id: int) -> bool:
    """Store the computer player's score on the challenge's deal (once)."""
    return targets.compute_target(challenge_id)


@shared_task(name="challenges.tasks.open_today")
def open_today() -> list[int]:
    """The beat opens every kind's challenge of the day (the first visitor would too) and
    computes the targets still missing: the safety net for a lost message."""
    missing = list(
        DailyChallenge.objects.filter(target_at__isnull=True).values_list("pk", flat=True)
    )
    for kind in services.challenge_kinds():
        services.todays(kind.name)  # a new one has its own task scheduled
    for challenge_id in missing:
        targets.compute_target(challenge_id)
    return missing
