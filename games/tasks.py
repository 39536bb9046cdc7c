"""Celery tasks. Each one re-reads what it works on and does nothing if its work is done,
so a task that runs twice, late, or on two workers at once changes nothing the second time."""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from . import deadlines, delivery, mails, outbox, ratings, services, timeouts
from .models import Game, Notification


@shared_task(acks_late=True)
def close_round(game_id: int) -> bool:
    return services.close_game_round(game_id)


@shared_task
def close_pending_rounds() -> int:
    """Safety net: rounds whose closing task was lost (broker down at commit time)."""
    closed = 0
    for game_id in Game.objects.filter(needs_closing=True).values_list("pk", flat=True):
        closed += services.close_game_round(game_id)
    return closed


@shared_task(bind=True, acks_late=True, max_retries=None)
def deliver_notification(self, notification_id: int) -> str:  # type: ignore[no-untyped-def]
    """Send one mail; after a failure, try again exactly when its backoff ends."""
    try:
        return delivery.deliver(notification_id)
    except (smtplib.SMTPException, OSError) as exc:
        note = Notification.objects.filter(pk=notification_id).only("send_after").first()
        wait = (note.send_after - timezone.now()).total_seconds() if note else 30
        raise self.retry(exc=exc, countdown=max(1.0, wait)) from exc


@shared_task
def deliver_due() -> int:
    count = 0
    for note_id in outbox.due():
        try:
            if delivery.deliver(note_id) == "sent":
                count += 1
        except (smtplib.SMTPException, OSError):
            continue  # left pending with a later send_after
    return count


@shared_task
def sweep_deadlines() -> dict[str, int]:
    return timeouts.sweep()


@shared_task
def send_reminders() -> int:
    return deadlines.send_reminders()


@shared_task
def send_digests() -> int:
    return mails.send_digests()


@shared_task(acks_late=True, autoretry_for=(OperationalError,), max_retries=5, retry_backoff=True)
def rate_game(game_id: int) -> bool:
    """Take a finished rated game into its players' ratings (nothing if already done)."""
    return ratings.rate_game(game_id)


@shared_task
def rate_pending_games() -> int:
    """Safety net: finished rated games whose rating task was lost, oldest first."""
    return ratings.rate_pending()
