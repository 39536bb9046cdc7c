"""The analysis task: safe to run twice, late or on two workers (``services.run``)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from . import services


@shared_task(acks_late=True, autoretry_for=(OperationalError,), max_retries=3, retry_backoff=True)
def run_analysis(analysis_id: int) -> str:
    try:
        return services.run(analysis_id)
    except OperationalError:
        raise  # the database is away: tried again, from where it stopped
    except Exception as exc:
        services.fail(analysis_id, f"{type(exc).__name__}: {exc}")
        raise
