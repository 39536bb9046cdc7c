"""A mail claimed for sending by a worker that died (SIGKILL, OOM) is taken up again once
its claim is older than ``NOTIFICATION_STALE_SECONDS``, and not before: a slow sender that
is still alive is never overtaken (the fault tests kill a worker in the middle of a send)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import notifications
from games.models import Notification
from tests.games.gamehelpers import make_user

pytestmark = pytest.mark.django_db


def claimed(seconds_ago: float) -> Notification:
    now = timezone.now()
    return Notification.objects.create(
        key=f"digest:test:{seconds_ago}",
        user=make_user(f"claimed{int(seconds_ago)}"),
        kind=Notification.Kind.DIGEST,
        status=Notification.Status.SENDING,
        send_after=now - timedelta(seconds=seconds_ago + 1),
        claimed_at=now - timedelta(seconds=seconds_ago),
    )


def test_a_claim_older_than_the_window_is_pending_again_and_due(settings: Any) -> None:
    settings.NOTIFICATION_STALE_SECONDS = 30
    fresh, stale = claimed(20), claimed(40)

    due = notifications.due()

    assert due == [stale.pk]
    fresh.refresh_from_db()
    stale.refresh_from_db()
    assert fresh.status == Notification.Status.SENDING
    assert stale.status == Notification.Status.PENDING


def test_the_window_is_ten_minutes_by_default(settings: Any) -> None:
    del settings.NOTIFICATION_STALE_SECONDS
    fresh, stale = claimed(9 * 60), claimed(11 * 60)

    assert notifications.due() == [stale.pk]
    fresh.refresh_from_db()
    assert fresh.status == Notification.Status.SENDING
