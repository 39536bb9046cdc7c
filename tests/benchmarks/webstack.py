"""The site's production stack on loopback, for the benchmarks and the load runs.

Used by ``bench_web.py`` (``make bench``), ``loadrun.py`` (``make load``) and the tests
under ``tests/load``. Every part is a real process (or, for the SMTP server, a real
aiosmtpd server in a thread of the caller), started on a free port, logged to a file,
and stopped by its process group (SIGTERM, then SIGKILL):

* ``scratch_database`` drops and creates a PostgreSQL database and migrates it;
* ``RedisServer``: a private ``redis-server`` (never the machine's shared one), which a
  test may kill and start again on the same port;
* ``gunicorn`` and ``celery_worker``: the web server and a Celery worker (with an
  embedded beat, as ``manage.py serve`` runs it) under ``evergreen.settings``;
* the SMTP sink is ``mailsink.py``'s, one request and latency figures ``stackhttp.py``'s.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

from tests.benchmarks.processcpu import group_cpu_seconds

# One request and latency figures live in stackhttp; imported from here by the benchmarks.
from tests.benchmarks.stackhttp import Answer as Answer
from tests.benchmarks.stackhttp import percentiles as percentiles
from tests.benchmarks.stackhttp import request as request
from tests.benchmarks.stackhttp import timed as timed

ROOT = Path(__file__).resolve().parents[2]
STOP_SECONDS = 10.0
# The site's secret on loopback: what a runner signs (sessions) must verify there.
STACK_SECRET_KEY = "loopback-stack-only-secret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def wait_until(predicate: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    """Poll until ``predicate()`` is truthy and return it; TimeoutError saying what."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout:.0f}s for {what}")
        time.sleep(0.05)


# --- PostgreSQL -------------------------------------------------------------------------------


def with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name``."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def database_url_of(settings_dict: dict[str, Any]) -> str:
    """A DATABASE_URL for a Django database's settings (e.g. the test database)."""
    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgresql://{auth}{host}:{port}/{quote(settings_dict['NAME'], safe='')}"


def scratch_database(url: str, env: dict[str, str] | None = None) -> None:
    """Drop and create the database of ``url``, then migrate it (``manage.py migrate``)."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    if not name.replace("_", "").isalnum():
        raise ValueError(f"refusing to drop a database named {name!r}")
    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, **(env or {}), "DATABASE_URL": url},
        check=True,
    )


# --- Child processes --------------------------------------------------------------------------


class Child:
    """A child process in its own process group, its output in a log file."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log_path: Path) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self._log: Any = None
        self.start()

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def wait_for_log(self, text: str, timeout: float = 30.0, since: int = 0) -> None:
        """Wait until the log (from offset ``since``) contains ``text``; the process must live."""

        def seen() -> bool:
            if text in self.log()[since:]:
                return True
            if not self.alive():
                raise RuntimeError(f"{self.name} exited:\n{self.log_tail()}")
            return False

        try:
            wait_until(seen, f"{self.name} to log {text!r}", timeout)
        except TimeoutError as exc:
            raise TimeoutError(f"{exc}\n{self.log_tail()}") from None

    def cpu_seconds(self) -> float:
        """CPU time used so far by the process group (its live processes and the children
        they reaped), from /proc; 0 where /proc is not there."""
        return group_cpu_seconds(self.pid) if self.alive() else 0.0

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """SIGTERM to the whole group, wait, SIGKILL if it takes too long."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self._signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self._signal(signal.SIGKILL)
                self.process.wait(timeout)
        self._signal(signal.SIGKILL)  # children left behind by a crash, if any
        self._close_log()

    def kill(self) -> None:
        """SIGKILL to the whole group, as a crash or the OOM killer would."""
        if self.process is None:
            return
        self._signal(signal.SIGKILL)
        self.process.wait(STOP_SECONDS)
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


def site_env(
    database_url: str,
    broker_url: str,
    *,
    smtp_port: int | None = None,
    site_url: str = "http://127.0.0.1:8000",
    **extra: str,
) -> dict[str, str]:
    """The environment of the web server and the workers: production settings on loopback."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTEST_", "CELERY_", "DJANGO_", "EMAIL_", "DATABASE_"))
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "evergreen.settings",
            "DATABASE_URL": database_url,
            "DB_CONN_MAX_AGE": "60",
            "DEBUG": "0",
            "SECRET_KEY": STACK_SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
            "CELERY_BROKER_URL": broker_url,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "SITE_URL": site_url,
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
            # collectstatic's output (production serves it with WhiteNoise), per process.
            "STATIC_ROOT": static_root(),
        }
    )
    if smtp_port is not None:
        env.update(
            {
                "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "EMAIL_HOST": "127.0.0.1",
                "EMAIL_PORT": str(smtp_port),
                "EMAIL_TIMEOUT": "5",
            }
        )
    env.update(extra)
    return env


