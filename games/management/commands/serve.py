"""Serve the site with everything it needs on one machine: what ``make run`` runs.

Starts two child processes and watches them:

* a Celery worker with an embedded beat scheduler (``celery -A evergreen worker -B``):
  it closes rounds, sends the e-mails, and every minute sweeps overdue seats, sends
  reminders and digests. With the default settings its broker is kombu's filesystem
  transport (a folder, ``.celery/queue``): no server to install or start;
* Django's development server on http://127.0.0.1:8000.

When one of them stops (Control-C, ``kill``, a crash, a port already in use) the other
is stopped too: terminated, waited for, killed if it does not stop in time. Production
runs the same three roles separately (see the ``Procfile`` and the README).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

STOP_TIMEOUT = 15.0  # seconds a child gets to stop after SIGTERM before it is killed
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def celery_dir() -> Path:
    """The folder of the embedded broker and of beat's schedule file."""
    return Path(os.environ.get("CELERY_FILESYSTEM_DIR", settings.BASE_DIR / ".celery"))


def worker_command(schedule: Path, loglevel: str = "info") -> list[str]:
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "evergreen",
        "worker",
        "-B",
        "--pool=solo",
        "--without-mingle",
        "--without-gossip",
        f"--loglevel={loglevel}",
        f"--schedule={schedule}",
    ]


IN_PROCESS_BROKERS = ("memory://",)


def worker_can_receive(broker_url: str) -> bool:
    """Whether a worker in another process would receive this site's tasks: not through
    kombu's in-memory transport, which lives inside one process. (What decides is the
    broker, never ``CELERY_TASK_ALWAYS_EAGER``: no production branch rests on a test flag.)"""
    return not broker_url.startswith(IN_PROCESS_BROKERS)


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: the child gets SIGTERM when this process dies, even by SIGKILL."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except OSError:
            pass


def start(command: list[str]) -> subprocess.Popen[bytes]:
    """A child in its own process group (stopped as a whole), sharing our console."""
    return subprocess.Popen(
        command,
        cwd=settings.BASE_DIR,
        env=os.environ.copy(),
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )


def stop(process: subprocess.Popen[bytes], timeout: float = STOP_TIMEOUT) -> int:
    """Terminate a child's process group, wait for it, kill it if it does not stop."""
    if process.poll() is None:
        _signal_group(process, signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            _signal_group(process, signal.SIGKILL)
            process.wait()
    # A worker's embedded beat is a child of the worker, in the same group.
    _signal_group(process, signal.SIGKILL)
    return process.returncode


def _signal_group(process: subprocess.Popen[bytes], sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


class Command(BaseCommand):
    help = (
        "Serve the site with a Celery worker and an embedded beat scheduler "
        "(the embedded default of `make run`)."
    )
    requires_system_checks = ()  # the web server runs them

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "addrport", nargs="?", default="127.0.0.1:8000", help="Address and port to serve on."
        )
        parser.add_argument(
            "--no-worker",
            action="store_true",
            help="Serve only; a worker and a beat are run separately.",
        )
        parser.add_argument(
            "--reload", action="store_true", help="Restart the web server when code changes."
        )
        parser.add_argument("--loglevel", default="info", help="The worker's log level.")

    def handle(self, *args: Any, **options: Any) -> None:
        children: list[tuple[str, subprocess.Popen[bytes]]] = []

        def on_signal(signum: int, frame: FrameType | None) -> None:
            raise KeyboardInterrupt  # stop everything, like Control-C

        # Installed explicitly: a shell starting us in the background ignores SIGINT.
        previous = {sig: signal.signal(sig, on_signal) for sig in STOP_SIGNALS}
        try:
            if options["no_worker"]:
                self.stdout.write("No worker started (--no-worker): run one separately.")
            elif not worker_can_receive(settings.CELERY_BROKER_URL):
                self.stdout.write(
                    f"The broker ({settings.CELERY_BROKER_URL}) lives in one process: a worker "
                    "started beside it would receive no task, so none is started."
                )
            else:
                folder = celery_dir()
                folder.mkdir(parents=True, exist_ok=True)
                command = worker_command(folder / "beat-schedule", options["loglevel"])
                worker = start(command)
                children.append(("Celery worker", worker))
                broker = settings.CELERY_BROKER_URL
                where = f" in {folder / 'queue'}" if broker.startswith("filesystem://") else ""
                self.stdout.write(
                    f"Started a Celery worker with an embedded beat (pid {worker.pid}, "
                    f"broker {broker.split('@')[-1]}{where})."
                )
            web = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "runserver"]
            web += [options["addrport"]] + ([] if options["reload"] else ["--noreload"])
            children.insert(0, ("web server", start(web)))
            code = self._watch(children)
        except KeyboardInterrupt:
            code = 0
        finally:
            for _name, process in children:
                stop(process)
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        if code:
            raise CommandError(f"stopped (exit code {code})", returncode=code)

    def _watch(self, children: list[tuple[str, subprocess.Popen[bytes]]]) -> int:
        """Wait until a child stops; return its exit code (0 when it stopped cleanly)."""
        while True:
            for name, process in children:
                code = process.poll()
                if code is not None:
                    self.stderr.write(f"The {name} stopped (exit code {code}): stopping.")
                    return code
            time.sleep(0.5)
