"""The API players of ``make load`` (``loadrun.py``) and of the two-node test: one thread
each, ``seats`` to a table, playing flat out through the REST API (see ``loadrun``'s
docstring for what each does), with what each saw (``Stats``) merged at the end."""

from __future__ import annotations

import json
import random
import threading
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from examples.bot_client import build_turn
from tests.benchmarks.webstack import Answer, request

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