def static_root() -> str:
    """Where collectstatic writes for this process (production serves it with WhiteNoise)."""
    return str(Path(tempfile.gettempdir()) / f"evergreen-static-{os.getpid()}")


def collect_static(env: dict[str, str]) -> None:
    """collectstatic into ``env["STATIC_ROOT"]`` once: production settings need its manifest."""
    if not (Path(env["STATIC_ROOT"]) / "staticfiles.json").exists():
        subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "collectstatic", "--noinput", "-v", "0"],
            env=env,
            check=True,
        )


def gunicorn(
    env: dict[str, str],
    log_path: Path,
    workers: int = 1,
    port: int | None = None,
    threads: int = 1,
) -> tuple[Child, int]:
    """gunicorn with ``workers`` workers on a free port; returns it once it answers. Sync
    workers, or with ``threads`` > 1 gunicorn's threaded workers (gthread): a request
    waiting on PostgreSQL or Redis then holds one thread, not a whole process."""
    port = port or free_port()
    collect_static(env)
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "evergreen.wsgi",
        "-b",
        f"127.0.0.1:{port}",
        "-w",
        str(workers),
        "--threads",
        str(threads),
        "--backlog",
        "2048",
        "--timeout",
        "60",
        "--log-level",
        "warning",
    ]
    if env.get("LOAD_PROFILE_DIR"):  # cProfile in every worker (gunicorn_profile.py)
        command += ["-c", str(ROOT / "tests" / "benchmarks" / "gunicorn_profile.py")]
    elif env.get("BENCH_TIMING_DIR"):  # each request timed inside its worker (bench_web)
        command += ["-c", str(ROOT / "tests" / "benchmarks" / "gunicorn_timing.py")]
    child = Child("gunicorn", command, env, log_path)
    wait_until(lambda: port_answers(port) or _exited(child), "gunicorn to listen", 60)
    _exited(child)
    return child, port


def workers_text(workers: int, threads: int) -> str:
    """What ``gunicorn`` starts with these arguments, in words."""
    return f"{workers} workers of {threads} threads" if threads > 1 else f"{workers} sync workers"


def _exited(child: Child) -> bool:
    if not child.alive():
        raise RuntimeError(f"{child.name} exited:\n{child.log_tail()}")
    return False


def celery_worker(
    env: dict[str, str],
    log_path: Path,
    *,
    beat_schedule: Path | None = None,
    pool: str = "threads",
    concurrency: int = 2,
    wait: bool = True,
) -> Child:
    """``celery -A evergreen worker``, with an embedded beat when ``beat_schedule`` is given
    (what ``manage.py serve`` runs); waits until it is ready."""
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "evergreen",
        "worker",
        f"--pool={pool}",
        f"--concurrency={concurrency}",
        "--without-mingle",
        "--without-gossip",
        "--loglevel=info",
        f"--hostname=evergreen-{os.getpid()}-{time.monotonic_ns() % 10**8}@%h",
    ]
    if beat_schedule is not None:
        command += ["-B", f"--schedule={beat_schedule}"]
    since = len(log_path.read_text(errors="replace")) if log_path.exists() else 0
    child = Child("celery worker", command, env, log_path)
    if wait:
        child.wait_for_log(" ready.", timeout=60, since=since)
    return child


class RedisServer:
    """A private redis-server on a free loopback port: no persistence, killable, restartable."""

    def __init__(self, log_path: Path, port: int | None = None) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server is not installed")
        self.port = port or free_port()
        self.log_path = log_path
        self.command = [
            binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(log_path.parent),
            "--daemonize",
            "no",
        ]
        self.child: Child | None = None
        self.start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.child = Child("redis-server", self.command, dict(os.environ), self.log_path)
        wait_until(lambda: self.ping() or _exited(self.child), "redis-server to answer", 20)  # type: ignore[arg-type]

    def ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis.from_url(self.url(), socket_connect_timeout=0.5).ping())
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.child is not None:
            self.child.stop()

    def kill(self) -> None:
        if self.child is not None:
            self.child.kill()

    def restart(self, down_seconds: float = 0.0) -> None:
        """Kill it (every queued message is lost: it keeps nothing on disk) and start it
        again on the same port after ``down_seconds``."""
        self.kill()
        time.sleep(down_seconds)
        self.start()
