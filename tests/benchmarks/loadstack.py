"""The load runs' site on loopback and its players: shared by ``loadrun.py`` (``make load``)
and ``capacity.py`` (``make load ARGS=--realistic``).

* ``loopback_stack``: a private Redis (the broker, and the cache every web process
  shares: sessions, page cache, rate limits, as ``CACHE_URL`` is in production), an SMTP
  sink, a Celery worker with an embedded beat, and gunicorn;
* ``make_players``: users with a player profile and an API token, in three queries;
* ``warm_up``: parallel requests until every web worker has loaded its views;
* ``cpu_snapshot``: the CPU seconds of each part so far (web, worker, PostgreSQL, this
  process).
"""

from __future__ import annotations

import contextlib
import os
import resource
import sys
import tempfile
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.benchmarks.mailsink import MailSink
from tests.benchmarks.processcpu import process_cpu_seconds
from tests.benchmarks.webstack import (
    STACK_SECRET_KEY,
    Child,
    RedisServer,
    celery_worker,
    gunicorn,
    request,
    scratch_database,
    site_env,
)


@dataclass
class Stack:
    port: int
    sink: MailSink
    web: Child
    worker: Child
    redis: RedisServer


@contextlib.contextmanager
def loopback_stack(
    database_url: str,
    workdir: Path,
    site_url: str,
    *,
    web_workers: int,
    worker_concurrency: int,
    beat_seconds: int,
    web_threads: int = 1,
) -> Iterator[Stack]:
    """Private Redis, an SMTP sink, a Celery worker with beat and gunicorn, all on loopback."""
    with contextlib.ExitStack() as stack:
        redis = RedisServer(workdir / "redis.log")
        stack.callback(redis.stop)
        sink = stack.enter_context(MailSink().serving())
        env = site_env(
            database_url,
            redis.url(),
            smtp_port=sink.port,
            site_url=site_url,
            CACHE_URL=redis.url(1),  # shared by the web workers, as in production
            CELERY_BEAT_SECONDS=str(beat_seconds),
            DB_CONN_MAX_AGE="600",  # persistent sessions, as in production
        )
        worker = celery_worker(
            env,
            workdir / "worker.log",
            beat_schedule=workdir / "beat-schedule",
            concurrency=worker_concurrency,
        )
        stack.callback(worker.stop)
        web, port = gunicorn(
            env, workdir / "gunicorn.log", workers=web_workers, threads=web_threads
        )
        stack.callback(web.stop)
        yield Stack(port, sink, web, worker, redis)


def prepare_django(database_url: str, prefix: str) -> Path:
    """This process's Django on a fresh scratch database (dropped, created, migrated); the
    folder for the processes' logs. The runner sends no task itself: the site does."""
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "evergreen.settings",
            "DATABASE_URL": database_url,
            "DEBUG": "0",
            "SECRET_KEY": STACK_SECRET_KEY,
            "CELERY_BROKER_URL": "memory://",
            "SITE_URL": "http://127.0.0.1:8000",
        }
    )
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    print(f"preparing the database ({database_url}); logs in {workdir}", file=sys.stderr)
    scratch_database(database_url)
    import django

    django.setup()
    return workdir


def mail_every_move(*users: Any) -> None:
    """These players get a mail for every move (new players' mails are coalesced): the
    load and fault checks count every mail, each due before the run settles. Saved on
    the users' own players, as the profile page saves it: the user objects the caller
    goes on playing with say so too (a write takes the asking user as it is), and the
    user cache hears of it."""
    from games.models import Player

    for user in users:
        player = Player.for_user(user)
        user.player = player
        player.email_mode = Player.EmailMode.EVERY_MOVE
        player.save(update_fields=["email_mode"])


def make_players(count: int) -> list[str]:
    """``count`` users with a player profile and an API token (no password: tokens only)."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.models import Player

    User = get_user_model()
    tag = uuid.uuid4().hex[:6]
    users = User.objects.bulk_create(
        [
            User(username=f"load-{tag}-{i}", email=f"load-{tag}-{i}@example.org", password="!")
            for i in range(count)
        ]
    )
    # A mail for every move (a new player's mails are coalesced by default): the checks
    # count every mail of the run, each due before the run settles.
    Player.objects.bulk_create(
        [
            Player(user=user, display_name=f"Load {i}", email_mode=Player.EmailMode.EVERY_MOVE)
            for i, user in enumerate(users)
        ]
    )
    tokens = Token.objects.bulk_create(
        [Token(user=user, key=Token.generate_key()) for user in users]
    )
    return [token.key for token in tokens]


def warm_up(port: int, token: str, requests: int) -> None:
    """Requests in parallel until every web worker has loaded its views (Django imports
    them at the first request), so the run measures a warm site."""
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}

    def some() -> None:
        for path in ("/api/games/", "/api/games/?status=open", "/api/games/0/", "/"):
            # A cold worker on a crowded machine may take long over its first request.
            with contextlib.suppress(OSError):
                request(port, "GET", path, headers, timeout=120)

    threads = [threading.Thread(target=some) for _ in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)


def cpu_snapshot(stack: Stack) -> dict[str, Any]:
    """CPU seconds used so far by each part: web, worker, PostgreSQL (per session open on
    this database now) and this process (the clients, the SMTP server)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        backends = [row[0] for row in cursor.fetchall()]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "web": stack.web.cpu_seconds(),
        "worker": stack.worker.cpu_seconds(),
        "postgres": {pid: process_cpu_seconds(pid) for pid in backends},
        "clients": usage.ru_utime + usage.ru_stime,
    }


def cpu_between(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    """CPU seconds each part used between two snapshots. PostgreSQL sessions opened
    meanwhile count whole (none closes: ``DB_CONN_MAX_AGE=600``)."""
    cpu = {part: after[part] - before[part] for part in before if part != "postgres"}
    cpu["postgres"] = sum(
        seconds - before["postgres"].get(pid, 0.0) for pid, seconds in after["postgres"].items()
    )
    return cpu
