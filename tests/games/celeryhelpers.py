"""Helpers for the integration tests that run a real Celery worker process.

* ``redis_db()`` claims a Redis database of its own on the machine's Redis (a lock key
  in each candidate database; several pytest processes, xdist workers or people's runs
  never share one), empties it, and gives it back at the end.
* ``SmtpSink`` is a real SMTP server (aiosmtpd on a free loopback port) that keeps the
  messages it accepts in memory, and can refuse the next deliveries ("451 try again").
* ``Worker`` starts ``python -m celery -A evergreen worker`` with the real settings
  (``evergreen.settings``: tasks are not eager) on the test database, the Redis broker
  and the SMTP sink, waits until it is ready, and stops it: SIGTERM, wait, kill.
* ``live_broker()`` points this test process's Celery app at the same broker, not eager.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import pytest
from django.conf import settings

REDIS_BASE_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
REDIS_DBS = range(8, 16)  # candidates; 0-7 are left to whatever else uses this Redis
LOCK_KEY = "evergreen-tests:claimed-by"
LOCK_SECONDS = 900
WORKER_READY_SECONDS = 30.0
WORKER_STOP_SECONDS = 10.0
SITE_URL = "http://testserver"

T = TypeVar("T")


def needs_postgresql() -> None:
    """The worker is another process: it needs the test database on a server."""
    if getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql":
        pytest.skip("the worker process needs the PostgreSQL test database (SQLite in memory)")


# --- Redis ------------------------------------------------------------------------------------


def redis_unreachable(url: str = REDIS_BASE_URL) -> str | None:
    """None when Redis answers PING, else why not."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def require_redis(url: str = REDIS_BASE_URL) -> None:
    """Skip without Redis; with ``CI`` set an unreachable Redis fails the run instead."""
    reason = redis_unreachable(url)
    if reason is None:
        return
    message = f"Redis at {url} is unreachable ({reason})"
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no", "off"):
        pytest.fail(f"CI is set and {message}", pytrace=False)
    pytest.skip(f"{message}: the Celery integration tests need it (scripts/ensure-services)")


@contextlib.contextmanager
def redis_db(base_url: str = REDIS_BASE_URL) -> Iterator[str]:
    """The URL of a Redis database claimed for this process, emptied before and after."""
    import redis

    token = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex}"
    for number in REDIS_DBS:
        client = redis.Redis.from_url(f"{base_url}/{number}", socket_timeout=5)
        if client.set(LOCK_KEY, token, nx=True, ex=LOCK_SECONDS):
            break
    else:
        raise RuntimeError(f"every Redis database {REDIS_DBS} is claimed by another test run")
    _empty(client)
    try:
        yield f"{base_url}/{number}"
    finally:
        if client.get(LOCK_KEY) == token.encode():
            _empty(client)
            client.delete(LOCK_KEY)


def _empty(client: Any) -> None:
    for key in client.scan_iter(count=500):
        if key != LOCK_KEY.encode():
            client.delete(key)


# --- SMTP -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    sender: str
    recipients: tuple[str, ...]
    message: EmailMessage

    @property
    def message_id(self) -> str:
        return str(self.message["Message-ID"])


