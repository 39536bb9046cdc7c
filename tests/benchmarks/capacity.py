"""Realistic load: how many people at once the site holds, raised step by step.

``make load ARGS=--realistic``.

The site is ``make load``'s (``loadstack.loopback_stack``: gunicorn, PostgreSQL, a private
Redis as broker and shared cache, a Celery worker with beat sending every mail to an SMTP
sink). The people are ``people.py``'s: each has one game open and polls it every 15 s as
the page does, and moves at a human pace (log-normal think times); ``--api-share`` of
them play through the REST API instead of the page.

It raises the number of people step by step (``--steps``, default 250, 500, 1000, then 500
more a step up to 3500: a step of a thousand newcomers measures the burst of their first
pages more than the number of people at once). Each step adds the new people (accounts made as the site's sign-up makes them, with
a session and a token each, and their games, created and joined through the API, four to a
table; ``--ahead-share`` of the tables first played on to a point anywhere in their game,
``playahead.py``: a club night's tables are at every stage), lets them all open their pages
over ``--ramp`` seconds, then measures for ``--measure`` seconds: the median and 95th
percentile latency of each kind of request (pages opened: from the ramp on), the
errors (5xx, network errors, time-outs), and the CPU used by the web server, the
worker, PostgreSQL and this process (the clients). People of earlier steps go on playing. It stops raising once a step is far past
saturation (a p95 over ``--give-up-ms``, or errors).

Then it prints the capacity curve (a table, and an SVG plot written to ``--svg``) and the
capacity: the largest number of people held with the p95 of every kind of request at
most ``--p95-ms`` (300) and no error. Finally the checks of ``make load``
(``loadaudit.audit_run``): every game replays from its moves, the moves accepted are the
moves stored, every complete round was closed once, every mail arrived once. Exits 1 if
a check failed (a step past saturation is a figure, not a failure).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tests.benchmarks.apipeople import ApiPerson
from tests.benchmarks.capacityplot import curve_table
from tests.benchmarks.crowdsetup import (
    csrf_secret,
    make_people,
    open_the_day,
    seat_table,
    site_cache,
)
from tests.benchmarks.gunicorn_profile import profiled_window
from tests.benchmarks.loadstack import (
    Stack,
    cpu_between,
    cpu_snapshot,
    loopback_stack,
    make_players,
    warm_up,
)
from tests.benchmarks.people import (
    KINDS,
    MOVE_KINDS,
    Http,
    Pace,
    PagePerson,
    Person,
    Recorder,
)
from tests.benchmarks.playahead import moves_ahead, play_ahead
from tests.benchmarks.verdantpeople import VerdantPagePerson
from tests.benchmarks.webstack import percentiles

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/evergreen_load"
T = TypeVar("T")


@dataclass(frozen=True)
class CapacityConfig:
    steps: tuple[int, ...] = (250, 500, 1000, 1500, 2000, 2500, 3000, 3500)
    kind: str = "evergreen"  # or "verdant": every person on the page (``verdantpeople``)
    ramp: float = 20.0
    measure: float = 45.0
    seats: int = 4
    api_share: float = 0.2
    ahead_share: float = 0.5  # of the tables, played on to anywhere in their game first
    web_workers: int = 4
    web_threads: int = 1  # more than 1: gunicorn's threaded workers
    worker_concurrency: int = 2
    p95_ms: float = 300.0
    give_up_ms: float = 3000.0
    settle: float = 180.0
    seed: int = 1
    pace: Pace = field(default_factory=Pace)
    # The day's challenges opened first (``open_the_day``); a run shorter than the beat's
    # 5 minutes (the test suite's) never meets them, and is spared their computing.
    open_day: bool = True


@dataclass
class StepResult:
    people: int
    api_people: int
    seconds: float
    latency: dict[str, tuple[int, float, float]]  # kind -> (requests, median, p95)
    errors: list[str]
    moves: int
    cpu: dict[str, float]  # part -> share of one core (1.0 = a whole core)
    load_average: float = 0.0  # the machine's, over the last minute, at the window's end

    @property
    def requests(self) -> int:
        return sum(n for n, _median, _p95 in self.latency.values())

    def worst_p95(self) -> float:
        return max((p95 for _n, _median, p95 in self.latency.values()), default=0.0)

    def held(self, p95_ms: float) -> bool:
        return not self.errors and self.worst_p95() <= p95_ms


def capacity(results: list[StepResult], p95_ms: float) -> int:
    """The largest number of people held (every p95 within ``p95_ms``, no error), counting
    only the steps below the first one that failed."""
    held = 0
    for result in results:
        if not result.held(p95_ms):
            break
        held = result.people
    return held


# --- The run ----------------------------------------------------------------------------------


async def in_thread(function: Callable[..., T], *args: Any) -> T:
    """Django's database work off the event loop, in a thread that closes its connection."""

    def run() -> T:
        from django.db import connections

        try:
            return function(*args)
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)


