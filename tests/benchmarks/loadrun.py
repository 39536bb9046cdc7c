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
import random
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from loadstack import (
    cpu_between,
    cpu_snapshot,
    loopback_stack,
    make_players,
    prepare_django,
    warm_up,
)
from webstack import ROOT, Answer, percentiles, request

if TYPE_CHECKING:
    from loadaudit import Check

sys.path.insert(0, str(ROOT / "examples"))
from bot_client import build_turn

DEFAULT_DATABASE_URL = "postgresql://postgres@127.0.0.1:5432/evergreen_load"
SUBMISSIONS = ("pick", "turn")
KINDS = {
    "view": "game view (GET /api/games/<id>/)",
    "turn": "turn submission (POST …/turn/)",
    "pick": "pick submission (POST …/pick/)",
    "targets": "legal targets (GET …/targets/)",
    "repeat": "repeated submission (same key)",
    "create": "create a game (POST /api/games/)",
    "join": "join a game (POST …/join/)",
}


@dataclass(frozen=True)
class LoadConfig:
    players: int = 200
    seats: int = 4
    duration: float = 120.0
    max_moves: int = 1_000_000
    web_workers: int = 4
    worker_concurrency: int = 4
    poll_min: float = 0.1
    poll_max: float = 2.0
    repeat_every: int = 5
    settle: float = 120.0
    http_timeout: float = 30.0
    beat_seconds: int = 60
    seed: int = 1

    @property
    def games(self) -> int:
        return self.players // self.seats


# --- The clients ------------------------------------------------------------------------------


@dataclass
class Stats:
    """What one client saw; merged at the end (no locks while running)."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    accepted: dict[int, list[str]] = field(default_factory=dict)  # game -> idempotency keys
    moves: Counter[str] = field(default_factory=Counter)
    repeats: int = 0
    throttled: int = 0
    errors: list[str] = field(default_factory=list)

    def merge(self, other: Stats) -> None:
        for kind, samples in other.latencies.items():
            self.latencies.setdefault(kind, []).extend(samples)
        self.statuses.update(other.statuses)
        self.refusals.update(other.refusals)
        for game, keys in other.accepted.items():
            self.accepted.setdefault(game, []).extend(keys)
        self.moves.update(other.moves)
        self.repeats += other.repeats
        self.throttled += other.throttled
        self.errors.extend(other.errors)


class Stop(Exception):
    """The run is over: leave the loop."""


class Table:
    """The players of one table share its current game: the first creates, the others join."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.game: int | None = None
        self.games: list[int] = []
        self.cond = threading.Condition()

    def publish(self, game_id: int) -> None:
        with self.cond:
            self.game = game_id
            self.games.append(game_id)
            self.cond.notify_all()

    def wait_for_game_after(self, previous: int | None, stop: threading.Event) -> int:
        with self.cond:
            while self.game is None or self.game == previous:
                if stop.is_set():
                    raise Stop
                self.cond.wait(0.2)
            return self.game