class SmtpSink:
    """The handler of an aiosmtpd server: keeps accepted messages, refuses on demand."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.messages: list[Received] = []
        self.refused = 0
        self._refuse_next = 0
        self.sessions = 0  # SMTP sessions begun (EHLO)
        self.controller: Any = None

    async def handle_EHLO(
        self, server: Any, session: Any, envelope: Any, hostname: str, responses: list[str]
    ) -> list[str]:
        session.host_name = hostname  # what aiosmtpd leaves to this hook
        with self._lock:
            self.sessions += 1
        return responses

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self._lock:
            if self._refuse_next > 0:
                self._refuse_next -= 1
                self.refused += 1
                return "451 4.3.0 Try again later"
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            self.messages.append(Received(envelope.mail_from, tuple(envelope.rcpt_tos), message))
        return "250 OK"

    def refuse_next(self, count: int) -> None:
        with self._lock:
            self._refuse_next = count

    def reset(self) -> None:
        with self._lock:
            self.messages.clear()
            self.refused = 0
            self._refuse_next = 0

    def received(self) -> list[Received]:
        with self._lock:
            return list(self.messages)

    def message_id_counts(self) -> Counter[str]:
        return Counter(r.message_id for r in self.received())

    @property
    def port(self) -> int:
        return int(self.controller.port)

    @contextlib.contextmanager
    def serving(self) -> Iterator[SmtpSink]:
        self._start(free_port())
        try:
            yield self
        finally:
            self.controller.stop()

    def restart(self) -> None:
        """Stopped and started again on the same port, as a restarted mail server: the
        connections open to it are gone."""
        port = self.port
        self.controller.stop()
        self._start(port)

    def _start(self, port: int) -> None:
        from aiosmtpd.controller import Controller

        self.controller = Controller(self, hostname="127.0.0.1", port=port)
        self.controller.start()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --- The worker -------------------------------------------------------------------------------


def database_url(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for the database this test process uses (the test database)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgresql://{auth}{host}:{port}/{quote(settings_dict['NAME'], safe='')}"


class Worker:
    """A real ``celery -A evergreen worker`` process with the production settings module."""

    def __init__(self, env: dict[str, str], log_path: Path, pool: str = "threads") -> None:
        self.log_path = log_path
        self.name = f"evergreen-test-{uuid.uuid4().hex[:8]}@%h"
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "evergreen",
            "worker",
            f"--pool={pool}",
            "--concurrency=2",
            "--without-mingle",
            "--without-gossip",
            "--without-heartbeat",
            "--loglevel=info",
            f"--hostname={self.name}",
        ]
        full_env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PYTEST_", "CELERY_", "DJANGO_", "EMAIL_"))
        }
        full_env.update(env)
        self._log = log_path.open("wb")
        self.process = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=full_env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def wait_ready(self, timeout: float = WORKER_READY_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if " ready." in self.log():
                return
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"the Celery worker exited ({self.process.returncode}):\n{self.log_tail()}"
                )
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the Celery worker was not ready in {timeout}s:\n{self.log_tail()}")

    def stop(self, timeout: float = WORKER_STOP_SECONDS) -> int:
        """Warm shutdown (SIGTERM); killed with its process group if it takes too long."""
        if self.process.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.process.wait(timeout)
        self._log.close()
        return int(self.process.returncode)

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, sig)


def worker_env(broker_url: str, smtp_port: int, settings_dict: dict[str, Any]) -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "evergreen.settings",  # tasks are not eager there
        "DATABASE_URL": database_url(settings_dict),
        # Connections kept from one task to the next, as in production (README).
        "DB_CONN_MAX_AGE": "600",
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "SITE_URL": SITE_URL,
        "LOG_LEVEL": "WARNING",
        # Shorter retry backoff for the retry test, if the settings read it (see README).
        "NOTIFICATION_RETRY_SECONDS": "1",
    }


# --- This test process ------------------------------------------------------------------------


@contextlib.contextmanager
def live_broker(broker_url: str) -> Iterator[None]:
    """Send this process's tasks to ``broker_url`` instead of running them eagerly.

    The Celery app read its configuration from the Django settings at import (eager,
    in-memory broker under the test settings): its conf and connection pools are changed
    here and restored afterwards. The Django settings the services read are changed by
    the caller (the ``settings`` fixture).
    """
    from evergreen.celery import app

    saved = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    _reset_pools(app)
    app.conf.task_always_eager = False
    app.conf.broker_url = broker_url
    try:
        yield
    finally:
        _reset_pools(app)
        app.conf.update(saved)


def _reset_pools(app: Any) -> None:
    # kombu keeps the pools per broker URL: dropping the app's references is enough.
    app._pool = None
    with contextlib.suppress(AttributeError, KeyError):
        app.__dict__["amqp"]._producer_pool = None


def wait_for(
    predicate: Callable[[], T],
    what: str,
    timeout: float = 20.0,
    interval: float = 0.05,
    log: Callable[[], str] | None = None,
) -> T:
    """Poll until ``predicate()`` is truthy; its value, or an AssertionError saying what."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            detail = f"\n--- worker log ---\n{log()}" if log else ""
            raise AssertionError(f"waited {timeout}s for {what}{detail}")
        time.sleep(interval)