class Crowd:
    """Everyone playing so far, their games, and what they saw."""

    def __init__(self, stack: Stack, config: CapacityConfig) -> None:
        self.config = config
        self.stack = stack
        self.recorder = Recorder()
        self.http = Http(stack.port, self.recorder)
        self.stop = asyncio.Event()
        self.rng = random.Random(config.seed)
        self.tasks: list[asyncio.Task[None]] = []
        self.game_ids: list[int] = []
        self.api_people = 0

    @property
    def size(self) -> int:
        return len(self.tasks)

    async def grow(self, count: int) -> None:
        """Add ``count`` people (whole tables), seated and starting within one poll period."""
        seats = self.config.seats
        count -= count % seats
        people = await in_thread(make_people, count)
        tables = [people[i : i + seats] for i in range(0, count, seats)]
        limit = asyncio.Semaphore(16)

        async def seat(table: list[tuple[str, str]]) -> int | None:
            async with limit:
                tokens = [token for token, _session in table]
                return await seat_table(self.http, tokens, seats, self.config.kind)

        games = await asyncio.gather(*(seat(table) for table in tables))
        for game_id in games:
            if game_id is not None and self.rng.random() < self.config.ahead_share:
                await self._play_ahead(game_id)
        for table, game_id in zip(tables, games, strict=True):
            if game_id is None:
                continue
            self.game_ids.append(game_id)
            for token, cookies in table:
                self.tasks.append(asyncio.create_task(self._person(game_id, token, cookies)))

    async def _play_ahead(self, game_id: int) -> None:
        moves = moves_ahead(self.rng, self.config.kind, self.config.seats)
        keys = await in_thread(play_ahead, game_id, moves, self.rng.getrandbits(32))
        self.recorder.accepted.setdefault(game_id, []).extend(keys)
        self.recorder.moves["ahead"] += len(keys)  # not the people's: before they sat down

    def _person(self, game_id: int, token: str, cookies: str) -> Any:
        rng = random.Random(self.rng.getrandbits(64))
        args = (self.http, game_id, rng, self.config.pace, self.stop)
        person: Person
        if self.config.kind == "verdant":
            person = VerdantPagePerson(*args, cookies=cookies, csrf_secret=csrf_secret())
        elif rng.random() < self.config.api_share:
            self.api_people += 1
            person = ApiPerson(*args, token=token)
        else:
            person = PagePerson(*args, cookies=cookies, csrf_secret=csrf_secret())
        return person.run(start_after=rng.uniform(0, self.config.pace.poll_seconds))

    async def measure(self, seconds: float, ramp_start: float) -> StepResult:
        """The step's figures over ``seconds`` from now; the pages the new people opened
        count from ``ramp_start`` (they open them during the ramp)."""
        before = await in_thread(cpu_snapshot, self.stack)
        start = time.monotonic()
        with profiled_window():
            await asyncio.sleep(seconds)
        end = time.monotonic()
        after = await in_thread(cpu_snapshot, self.stack)
        elapsed = end - start
        window = self.recorder.window(start, end)
        window["page"] = self.recorder.window(ramp_start, end).get("page", [])
        latency = {
            kind: (len(samples), *percentiles(samples))
            for kind, samples in window.items()
            if kind in KINDS and samples
        }
        moves = sum(len(window.get(kind, [])) for kind in MOVE_KINDS)
        cpu = {part: used / elapsed for part, used in cpu_between(before, after).items()}
        errors = self.recorder.errors_in(start, end)
        return StepResult(
            self.size, self.api_people, elapsed, latency, errors, moves, cpu, os.getloadavg()[0]
        )

    async def finish(self) -> None:
        """Everyone ends the request under way (its answer is recorded), then stops."""
        self.stop.set()
        await asyncio.wait_for(asyncio.gather(*self.tasks), timeout=120)
        await self.http.close()


async def climb(crowd: Crowd, config: CapacityConfig) -> list[StepResult]:
    results: list[StepResult] = []
    for target in config.steps:
        print(f"step: {target} people (adding {target - crowd.size})…", file=sys.stderr)
        await crowd.grow(target - crowd.size)
        ramp_start = time.monotonic()
        await asyncio.sleep(config.ramp)
        result = await crowd.measure(config.measure, ramp_start)
        results.append(result)
        print(curve_table([result], config.p95_ms, header=False), file=sys.stderr)
        if result.errors or result.worst_p95() > config.give_up_ms:
            print("far past saturation: no larger step", file=sys.stderr)
            break
    return results


def run_capacity(
    config: CapacityConfig, database_url: str, workdir: Path
) -> tuple[list[StepResult], Any, Recorder]:
    from django.conf import settings
    from django.test import override_settings

    from tests.benchmarks.loadaudit import audit_run, settle

    with loopback_stack(
        database_url,
        workdir,
        settings.SITE_URL,
        web_workers=config.web_workers,
        web_threads=config.web_threads,
        worker_concurrency=config.worker_concurrency,
        beat_seconds=60,
    ) as stack:
        warm_up(stack.port, make_players(1)[0], 4 * config.web_workers)
        if config.open_day:
            open_the_day()

        async def play() -> tuple[list[StepResult], Crowd]:
            crowd = Crowd(stack, config)
            try:
                return await climb(crowd, config), crowd
            finally:
                await crowd.finish()

        # The people are made in this process: what the site keeps in its cache when an
        # account is made is kept there too, as after a sign-up on the site.
        with override_settings(**site_cache(stack.redis.url(1))):
            results, crowd = asyncio.run(play())
        print("settling: the worker finishes its queue…", file=sys.stderr)
        left = settle(crowd.game_ids, config.settle)
        received = stack.sink.message_id_counts()
    recorder = crowd.recorder
    audit = audit_run(
        crowd.game_ids,
        recorder.accepted,
        received,
        left,
        errors=[text for _t, text in recorder.errors],
        requests=sum(recorder.statuses.values()),
        picks=recorder.moves["pick"] + recorder.moves["api pick"] + recorder.moves["start"],
        turns=recorder.moves["submit"] + recorder.moves["api turn"],
    )
    return results, audit, recorder
