"""Integration: a real Celery worker process seats the next round.

The worker (``python -m celery -A evergreen worker``, tasks not eager) works on this
test's PostgreSQL database through a Redis database of its own; mails go over SMTP to an
aiosmtpd server. Here the games of round 1 are handed to computer players: the worker
closes their rounds, plays them to the end, and on the last game's end the receiver's
task seats round 2 and mails its players, once, however often the task is sent.

Without Redis these tests are skipped; with ``CI`` set they fail instead.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import tests.games.liveworker as liveworker
from games import services as games
from games.models import Game
from tests.games.celeryhelpers import (
    SITE_URL,
    SmtpSink,
    Worker,
    live_broker,
    wait_for,
)
from tests.tournaments.tourhelpers import current_tables, event_with, make_players
from tournaments import services, tasks
from tournaments.models import Event, Round

# slow: a real Celery worker process, Redis and an SMTP server
pytestmark = pytest.mark.slow

ADVANCED = re.compile(r"Task tournaments\.tasks\.advance_event\[[0-9a-f-]+\] succeeded")


# The real worker, its Redis database and the SMTP sink: the same module-scoped fixtures
# as the games' worker tests.
broker_url = liveworker.broker_url
smtp = liveworker.smtp
worker = liveworker.worker


@pytest.fixture
def live(
    worker: Worker, smtp: SmtpSink, broker_url: str, transactional_db: Any, settings: Any
) -> Iterator[Worker]:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = broker_url
    settings.SITE_URL = SITE_URL
    smtp.reset()
    with live_broker(broker_url):
        yield worker


def test_the_worker_seats_the_next_round_once_and_mails_its_players(
    live: Worker, smtp: SmtpSink, alice: Any
) -> None:
    players = make_players(4)
    event = event_with(alice, players, rounds=2, table_size=2, min_table_size=2)
    event_id = event.pk
    services.start_event(event, alice)
    wait_for(
        lambda: (
            sum("round 1: you play at table" in m.message["Subject"] for m in smtp.received()) == 4
        ),
        "the round 1 mails",
        log=live.log_tail,
    )
    for table in current_tables(event):
        for seat in table.game.seats.all():
            games.hand_seat_to_bot(table.game_id, seat.position, bot="random")

    def round_two() -> bool:
        return Round.objects.filter(event_id=event_id, number=2).exists()

    wait_for(round_two, "the worker to play round 1 out and seat round 2", 60, log=live.log_tail)
    # Sent again (a retry, a second worker): nothing more happens.
    tasks.advance_event.delay(event_id)
    tasks.advance_event.delay(event_id)
    # One task per game end of round 1 (two), then the two repeats.
    wait_for(
        lambda: len(ADVANCED.findall(live.log())) >= 4,
        "the repeated tasks to run",
        30,
        log=live.log_tail,
    )
    assert Round.objects.filter(event_id=event_id).count() == 2
    assert Round.objects.get(event_id=event_id, number=1).status == Round.Status.FINISHED
    round2_games = Game.objects.filter(
        event_table__round__event_id=event_id, event_table__round__number=2
    )
    assert round2_games.count() == 2
    assert all(g.status == Game.Status.ACTIVE for g in round2_games)

    def round_two_mails() -> list[Any]:
        return [m for m in smtp.received() if "round 2: you play at table" in m.message["Subject"]]

    wait_for(lambda: len(round_two_mails()) == 4, "the round 2 mails", log=live.log_tail)
    assert Counter(m.message["To"] for m in round_two_mails()) == {p.email: 1 for p in players}
    assert Event.objects.get(pk=event_id).current_round == 2
