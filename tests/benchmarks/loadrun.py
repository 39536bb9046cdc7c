"""Load run: many players at once through the REST API, then proof that nothing was lost.

The stack (``webstack``): gunicorn with a few sync workers, PostgreSQL, a private
redis-server as the broker, a real Celery worker with an embedded beat (it closes the
rounds and sends the mails), and an SMTP server (aiosmtpd) that keeps every mail.

The players: ``--players`` simulated people (default 200) at tables of ``--seats``
(default 4: 50 games at once), each a thread with an API token. A table's first player
creates a game through the API and the others join it; each then loops: read the game
(``GET /api/games/<id>/``); when it is their move, pick a card of the pool (with the
version read, ``If-Match``) or build a turn with the example bot's logic
(``examples/bot_client.build_turn``, which asks ``/targets/`` where each effect may go)
and submit it with an ``Idempotency-Key``; otherwise look again after a wait that starts
at 0.1 s after a move and doubles up to ``--poll-max`` (2 s; the API has no cheaper way
to learn that the game moved on, so waiting players' looks share the site with the
moves). A finished game is followed by a new one at the same
table. Every ``--repeat-every``-th accepted move is sent again with the same key, as a
client that lost the answer would: it must come back as a replay, adding nothing.

Bounded in time and count: it stops after ``--duration`` seconds or ``--max-moves``
accepted moves, every request times out after 30 s, and the worker gets
``--settle`` seconds to finish its queue. Then the checks (``loadaudit``): every game
replays from its Move rows to exactly its stored state; the moves the clients had
accepted (2xx answers, each idempotency key once) are exactly the Move rows made by
people; every complete round was closed exactly once; every mail sent arrived exactly
once; no answer was a 5xx and no request failed on the network.

Prints the throughput, the median and 95th-percentile latency of each kind of request,
and the checks; exits 1 if a check failed.

Usage: ``.venv/bin/python tests/benchmarks/loadrun.py [--players 200] [--duration 60]``
(or ``make load``). ``LOAD_DATABASE_URL`` names the scratch database (dropped and created
again; default ``postgresql://postgres@127.0.0.1:5432/evergreen_load``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tests.benchmarks.loadplayers import KINDS, LoadConfig, Stats, play
from tests.benchmarks.loadstack import (
    cpu_between,
    cpu_snapshot,
    loopback_stack,
    make_players,
    prepare_django,
    warm_up,
)
from tests.benchmarks.webstack import percentiles

if TYPE_CHECKING:
    from tests.benchmarks.loadaudit import Check

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/evergreen_load"


# --- The run ----------------------------------------------------------------------------------


@dataclass
class LoadReport:
    config: LoadConfig
    elapsed: float
    stats: Stats
    games: int
    finished: int
    rounds_closed: int
    mails_sent: int
    mails_skipped: int
    checks: list[Check]
    cpu: dict[str, float] = field(default_factory=dict)
    load_average: tuple[float, float] = (0.0, 0.0)  # the machine's, before and after

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def accepted(self) -> int:
        return sum(self.stats.moves.values())

    @property
    def throughput(self) -> float:
        return self.accepted / self.elapsed if self.elapsed else 0.0

    def latency(self, kind: str) -> tuple[int, float, float]:
        samples = self.stats.latencies.get(kind, [])
        return (len(samples), *percentiles(samples))

    def figures(self) -> dict[str, Any]:
        return {
            "players": self.config.players,
            "games_at_once": self.config.games,
            "seconds": round(self.elapsed, 1),
            "accepted_moves": self.accepted,
            "moves_per_second": round(self.throughput, 1),
            "latency_ms": {
                kind: {"n": n, "median": round(median, 2), "p95": round(p95, 2)}
                for kind in KINDS
                for n, median, p95 in [self.latency(kind)]
                if n
            },
            "rounds_closed": self.rounds_closed,
            "mails_sent": self.mails_sent,
            "cpu_seconds": {part: round(seconds, 1) for part, seconds in self.cpu.items()},
            "load_average": [round(x, 1) for x in self.load_average],
            "checks_ok": self.ok,
        }

    def text(self) -> str:
        c = self.config
        lines = [
            f"Load: {c.players} players in {c.games} games of {c.seats} at once, "
            f"{self.elapsed:.1f} s; gunicorn ({c.web_workers} sync workers) + PostgreSQL + "
            f"Redis + Celery worker with beat + SMTP, on loopback",
            f"  accepted moves       {self.accepted:7d}   {self.throughput:8.1f} moves/s   "
            f"(picks {self.stats.moves['pick']}, turns {self.stats.moves['turn']})",
            f"  games                {self.games:7d}   finished {self.finished}, "
            f"rounds closed by the worker {self.rounds_closed}",
            f"  mails                {self.mails_sent:7d}   sent and received "
            f"({self.mails_skipped} not sent: the player had moved already)",
            f"  repeated submissions {self.stats.repeats:7d}   (same Idempotency-Key: replays)",
        ]
        if self.stats.refusals:
            refusals = ", ".join(f"{code} x{n}" for code, n in self.stats.refusals.most_common())
            lines.append(
                f"  refused moves        {sum(self.stats.refusals.values()):7d}   {refusals}"
            )
        if self.stats.throttled:
            lines.append(f"  throttled (429)      {self.stats.throttled:7d}")
        if self.cpu:
            parts = ", ".join(f"{part} {seconds:.1f} s" for part, seconds in self.cpu.items())
            lines.append(
                f"  CPU while playing    {parts} (of {os.cpu_count()} cores x {self.elapsed:.0f} s; "
                f"the machine's load average {self.load_average[0]:.1f} before, "
                f"{self.load_average[1]:.1f} after)"
            )
        lines.append(f"  {'':40} {'requests':>9} {'median':>9} {'p95':>9}")
        for kind, label in KINDS.items():
            n, median, p95 = self.latency(kind)
            if n:
                lines.append(f"  {label:40} {n:9d} {median:7.2f}ms {p95:7.2f}ms")
        lines.append("Checks")
        for check in self.checks:
            lines.append(f"  [{'ok' if check.ok else 'FAILED'}] {check.name}: {check.detail}")
        return "\n".join(lines)


def run_load(config: LoadConfig, database_url: str, workdir: Path) -> LoadReport:
    """Start the stack, play, settle, check. Django must be set up on ``database_url``."""
    from django.conf import settings

    from tests.benchmarks.loadaudit import audit_run, settle

    tokens = make_players(config.players)
    with loopback_stack(
        database_url,
        workdir,
        settings.SITE_URL,
        web_workers=config.web_workers,
        worker_concurrency=config.worker_concurrency,
        beat_seconds=config.beat_seconds,
    ) as stack:
        warm_up(stack.port, tokens[0], 4 * config.web_workers)
        cpu_before = cpu_snapshot(stack)
        load_before = os.getloadavg()[0]
        started = time.monotonic()
        stats, game_ids = play(stack.port, tokens, config)
        elapsed = time.monotonic() - started
        cpu = cpu_between(cpu_before, cpu_snapshot(stack))
        load_after = os.getloadavg()[0]
        left = settle(game_ids, config.settle)
        received = stack.sink.message_id_counts()

    run = audit_run(
        game_ids,
        stats.accepted,
        received,
        left,
        errors=stats.errors,
        requests=sum(stats.statuses.values()),
        picks=stats.moves["pick"],
        turns=stats.moves["turn"],
    )
    return LoadReport(
        config,
        elapsed,
        stats,
        len(game_ids),
        run.finished,
        run.closings,
        run.mails_sent,
        run.mails_skipped,
        run.checks,
        cpu,
        (load_before, load_after),
    )


# --- Command line -----------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> tuple[LoadConfig, argparse.Namespace]:
    defaults = LoadConfig()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--players", type=int, default=defaults.players, help="simulated players (200)"
    )
    parser.add_argument(
        "--seats", type=int, default=defaults.seats, choices=[2, 3, 4], help="per game (4)"
    )
    parser.add_argument(
        "--duration", type=float, default=defaults.duration, help="seconds of play (120)"
    )
    parser.add_argument(
        "--max-moves", type=int, default=defaults.max_moves, help="stop after this many moves"
    )
    parser.add_argument(
        "--web-workers", type=int, default=defaults.web_workers, help="gunicorn workers (4)"
    )
    parser.add_argument(
        "--worker-concurrency",
        type=int,
        default=defaults.worker_concurrency,
        help="Celery worker threads (4)",
    )
    parser.add_argument(
        "--poll-max",
        type=float,
        default=defaults.poll_max,
        help="longest wait between looks at a game while waiting (2 s)",
    )
    parser.add_argument(
        "--repeat-every",
        type=int,
        default=defaults.repeat_every,
        help="send every Nth accepted move of a player again, same key (5; 0: never)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=defaults.settle,
        help="seconds the worker gets to finish its queue afterwards (120)",
    )
    parser.add_argument("--seed", type=int, default=defaults.seed, help="of the players' choices")
    parser.add_argument("--json", action="store_true", help="also print the figures as JSON")
    parser.add_argument(
        "--realistic",
        action="store_true",
        help="people at a human pace, step by step, and the capacity curve instead "
        "(capacity.py; --realistic --help for its options)",
    )
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs")
    args = parser.parse_args(argv)
    if args.players < args.seats:
        parser.error("--players must be at least --seats")
    config = LoadConfig(
        players=args.players,
        seats=args.seats,
        duration=args.duration,
        max_moves=args.max_moves,
        web_workers=args.web_workers,
        worker_concurrency=args.worker_concurrency,
        poll_max=args.poll_max,
        repeat_every=args.repeat_every,
        settle=args.settle,
        seed=args.seed,
    )
    return config, args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--realistic" in argv:
        from tests.benchmarks.capacitycli import main as realistic

        return realistic([a for a in argv if a != "--realistic"])
    config, args = parse_args(argv)
    database_url = os.environ.get("LOAD_DATABASE_URL", DEFAULT_DATABASE_URL)
    workdir = prepare_django(database_url, "evergreen-load-")
    report = run_load(config, database_url, workdir)
    print(report.text())
    if args.json:
        print(json.dumps({"load": report.figures()}))
    if not report.ok:
        print(f"load run FAILED; the processes' logs are in {workdir}", file=sys.stderr)
    elif not args.keep_logs:
        for path in workdir.iterdir():
            path.unlink()
        workdir.rmdir()
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
