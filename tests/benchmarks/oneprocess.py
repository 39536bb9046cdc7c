"""The set-up every in-process CPU benchmark shares (``rendercost``, ``turncost``,
``pickcost``, ``apicost``, ``mailcost``): bench_web's scratch database with the production
settings in this process, a private Redis as the cache, and cProfile's report."""

from __future__ import annotations

import cProfile
import os
import pstats
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.benchmarks.webstack import RedisServer, collect_static, static_root

ON_REDIS = "the private Redis"  # ``bench_process``'s broker: the cache's server


def in_one_process(redis: RedisServer, *, broker: str, **extra: str) -> None:
    """The production settings (DEBUG off) for bench_web's scratch database in this
    process, with ``redis`` as the cache and ``broker`` for Celery."""
    from tests.benchmarks import bench_web

    os.environ.update(
        DJANGO_SETTINGS_MODULE="evergreen.settings",
        DATABASE_URL=bench_web.DATABASE_URL,
        ROOT_URLCONF="evergreen.bench_urls",
        DEBUG="0",
        SECRET_KEY="bench-only-secret",
        DB_CONN_MAX_AGE="600",
        ALLOWED_HOSTS="testserver",
        STATIC_ROOT=static_root(),
        CELERY_BROKER_URL=broker,
        CACHE_URL=redis.url(1),
        **extra,
    )


@contextmanager
def bench_process(name: str, *, broker: str = ON_REDIS, **extra: str) -> Iterator[RedisServer]:
    """``in_one_process`` with a private Redis (also Celery's broker unless ``broker`` names
    another), the static files collected and bench_web's database made again; the Redis
    stopped at the end. ``extra``: more settings (``MOVE_RATE_LIMIT``, ``EMAIL_BACKEND``)."""
    from tests.benchmarks import bench_web

    workdir = Path(tempfile.mkdtemp(prefix=f"evergreen-{name}-"))
    redis = RedisServer(workdir / "redis.log")
    try:
        in_one_process(redis, broker=redis.url() if broker == ON_REDIS else broker, **extra)
        collect_static(dict(os.environ))
        bench_web.prepare_database()
        yield redis
    finally:
        redis.stop()


def show_profile(profiler: cProfile.Profile, *restrictions: object, suffix: str = "") -> None:
    """cProfile's top functions, by ``SORT`` (cumulative by default), restricted as
    ``pstats.print_stats`` is (60 lines unless told); ``PROFILE_OUT=file`` keeps the whole
    profile (in ``file`` + ``suffix``: one file per kind of request)."""
    if os.environ.get("PROFILE_OUT"):
        profiler.dump_stats(os.environ["PROFILE_OUT"] + suffix)
    stats = pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "cumulative"))
    stats.print_stats(*(restrictions or (60,)))
