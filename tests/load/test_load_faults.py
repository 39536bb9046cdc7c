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

import re
import threading
import time
import traceback
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, connections, transaction
from django.utils import timezone

from games import services, tasks
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Notification
from games.services import writes
from tests.benchmarks.loadaudit import audit_game, audit_mails, settle
from tests.benchmarks.webstack import (
    Child,
    MailSink,
    RedisServer,
    celery_worker,
    database_url_of,
    site_env,
    wait_until,
)
from tests.games.celeryhelpers import live_broker
from tests.games.gamehelpers import make_user
from tests.load.loadhelpers import needs_stack

# slow: the production stack, with a worker, Redis and SMTP killed mid-run
pytestmark = pytest.mark.slow

SETTLE_SECONDS = 60


@dataclass
class Site:
    redis: RedisServer
    sink: MailSink
    env: dict[str, str]
    log: Path
    worker: Child | None = None

    def start_worker(self) -> Child:
        self.worker = celery_worker(
            self.env,
            self.log,
            beat_schedule=self.log.parent / "beat-schedule",
            pool="threads",
            concurrency=2,
        )
        return self.worker

    def worker_log(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


@pytest.fixture(scope="module")
def site(django_db_setup: Any, tmp_path_factory: Any) -> Iterator[Site]:
    needs_stack()
    folder = tmp_path_factory.mktemp("faults")
    redis = RedisServer(folder / "redis.log")
    sink = MailSink()
    sink.up()
    env = site_env(
        database_url_of(connection.settings_dict),
        redis.url(),
        smtp_port=sink.port,
        site_url=settings.SITE_URL,
        DB_CONN_MAX_AGE="0",
        CELERY_BEAT_SECONDS="1",  # the safety nets every second, not every minute
        NOTIFICATION_RETRY_SECONDS="1",  # then 2, 4, 8 ... after each failed send
        NOTIFICATION_STALE_SECONDS="5",  # a send claimed by a killed worker: again after 5 s
        EMAIL_TIMEOUT="3",
        LOG_LEVEL="INFO",
    )
    state = Site(redis, sink, env, folder / "worker.log")
    try:
        state.start_worker()
        yield state
    finally:
        if state.worker is not None:
            state.worker.stop()
        sink.down()
        redis.stop()


@pytest.fixture
def live(site: Site, transactional_db: Any, settings: Any) -> Iterator[Site]:
    """This process sends its tasks to the private Redis (not eager), as the web does."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = site.redis.url()
    # Whatever an earlier test left broken (after a failure) works again.
    if not site.redis.ping():
        site.redis.start()
    if site.sink.controller is None:
        site.sink.up()
    site.sink.stalling.clear()
    if site.worker is None or not site.worker.alive():
        site.start_worker()
    with live_broker(site.redis.url()):
        site.sink.reset()
        yield site
        # Leave nothing for the next test's empty tables (best effort after a failure).
        settle(list(Game.objects.values_list("pk", flat=True)), 20)


# --- The players -------------------------------------------------------------------------------


@dataclass
class Players:
    """People playing ``tables`` games of 3 at once through the services, in a thread: each
    round of the loop, every game where someone must act gets one random legal move (with
    an idempotency key). A finished game is followed by a new one at the same table."""

    tables: int = 3
    seats: int = 3
    seed: int = 7
    accepted: dict[int, list[str]] = field(default_factory=dict)
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    games: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.stop = threading.Event()
        self.away = threading.Event()  # set: nobody moves (the mails wait for their readers)
        self.users = [
            [make_user(f"t{table}p{seat}-{uuid.uuid4().hex[:6]}") for seat in range(self.seats)]
            for table in range(self.tables)
        ]
        self.current = [self.new_game(table) for table in range(self.tables)]
        self.thread = threading.Thread(target=self.run, name="players", daemon=True)

    def new_game(self, table: int) -> int:
        users = self.users[table]
        game = services.create_game(users[0], players=self.seats)
        for user in users[1:]:
            services.join_game(game.pk, user)
        self.games.append(game.pk)
        return game.pk

    def __enter__(self) -> Players:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(60)
        assert not self.thread.is_alive(), "the players did not stop"
        assert self.errors == [], self.errors

    def moves(self) -> int:
        return sum(len(keys) for keys in self.accepted.values())

    def run(self) -> None:
        bot = RandomBot(self.seed)
        try:
            while not self.stop.is_set():
                moved = False
                for table, game_id in enumerate(self.current):
                    if not self.away.is_set():
                        moved |= self.move(table, game_id, bot)
                if not moved:
                    self.stop.wait(0.05)
        except Exception:
            self.errors.append(traceback.format_exc())
        finally:
            connections.close_all()

    def move(self, table: int, game_id: int, bot: RandomBot) -> bool:
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            self.current[table] = self.new_game(table)
            return True
        state = game.engine_state()
        if not state.awaiting:
            return False  # the round waits for its closing
        seat = state.awaiting[0]
        key = uuid.uuid4().hex
        try:
            services.submit_move(
                game_id, self.users[table][seat], bot.choose(state, seat), idempotency_key=key
            )
        except services.ServiceError:
            self.refused += 1  # e.g. the round was closed between our read and our move
            return False
        self.accepted.setdefault(game_id, []).append(key)
        return True


def wait(predicate: Any, what: str, timeout: float = 30.0) -> Any:
    return wait_until(predicate, what, timeout)


def progress(players: Players, moves: int) -> None:
    target = players.moves() + moves
    wait(lambda: players.moves() >= target, f"{moves} more moves")


def unclosed(games: list[int]) -> int:
    return Game.objects.filter(pk__in=games, needs_closing=True).count()


def assert_nothing_lost_or_doubled(
    site: Site, players: Players, extra: tuple[int, ...] = ()
) -> Any:
    """Settle, then every check: replay, moves, closings, mails (see the module docstring)."""
    games = [*players.games, *extra]
    left = settle(games, SETTLE_SECONDS)
    assert left is None, f"{left}\n--- worker log ---\n{site.worker_log()[-4000:]}"
    audits = [
        audit_game(g, players.accepted.get(g.pk, [])) for g in Game.objects.filter(pk__in=games)
    ]
    problems = [p for a in audits for p in (*a.replay, *a.moves, *a.closing)]
    assert problems == []
    assert sum(a.closings for a in audits) == sum(a.rounds_to_close for a in audits) > 0
    mails = audit_mails(games, site.sink.message_id_counts())
    assert mails.problems == []
    assert mails.sent > 0
    return audits, mails


def closings_in_log(site: Site, since: int, task: str) -> list[int]:
    """What each run of ``task`` returned, from the worker's log since offset ``since``."""
    pattern = rf"Task games\.tasks\.{task}\[[0-9a-f-]+\] succeeded in [0-9.e-]+s: (\w+)"
    return [
        int(x == "True") if x in ("True", "False") else int(x)
        for x in re.findall(pattern, site.worker_log()[since:])
    ]


# --- The faults ---------------------------------------------------------------------------------


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
    assert sum(closings_in_log(live, log_start, "close_pending_rounds")) >= 1
    for note in Notification.objects.filter(pk__in=sending):
        assert note.status in (Notification.Status.SENT, Notification.Status.SKIPPED)


def test_redis_restarted_with_its_queue_lost_every_round_and_mail_still_goes_once(
    live: Site,
) -> None:
    """The broker dies (no persistence: every queued task is lost) while people play, and
    comes back on the same port. Moves made meanwhile are kept (publishing fails after
    the commit, and only logs); the beat's safety nets close the rounds and send the
    mails whose tasks never reached a worker, once each."""
    with Players() as players:
        progress(players, 12)
        log_start = len(live.worker_log())
        live.redis.kill()
        down_at, killed_at = time.monotonic(), timezone.now()
        wait(
            lambda: Game.objects.filter(
                pk__in=players.games, needs_closing=True, updated_at__gt=killed_at
            ).exists(),
            "a round completed with Redis down",
        )
        wait(
            lambda: Notification.objects.filter(
                game__in=players.games, status=Notification.Status.PENDING
            ).exists(),
            "a mail recorded with Redis down",
        )
        lost = unclosed(players.games)
        time.sleep(max(0.0, 2.0 - (time.monotonic() - down_at)))
        live.redis.start()
        back = len(live.worker_log())
        progress(players, 12)
        # Tasks sent after the restart reach the worker again (not only the safety net).
        wait(lambda: 1 in closings_in_log(live, back, "close_round"), "a round closed by its task")

    assert_nothing_lost_or_doubled(live, players)
    assert lost >= 1
    # The rounds whose closing task was lost were closed by the safety net.
    assert sum(closings_in_log(live, log_start, "close_pending_rounds")) >= 1


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
