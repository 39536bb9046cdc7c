"""Faults during play: a Celery worker killed, Redis restarted, the SMTP server down.

The site here: a private redis-server (the broker; it keeps nothing on disk, so a
restart loses every queued task), a real Celery worker with an embedded beat (``celery
-A evergreen worker -B``, as ``manage.py serve`` runs it; the beat's safety nets run
every second instead of every minute) on the PostgreSQL test database, and an SMTP
server (aiosmtpd) keeping every mail. Players play whole games through the services in
a thread of this process, as the web processes would, while each test breaks one part.

In the end every test checks, with ``loadaudit``: every game replays from its moves to
its stored state; every move accepted is stored once; every complete round was closed
exactly once (closings counted from the game's versions, rounds from the engine's
replay); every notification was sent or skipped, and the SMTP server received each mail
sent exactly once and no other.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from django.db import connection, transaction

import tests.load.faultsite as faultsite
from games import services, tasks
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Notification
from games.services import writes
from tests.benchmarks.loadstack import mail_every_move
from tests.benchmarks.webstack import (
    database_url_of,
)
from tests.games.gamehelpers import make_user
from tests.load.faultsite import (
    Players,
    Site,
    assert_nothing_lost_or_doubled,
    closings_in_log,
    progress,
    recording_sends,
    succeeded_in_log,
    unclosed,
    wait,
)

# slow: the production stack, with a worker, Redis and SMTP killed mid-run
pytestmark = pytest.mark.slow

site = faultsite.site  # the private Redis, the SMTP sink and the worker with its beat
live = faultsite.live


def test_a_worker_killed_inside_a_closing_and_a_send_then_restarted_closes_and_mails_once(
    live: Site, monkeypatch: Any
) -> None:
    """SIGKILL hits the worker (and its beat) while one of its threads is inside a round's
    closing and the other in the middle of sending a mail: the closing's transaction dies
    with it, its task with the dead worker, the mail stays claimed. Rounds completed
    while no worker ran wait in Redis. After a restart every round is closed exactly
    once, by its queued task or, for the one whose task died, by the beat's safety net;
    the claimed mail is taken up again once its claim is stale, and arrives once."""
    a, b = make_user("killed-a"), make_user("killed-b")
    mail_every_move(a, b)
    frozen = services.create_game(a, players=2)
    services.join_game(frozen.pk, b)
    bot, keys = RandomBot(1), []

    def move(state: rules.GameState) -> None:
        seat, key = state.awaiting[0], uuid.uuid4().hex
        user = a if seat == 0 else b
        services.submit_move(frozen.pk, user, bot.choose(state, seat), idempotency_key=key)
        keys.append(key)

    def last_turn(state: rules.GameState) -> bool:
        return state.phase is rules.Phase.ACTION and len(state.awaiting) == 1

    while not last_turn(state := Game.objects.get(pk=frozen.pk).engine_state()):
        move(state)
    real = writes.schedule_closing  # only the killed task will ever close this round
    monkeypatch.setattr(writes, "schedule_closing", lambda g: g != frozen.pk and real(g))

    with Players() as players:
        progress(players, 12)
        log_start = len(live.worker_log())
        with transaction.atomic():
            # The round's last turn, its game row held until this block ends: the worker's
            # closing (sent now) starts its transaction and waits for the row.
            move(state)
            tasks.close_round.delay(frozen.pk)
            wait(lambda: blocked_by_me() > 0, "the worker's closing to wait on the game row")
            # Its other thread: in the middle of sending a mail (the server holds it).
            live.sink.stalling.set()
            try:
                wait(lambda: live.sink.stalled > 0, "the worker to wait on the SMTP server")
                assert live.worker is not None
                live.worker.kill()  # SIGKILL, its beat too, inside the closing and the send
            finally:
                live.sink.stalling.clear()
            sending = list(
                Notification.objects.filter(status=Notification.Status.SENDING).values_list(
                    "pk", flat=True
                )
            )
            assert sending  # claimed by the dead worker: NOTIFICATION_STALE_SECONDS later, again
        # Play on with no worker: the rounds completed meanwhile wait for their closing.
        wait(lambda: unclosed(players.games) > 0, "a round to wait for a closing")
        time.sleep(1)
        frozen.refresh_from_db()
        assert frozen.needs_closing  # the killed closing did not happen
        live.start_worker()
        progress(players, 12)

    players.accepted[frozen.pk] = keys
    assert_nothing_lost_or_doubled(live, players, (frozen.pk,))
    frozen.refresh_from_db()
    assert not frozen.needs_closing
    assert (frozen.season, frozen.round) == (1, 2)
    # The safety net closed it (its log line may follow the commit that settled the round
    # by a moment).
    wait(
        lambda: sum(closings_in_log(live, log_start, "close_pending_rounds")) >= 1,
        "the safety net's closing in the worker's log",
    )
    for note in Notification.objects.filter(pk__in=sending):
        assert note.status in (Notification.Status.SENT, Notification.Status.SKIPPED)


def test_redis_restarted_with_its_queue_lost_every_round_and_mail_still_goes_once(
    live: Site,
) -> None:
    """The broker dies (no persistence: every queued task is lost) while people play, and
    comes back on the same port. Moves made meanwhile are kept (publishing fails after
    the commit, and only logs); the beat's safety nets close the rounds and send the
    mails whose tasks never reached a worker, once each.

    Redis dies just before a pick: that pick mails the next player, and the round it is
    part of completes with Redis down, so a mail and a closing are surely lost whatever
    the other games do (their turns in the Action phase mail nobody). A task counts as
    lost when its send failed, not by when its move committed: a send retries for about
    half a second after the commit, and one still retrying when Redis is back gets through."""
    sent = recording_sends(tasks.close_round, tasks.deliver_notification)
    with sent as sends, Players() as players:
        progress(players, 12)
        log_start = len(live.worker_log())
        killed = players.before_a_move(a_pick_is_due, live.redis.kill)
        wait(killed.is_set, "Redis killed just before a pick")
        down_at = time.monotonic()
        wait(
            lambda: sends.failed(tasks.close_round) and sends.failed(tasks.deliver_notification),
            "a closing and a mail not sent with Redis down",
        )
        time.sleep(max(0.0, 2.0 - (time.monotonic() - down_at)))
        live.redis.start()
        back, sent_back = len(live.worker_log()), len(sends.sent)
        progress(players, 12)
        # Tasks sent after the restart reach the worker again (not only the safety net).
        wait(
            lambda: (
                set(sends.ids(tasks.close_round, since=sent_back))
                & succeeded_in_log(live, back, "close_round")
            ),
            "a closing sent after the restart to run on the worker",
        )

    assert_nothing_lost_or_doubled(live, players)
    # Every round whose closing could not be sent was closed by the beat's safety net (its
    # log line may follow the commit that settled the round by a moment) ...
    lost_closings = sends.failed(tasks.close_round)
    wait(
        lambda: sum(closings_in_log(live, log_start, "close_pending_rounds")) >= len(lost_closings),
        f"the safety net to close the {len(lost_closings)} rounds whose closing was lost",
    )
    # ... and every mail whose task could not be sent was taken up by the beat's sweep.
    lost_mails = Notification.objects.filter(pk__in=sends.failed(tasks.deliver_notification))
    assert lost_mails.exists()
    assert not lost_mails.exclude(
        status__in=(Notification.Status.SENT, Notification.Status.SKIPPED)
    ).exists()


def a_pick_is_due(state: rules.GameState) -> bool:
    """The move about to be made is a pick: it tells the next player (or all, when it ends
    the Draft) that it is their move, and the round it is part of is still to complete."""
    return state.phase is rules.Phase.DRAFT


def test_the_smtp_server_down_for_a_while_every_mail_is_delivered_once_when_it_is_back(
    live: Site,
) -> None:
    """The mail server refuses connections for a few seconds while people play: the
    mails are kept, retried with backoff, and each arrives exactly once when it is back."""
    with Players() as players:
        progress(players, 12)
        wait(lambda: live.sink.received(), "a first mail")
        live.sink.down()
        progress(players, 12)
        players.away.set()  # the players whose move it is now wait for their mail
        refused = Notification.objects.filter(
            game__in=players.games, status=Notification.Status.PENDING, attempts__gte=1
        )
        wait(lambda: refused.count() >= 2, "mails refused")
        time.sleep(2)
        live.sink.up()
        wait(
            lambda: Notification.objects.filter(
                game__in=players.games, status=Notification.Status.SENT, attempts__gte=2
            ).exists(),
            "a refused mail sent when the server is back",
        )
        players.away.clear()
        progress(players, 12)

    _audits, mails = assert_nothing_lost_or_doubled(live, players)
    assert mails.retried >= 1
    for note in Notification.objects.filter(game__in=players.games, attempts__gte=2):
        assert "refused" in note.last_error.lower()


def blocked_by_me() -> int:
    """How many database sessions wait on a lock this session holds."""
    import psycopg

    me = connection.connection.info.backend_pid
    with psycopg.connect(database_url_of(connection.settings_dict), autocommit=True) as other:
        row = other.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [me]
        ).fetchone()
    return int(row[0]) if row else 0
