"""People who play through the REST API at the page's pace (``people.py``'s model).

``ApiPerson`` reads the game (``GET /api/games/<id>/``), then polls it every poll period
with ``?since=<the version read>`` (204 while nothing moved), as ``examples/bot_client``
does; when it is their move, it thinks (``Pace``), then picks or builds a turn with the
example bot's logic (``examples/bot_client.build_turn``, asking ``/targets/``) and submits
it with an ``Idempotency-Key``; after a move it reads the game at once.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import quote

from examples.bot_client import build_turn
from tests.benchmarks.people import Person
from tests.benchmarks.stackhttp import request


class _BotTargets:
    """What ``bot_client.build_turn`` asks (``targets``), answered by blocking requests in
    a worker thread: the bot's logic is the example client's, unchanged."""

    def __init__(self, person: ApiPerson) -> None:
        self.person = person
        self.samples: list[tuple[int, float]] = []

    def targets(
        self, game_id: int, effect: str, partial: dict[str, Any] | None = None
    ) -> list[list[int]]:
        query = f"effect={effect}"
        if partial is not None:
            query += "&partial=" + quote(json.dumps(partial, separators=(",", ":")))
        path = f"/api/games/{game_id}/targets/?{query}"
        try:
            answer = request(self.person.http.port, "GET", path, self.person.headers)
        except OSError as exc:
            self.samples.append((0, 0.0))
            self.person.recorder.error(f"GET {path}: {type(exc).__name__}: {exc}")
            return []
        self.samples.append((answer.status, answer.ms))
        return json.loads(answer.body) if answer.status == 200 else []  # type: ignore[no-any-return]


class ApiPerson(Person):
    """A person playing through the REST API with a token, at the page's pace."""

    def __init__(self, *args: Any, token: str) -> None:
        super().__init__(*args)
        self.headers = {"Authorization": f"Token {token}", "Accept": "application/json"}

    async def play(self) -> None:
        seen: int | None = None  # the version last read: then polled with ``since``
        while not self.stop.is_set():
            path = f"/api/games/{self.game_id}/"
            label = "api view" if seen is None else "api poll"
            query = "" if seen is None else f"?since={seen}"
            answer = await self.http.call(label, "GET", path + query, self.headers)
            if answer is not None and answer[0] == 200:
                game = json.loads(answer[2])
                seen = game["version"]
                if game["status"] in ("finished", "aborted"):
                    return
                if game["my_move"]:
                    phase = game["view"]["phase"]
                    median = self.pace.pick_median if phase == "draft" else self.pace.turn_median
                    if not await self.pause(self.pace.think(self.rng, median)):
                        return
                    if await self.move(game):
                        continue  # look again at once, as a client does after its move
            if not await self.pause(self.pace.poll_seconds):
                return

    async def move(self, game: dict[str, Any]) -> bool:
        key = f"{self.game_id}-{self.rng.getrandbits(64):016x}"
        headers = {**self.headers, "Idempotency-Key": key, "Content-Type": "application/json"}
        if game["view"]["phase"] == "draft":
            kind, body = "api pick", {"card": self.rng.choice(game["view"]["pool"])}
            headers["If-Match"] = str(game["version"])
        else:
            bot = _BotTargets(self)
            turn = await asyncio.to_thread(build_turn, bot, self.game_id)  # type: ignore[arg-type]
            for status, ms in bot.samples:
                if not status:
                    continue  # a network error, recorded as such
                self.recorder.sample("api targets", ms)
                self.recorder.statuses[f"api targets {status}"] += 1
                if status >= 500:
                    self.recorder.error(f"targets answered {status}")
            kind, body = "api turn", turn
        if self.stop.is_set():
            return False
        path = f"/api/games/{self.game_id}/{kind.split()[1]}/"
        answer = await self.http.call(kind, "POST", path, headers, json.dumps(body))
        if answer is None:
            return False
        status, answer_headers, text = answer
        if 200 <= status < 300:
            self.accepted(kind, key)
            return True
        if status == 429:
            await self.pause(float(answer_headers.get("retry-after") or 1))
        code = ""
        if status < 500 and text.startswith("{"):
            code = str(json.loads(text).get("code", ""))
        self.refused(kind, status, code)
        return False
