"""``manage.py serve`` (what ``make run`` runs): the web server and a Celery worker with an
embedded beat on the filesystem broker, started together and stopped together.

Real processes on a scratch SQLite database and a scratch broker folder.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from games.management.commands.serve import worker_can_receive
from tests.games.celeryhelpers import free_port, wait_for

# slow: starts the site and a worker as processes
pytestmark = pytest.mark.slow


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes.
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "State:\tZ" in status.read_text())


class Serve:
    def __init__(self, tmp_path: Path, addrport: str, **settings_env: str) -> None:
        self.log_path = tmp_path / "serve.log"
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("PYTEST_", "CELERY_", "DJANGO_", "DATABASE_"))
        }
        env.update(
            DJANGO_SETTINGS_MODULE="evergreen.settings",
            DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
            CELERY_FILESYSTEM_DIR=str(tmp_path / "celery"),
            PYTHONUNBUFFERED="1",
            DEBUG="1",  # runserver serves the static files then
        )
        env.update(settings_env)
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "serve", addrport],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def worker_pid(self) -> int:
        found = re.search(r"Started a Celery worker with an embedded beat \(pid (\d+)", self.log())
        assert found, self.log()
        return int(found.group(1))

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self._log.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[list[Serve]]:
    started: list[Serve] = []
    yield started
    for one in started:
        one.stop()
        pid = None
        with contextlib.suppress(AssertionError):
            pid = one.worker_pid()
        if pid and alive(pid):
            os.killpg(pid, signal.SIGKILL)


def test_serve_runs_the_site_and_a_worker_with_beat_and_stops_both_on_sigterm(
    tmp_path: Path, serve: list[Serve]
) -> None:
    port = free_port()
    one = Serve(tmp_path, f"127.0.0.1:{port}")
    serve.append(one)
    url = f"http://127.0.0.1:{port}/static/css/site.css"

    def answers() -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    wait_for(answers, "the web server to answer", timeout=30, interval=0.2, log=one.log)
    wait_for(lambda: " ready." in one.log(), "the worker", timeout=30, interval=0.2, log=one.log)
    wait_for(lambda: "beat: Starting" in one.log(), "beat", timeout=10, interval=0.2, log=one.log)
    worker = one.worker_pid()
    assert alive(worker)
    assert (tmp_path / "celery" / "queue").is_dir()

    one.process.send_signal(signal.SIGTERM)
    assert one.process.wait(30) == 0
    assert not alive(worker)
    assert "Warm shutdown" in one.log()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass


def test_serve_stops_the_worker_and_fails_when_the_web_server_cannot_start(
    tmp_path: Path, serve: list[Serve]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        one = Serve(tmp_path, f"127.0.0.1:{taken.getsockname()[1]}")
        serve.append(one)
        assert one.process.wait(60) == 1

    log = one.log()
    assert "That port is already in use" in log
    assert "The web server stopped (exit code 1): stopping." in log
    wait_for(lambda: not alive(one.worker_pid()), "the worker to be gone", timeout=5, log=one.log)


@pytest.mark.parametrize(
    ("broker", "receives"),
    [
        ("filesystem://", True),
        ("redis://127.0.0.1:6379/0", True),
        ("amqp://guest@127.0.0.1//", True),
        ("memory://", False),
        ("memory://localhost/", False),
    ],
)
def test_a_worker_is_wanted_unless_the_broker_lives_inside_the_web_process(
    broker: str, receives: bool
) -> None:
    assert worker_can_receive(broker) is receives


def test_serve_starts_the_worker_from_the_broker_even_with_the_eager_flag_set(
    tmp_path: Path, serve: list[Serve]
) -> None:
    # The eager flag is a test setting: with a real broker a worker is started anyway.
    one = Serve(tmp_path, f"127.0.0.1:{free_port()}", CELERY_TASK_ALWAYS_EAGER="1")
    serve.append(one)
    wait_for(lambda: " ready." in one.log(), "the worker", timeout=30, interval=0.2, log=one.log)
    assert alive(one.worker_pid())


def test_serve_starts_no_worker_for_a_broker_in_the_web_process(
    tmp_path: Path, serve: list[Serve]
) -> None:
    port = free_port()
    one = Serve(tmp_path, f"127.0.0.1:{port}", CELERY_BROKER_URL="memory://")
    serve.append(one)
    wait_for(
        lambda: "would receive no task, so none is started" in one.log(),
        "serve to say no worker is started",
        timeout=30,
        interval=0.2,
        log=one.log,
    )
    assert "Started a Celery worker" not in one.log()
    assert one.process.poll() is None  # the site is served all the same
