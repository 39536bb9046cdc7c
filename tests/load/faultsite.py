"""The faulty site of the fault tests (``test_load_faults``, ``test_load_outage_redis``): a
private redis-server as the broker, a real Celery worker with an embedded beat on the
PostgreSQL test database, an SMTP sink, and players playing whole games in a thread."""

from __future__ import annotations

import re
import threading
import traceback
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection, connections

from games import services
from games.evergreen.rules.bots import RandomBot
from games.models import Game
from tests.benchmarks.loadaudit import audit_game, audit_mails, settle
from tests.benchmarks.loadstack import mail_every_move
from tests.benchmarks.mailsink import MailSink
from tests.benchmarks.webstack import (
    Child,
    RedisServer,
    celery_worker,
    database_url_of,
    site_env,
    wait_until,
)
from tests.games.celeryhelpers import live_broker
from tests.games.gamehelpers import make_user
from tests.load.loadhelpers import needs_stack

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
        # A mail for every move (new players' mails are coalesced): the faults are
        # measured on as many mails as possible.
        mail_every_move(*(user for table in self.users for user in table))
        self.current = [self.new_game(table) for table in range(self.tables)]
        self.thread = threading.Thread(target=self.run, name="players", daemon=True)
        # (when, action, done): see ``before_a_move``.
        self.interlude: tuple[Callable[[Any], bool], Callable[[], None], threading.Event] | None
        self.interlude = None

    def before_a_move(
        self, when: Callable[[Any], bool], action: Callable[[], None]
    ) -> threading.Event:
        """Have the players' thread run ``action``, once, just before the first move it makes
        in a game whose state is ``when(state)``: a fault at a chosen moment of the play,
        between two moves, the move then made at once. The event is set once it has run."""
        done = threading.Event()
        self.interlude = (when, action, done)
        return done

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
        self.run_interlude(state)
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

    def run_interlude(self, state: Any) -> None:
        if self.interlude is None:
            return
        when, action, done = self.interlude
        if when(state):
            self.interlude = None
            action()
            done.set()


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


def succeeded_in_log(site: Site, since: int, task: str) -> set[str]:
    """The ids of the runs of ``task`` that ended, from the worker's log since ``since``."""
    pattern = rf"Task games\.tasks\.{task}\[([0-9a-f-]+)\] succeeded in "
    return set(re.findall(pattern, site.worker_log()[since:]))


class Sends:
    """What this process asked the broker to run, task by task: the argument of every send
    that failed (the broker unreachable: that task exists nowhere) and the id of every
    send that reached it. Recorded around ``delay`` (``recording_sends``)."""

    def __init__(self) -> None:
        self.failures: list[tuple[str, Any]] = []
        self.sent: list[tuple[str, str]] = []

    def failed(self, task: Any) -> list[Any]:
        return [argument for name, argument in self.failures if name == task.name]

    def ids(self, task: Any, since: int = 0) -> list[str]:
        """The ids of the sends of ``task`` that reached the broker, after the first ``since``
        sends of any task (``len(sends.sent)`` at some moment)."""
        return [task_id for name, task_id in self.sent[since:] if name == task.name]


@contextmanager
def recording_sends(*tasks: Any) -> Iterator[Sends]:
    """Record each ``task.delay(argument)`` of this process, from any thread (``Sends``): a
    send publishes after its transaction commits and retries for about half a second, so
    only its outcome says whether a task was lost, not the time of the move."""
    sends = Sends()
    real = [
        task._get_current_object() if hasattr(task, "_get_current_object") else task
        for task in tasks
    ]
    for task in real:
        send = task.delay

        def delay(argument: Any, *, _send: Any = send, _name: str = task.name) -> Any:
            try:
                result = _send(argument)
            except Exception:
                sends.failures.append((_name, argument))
                raise
            sends.sent.append((_name, result.id))
            return result

        task.delay = delay
    try:
        yield sends
    finally:
        for task in real:
            del task.delay


# --- The faults ---------------------------------------------------------------------------------