class Client:
    """One simulated player: an API token, a table, a loop."""

    def __init__(
        self,
        port: int,
        token: str,
        table: Table,
        host: bool,
        config: LoadConfig,
        stop: threading.Event,
        counter: MoveCounter,
        seed: int,
    ) -> None:
        self.port = port
        self.auth = {"Authorization": f"Token {token}", "Accept": "application/json"}
        self.table = table
        self.host = host
        self.config = config
        self.stop = stop
        self.counter = counter
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.game_id: int | None = None
        self._accepted_here = 0

    # HTTP -------------------------------------------------------------------------------

    def call(
        self,
        kind: str,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer | None:
        """One request, timed and counted; None after a network error (recorded)."""
        data = None if body is None else json.dumps(body).encode()
        all_headers = {**self.auth, **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        try:
            answer = request(self.port, method, path, all_headers, data, self.config.http_timeout)
        except OSError as exc:
            self.stats.errors.append(f"{method} {path}: {type(exc).__name__}: {exc}")
            self.stats.statuses[f"{kind} network error"] += 1
            return None
        self.stats.latencies.setdefault(kind, []).append(answer.ms)
        self.stats.statuses[f"{kind} {answer.status}"] += 1
        if answer.status >= 500:
            self.stats.errors.append(f"{method} {path} answered {answer.status}")
        elif answer.status == 429:
            self.stats.throttled += 1
            self.pause(float(answer.headers.get("retry-after", "1") or 1))
        return answer

    def pause(self, seconds: float) -> None:
        if self.stop.wait(seconds):
            raise Stop

    def check_stop(self) -> None:
        if self.stop.is_set():
            raise Stop

    # The bot's questions: build_turn() calls targets() -----------------------------------

    def targets(
        self, game_id: int, effect: str, partial: dict[str, Any] | None = None
    ) -> list[list[int]]:
        self.check_stop()
        query = f"effect={effect}"
        if partial is not None:
            from urllib.parse import quote

            query += "&partial=" + quote(json.dumps(partial, separators=(",", ":")))
        answer = self.call("targets", "GET", f"/api/games/{game_id}/targets/?{query}")
        if answer is None or answer.status != 200:
            return []
        return json.loads(answer.body)  # type: ignore[no-any-return]

    # The loop ---------------------------------------------------------------------------

    def run(self) -> None:
        try:
            while True:
                self.check_stop()
                self.game_id = self.take_seat(self.game_id)
                self.play(self.game_id)
        except Stop:
            pass
        except Exception as exc:  # a bug of the client: reported as an error, never hidden
            self.stats.errors.append(f"client crashed: {type(exc).__name__}: {exc}")

    def take_seat(self, previous: int | None) -> int:
        """The table's next game: created by the host, joined by the others."""
        if self.host:
            answer = None
            while answer is None or answer.status not in (200, 201):
                self.check_stop()
                answer = self.call("create", "POST", "/api/games/", {"players": self.config.seats})
                if answer is not None and answer.status not in (200, 201, 429):
                    raise RuntimeError(f"creating a game answered {answer.status}")
            game_id = int(json.loads(answer.body)["id"])
            self.table.publish(game_id)
            return game_id
        game_id = self.table.wait_for_game_after(previous, self.stop)
        while True:
            self.check_stop()
            answer = self.call("join", "POST", f"/api/games/{game_id}/join/", {})
            if answer is not None and answer.status == 200:
                return game_id
            if answer is not None and answer.status not in (409, 429):
                raise RuntimeError(f"joining game {game_id} answered {answer.status}")
            if answer is not None and answer.status == 409:
                return game_id  # already joined (a retried join)

    def play(self, game_id: int) -> None:
        """Until the game is over: look, move when it is our move, else wait a little."""
        wait = self.config.poll_min
        while True:
            self.check_stop()
            answer = self.call("view", "GET", f"/api/games/{game_id}/")
            if answer is None or answer.status != 200:
                self.pause(wait)
                continue
            game = json.loads(answer.body)
            if game["status"] in ("finished", "aborted"):
                return
            if not game["my_move"]:
                self.pause(wait * (0.5 + self.rng.random()))
                wait = min(wait * 2, self.config.poll_max)
                continue
            wait = self.config.poll_min
            view = game["view"]
            if view["phase"] == "draft":
                card = self.rng.choice(view["pool"])
                self.submit(game_id, "pick", {"card": card}, {"If-Match": str(game["version"])})
            else:
                turn = build_turn(self, game_id)  # type: ignore[arg-type]
                self.submit(game_id, "turn", turn, {})

    def submit(self, game_id: int, kind: str, body: Any, headers: dict[str, str]) -> None:
        self.check_stop()
        key = uuid.uuid4().hex
        path = f"/api/games/{game_id}/{kind}/"
        headers = {**headers, "Idempotency-Key": key}
        answer = None
        for _attempt in range(3):  # a network error: send it again, same key
            answer = self.call(kind, "POST", path, body, headers)
            if answer is not None and answer.status != 429:
                break
        if answer is None:
            return
        if 200 <= answer.status < 300:
            self.stats.accepted.setdefault(game_id, []).append(key)
            self.stats.moves[kind] += 1
            self._accepted_here += 1
            if self.counter.add() >= self.config.max_moves:
                self.stop.set()
            if self.config.repeat_every and self._accepted_here % self.config.repeat_every == 0:
                self.repeat(path, body, headers, answer)
        elif answer.status in (400, 409):
            code = json.loads(answer.body).get("code", "?") if answer.body else "?"
            self.stats.refusals[f"{answer.status} {code}"] += 1

    def repeat(self, path: str, body: Any, headers: dict[str, str], first: Answer) -> None:
        """Send an accepted move again, same key: a replay of the first answer, no new move."""
        again = self.call("repeat", "POST", path, body, headers)
        if again is None:
            return
        self.stats.repeats += 1
        number = json.loads(first.body)["move"]["number"]
        if (
            again.status != 200
            or again.headers.get("idempotent-replayed") != "true"
            or json.loads(again.body)["move"]["number"] != number
        ):
            self.stats.errors.append(
                f"a repeated submission ({path}) was not a replay: {again.status} {again.body[:200]!r}"
            )


class MoveCounter:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.value = 0

    def add(self) -> int:
        with self._lock:
            self.value += 1
            return self.value


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


def play(port: int, tokens: list[str], config: LoadConfig) -> tuple[Stats, list[int]]:
    """The players (one thread each, ``config.seats`` to a table) play on the site at
    ``port`` until ``config.duration`` or ``config.max_moves``; what they saw, and every
    game they played."""
    stop = threading.Event()
    counter = MoveCounter()
    tables = [Table(n) for n in range(config.games)]
    clients = [
        Client(
            port,
            tokens[i],
            tables[i // config.seats],
            i % config.seats == 0,
            config,
            stop,
            counter,
            config.seed * 100_003 + i,
        )
        for i in range(config.games * config.seats)
    ]
    threads = [
        threading.Thread(target=client.run, name=f"player-{i}", daemon=True)
        for i, client in enumerate(clients)
    ]
    for thread in threads:
        thread.start()
    stop.wait(config.duration)
    stop.set()
    for thread in threads:
        thread.join(config.http_timeout + 10)
    stats = Stats()
    for client in clients:
        stats.merge(client.stats)
    stuck = [t.name for t in threads if t.is_alive()]
    if stuck:
        stats.errors.append(f"{len(stuck)} clients did not stop: {stuck[:5]}")
    return stats, sorted(g for table in tables for g in table.games)


def run_load(config: LoadConfig, database_url: str, workdir: Path) -> LoadReport:
    """Start the stack, play, settle, check. Django must be set up on ``database_url``."""
    from django.conf import settings
    from loadaudit import audit_run, settle

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
        from capacity import main as realistic

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
