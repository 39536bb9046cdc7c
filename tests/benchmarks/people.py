"""Simulated people for the realistic load model (``capacity.py``), on asyncio and aiohttp.

Each person sits at one game and behaves as the page (or a polite API client) makes
them behave:

* **On the page** (most people): open the game page once, then the page's poller asks
  ``games:poll`` every 15 s with the version shown (204 while nothing changed, else the
  play region, which restarts the 15 s as htmx does for the new element). When the page
  shows their move they think, then pick a card of the pool (one POST), or build their
  turn on the page (an Action, "do not use the Power", one to three spaces offered on the
  board, each a POST of the turn builder some seconds apart) and submit it. Cookies
  (session, CSRF) and the ``X-CSRFToken`` header are sent as the browser sends them.
* **Through the API** (``--api-share``, ``apipeople.py``): read the game (``GET /api/games/<id>/``) every
  15 s and, when it is their move, think, then pick or build a turn with the example bot's
  logic (``examples/bot_client.build_turn``, asking ``/targets/``) and submit it with an
  ``Idempotency-Key``; after a move they read the game at once.

Think times are log-normal (``Pace``), the pace of a club night when everyone is at the
table at once (the busiest a correspondence site gets; on other nights a move comes
hours apart): a pick after a median of 20 s (reading the pool's cards and choosing
one), a turn decided after 60 s (an Action, where its trees go, the Power), then each
step of building it on the page 4 s apart; sigma 0.6 for all, so one in twenty takes
2.7 times the median or longer (a pick over 54 s, a turn over 2.7 min) and one in
twenty under 0.37 times it. Human response times are skewed this way: most are quick,
a few ponder. A round closes when the slowest of the table has moved.

Every request is timed with the moment it ended, so ``capacity.py`` can take the
latencies of one step's window; 5xx answers and network errors are errors, 4xx answers
to moves are refusals (counted, not errors), and each move the site accepted is kept with
its idempotency key for the audit.
"""

from __future__ import annotations

import asyncio
import html
import math
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

import aiohttp

KINDS = {
    "page": "game page, opened (GET)",
    "poll 204": "page poll, nothing new (204)",
    "poll 200": "page poll, new region (200)",
    "pick": "pick on the page (POST)",
    "start": "starting plant, on the page (POST)",
    "step": "turn builder step (Evergreen: POST; Verdant: GET)",
    "submit": "turn submitted on the page (POST)",
    "api view": "API game view (GET)",
    "api poll 204": "API poll with since, nothing new (204)",
    "api poll 200": "API poll with since, the game view (200)",
    "api targets": "API legal targets (GET)",
    "api pick": "API pick (POST)",
    "api turn": "API turn (POST)",
}
MOVE_KINDS = ("pick", "start", "submit", "api pick", "api turn")


@dataclass(frozen=True)
class Pace:
    poll_seconds: float = 15.0
    pick_median: float = 20.0
    turn_median: float = 60.0
    step_median: float = 4.0
    sigma: float = 0.6

    def think(self, rng: random.Random, median: float) -> float:
        return rng.lognormvariate(math.log(median), self.sigma)

    def text(self) -> str:
        return (
            f"polls every {self.poll_seconds:g} s; think times log-normal (sigma {self.sigma:g}): "
            f"pick median {self.pick_median:g} s, turn median {self.turn_median:g} s, "
            f"page steps {self.step_median:g} s apart"
        )


@dataclass
class Recorder:
    """What every person saw, with the time each request ended (one event loop: no locks)."""

    samples: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    statuses: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    errors: list[tuple[float, str]] = field(default_factory=list)
    accepted: dict[int, list[str]] = field(default_factory=dict)  # game -> idempotency keys
    moves: Counter[str] = field(default_factory=Counter)

    def sample(self, kind: str, ms: float) -> None:
        self.samples.setdefault(kind, []).append((time.monotonic(), ms))

    def error(self, text: str) -> None:
        self.errors.append((time.monotonic(), text))

    def window(self, start: float, end: float) -> dict[str, list[float]]:
        return {
            kind: [ms for t, ms in samples if start <= t < end]
            for kind, samples in self.samples.items()
        }

    def errors_in(self, start: float, end: float) -> list[str]:
        return [text for t, text in self.errors if start <= t < end]


class Http:
    """One aiohttp session for everyone; each person brings their own headers (cookies)."""

    def __init__(self, port: int, recorder: Recorder, timeout: float = 30.0) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.port = port
        self.recorder = recorder
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0, force_close=True),
            cookie_jar=aiohttp.DummyCookieJar(),
            timeout=aiohttp.ClientTimeout(total=timeout),
        )

    async def call(
        self,
        kind: str,
        method: str,
        path: str,
        headers: dict[str, str],
        data: Any = None,
    ) -> tuple[int, dict[str, str], str] | None:
        """One request, timed; None after a network error or a timeout (recorded)."""
        start = time.perf_counter()
        try:
            async with self.session.request(
                method, self.base + path, headers={**headers, "X-Bench-Kind": kind}, data=data
            ) as response:
                body = await response.text()
                status = response.status
                answer_headers = {k.lower(): v for k, v in response.headers.items()}
        except (aiohttp.ClientError, TimeoutError) as exc:
            self.recorder.statuses[f"{kind} network error"] += 1
            self.recorder.error(f"{method} {path}: {type(exc).__name__}: {exc}")
            return None
        ms = (time.perf_counter() - start) * 1000
        if kind in ("poll", "api poll"):
            kind = f"{kind} {status}" if status in (200, 204) else kind
        self.recorder.sample(kind, ms)
        self.recorder.statuses[f"{kind} {status}"] += 1
        if status >= 500:
            self.recorder.error(f"{method} {path} answered {status}")
        return status, answer_headers, body

    async def close(self) -> None:
        await self.session.close()


class Person:
    """The loop both kinds share: look every ``poll_seconds``; move when it is our move."""

    def __init__(
        self, http: Http, game_id: int, rng: random.Random, pace: Pace, stop: asyncio.Event
    ) -> None:
        self.http = http
        self.game_id = game_id
        self.rng = rng
        self.pace = pace
        self.stop = stop
        self.recorder = http.recorder

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds``; False when the run stops meanwhile."""
        if self.stop.is_set():
            return False
        try:
            await asyncio.wait_for(self.stop.wait(), max(0.0, seconds))
        except TimeoutError:
            return True
        return False

    def accepted(self, kind: str, key: str) -> None:
        self.recorder.accepted.setdefault(self.game_id, []).append(key)
        self.recorder.moves[kind] += 1

    def refused(self, kind: str, status: int, code: str = "") -> None:
        self.recorder.refusals[f"{kind} {status} {code}".strip()] += 1

    async def run(self, start_after: float) -> None:
        try:
            if await self.pause(start_after):
                await self.play()
        except Exception as exc:  # a bug of the client: reported, never hidden
            self.recorder.error(f"person crashed: {type(exc).__name__}: {exc}")

    async def play(self) -> None:
        raise NotImplementedError


# --- On the page ------------------------------------------------------------------------------

_VERSION = re.compile(r"/poll/\?version=(\d+)")
_REGION = 'id="play"'  # the play region's root: an answer without it is parts swapped out of band
_CARD = re.compile(r'name="card" value="([^"]+)"')
_KEY = re.compile(r'name="key" value="([0-9a-f]+)"')
_STEPS = re.compile(r'name="steps" value="([^"]*)"')
_ACTION = re.compile(r'id="act-([A-D])"')
_SPACE = re.compile(r'name="step" value="(\d{1,2},\d{1,2})"')


class PagePerson(Person):
    """A person with the game page open in a browser (``cookies``: the session's and the
    others a signed-in browser holds, ``crowdsetup.make_people``; and the CSRF cookie)."""

    def __init__(self, *args: Any, cookies: str, csrf_secret: str) -> None:
        super().__init__(*args)
        cookie = f"{cookies}; csrftoken={csrf_secret}"
        self.get_headers = {"Cookie": cookie, "Accept": "text/html"}
        self.htmx = {**self.get_headers, "HX-Request": "true"}
        self.post_headers = {
            **self.htmx,
            "X-CSRFToken": csrf_secret,
            "Content-Type": "application/x-www-form-urlencoded",
        }
        self.region = ""

    @property
    def region(self) -> str:
        return self._region

    @region.setter
    def region(self, html_text: str) -> None:
        """The region shown; what the poll loop reads of it is parsed once, here (a poll
        answered 204 leaves it as it is: the client's CPU stays small next to the site's)."""
        self._region = html_text
        version = _VERSION.search(html_text)
        self.version = version.group(1) if version else None
        self.picking = _CARD.search(html_text) is not None
        self.my_move = self.picking or 'id="turn-form"' in html_text
        steps = _STEPS.search(html_text)
        self.turn_steps = html.unescape(steps.group(1)) if steps else ""  # the turn's JSON

    @property
    def url(self) -> str:
        return f"/games/{self.game_id}/"

    def steps(self) -> str:
        return self.turn_steps

    async def post(self, kind: str, path: str, form: dict[str, str]) -> int | None:
        answer = await self.http.call(kind, "POST", path, self.post_headers, urlencode(form))
        if answer is None:
            return None
        status, headers, body = answer
        if status < 500 and body:
            self.region = body
        if status == 429:
            await self.pause(float(headers.get("retry-after") or 1))
        return status

    async def play(self) -> None:
        answer = await self.http.call("page", "GET", self.url, self.get_headers)
        if answer is None or answer[0] != 200:
            return
        self.region = answer[2]
        if 'action="/accounts/logout/"' not in self.region:  # the page took us for a visitor
            self.recorder.error(f"game {self.game_id}: the page did not know this person")
            return
        next_poll = time.monotonic() + self.pace.poll_seconds
        move_at: float | None = None
        while not self.stop.is_set():
            if self.version is None:
                return  # the game is over: the page stops polling
            if self.my_move and move_at is None:
                median = self.pace.pick_median if self.picking else self.pace.turn_median
                move_at = time.monotonic() + self.pace.think(self.rng, median)
            elif not self.my_move:
                move_at = None
            now = time.monotonic()
            if move_at is not None and move_at <= next_poll:
                if not await self.pause(move_at - now):
                    return
                await self.move()
                move_at = None
                next_poll = time.monotonic() + self.pace.poll_seconds  # a new region, a new timer
                continue
            if not await self.pause(next_poll - now):
                return
            query = f"version={self.version}"
            if self.steps():
                query += "&turn=" + quote(self.steps())
            polled = await self.http.call(
                "poll", "GET", f"/games/{self.game_id}/poll/?{query}", self.htmx
            )
            next_poll = time.monotonic() + self.pace.poll_seconds
            if polled is not None and polled[0] == 200:
                self.polled(polled[2])

    def polled(self, answer: str) -> None:
        """Show a poll's new answer as htmx does. The quiet answer (only moves hidden from
        this person since: ``games.views.quietpoll``) is the status bar and a few parts
        swapped out of band: the rest of the page, its forms with it, stays, and only the
        poller's version moves on. Taken for the whole region, it left a person whose
        turn was still to come without the turn's form, so it never moved, and its table
        waited for it to the end of the run (moves per second flat past 2,000 people)."""
        if _REGION not in answer:
            version = _VERSION.search(answer)
            if version is not None:
                self.version = version.group(1)
            return
        self.region = answer

    async def move(self) -> None:
        cards = _CARD.findall(self.region)
        key = _KEY.search(self.region)
        if cards and key:
            version = re.search(r'name="version" value="(\d+)"', self.region)
            form = {"card": self.rng.choice(cards), "key": key.group(1)}
            form["version"] = version.group(1) if version else ""
            status = await self.post("pick", f"/games/{self.game_id}/pick/", form)
            if status is not None and 200 <= status < 300:
                self.accepted("pick", form["key"])
            elif status is not None:
                self.refused("pick", status)
        elif 'id="turn-form"' in self.region:
            await self.build_and_submit()

    async def step(self, value: str) -> bool:
        path = f"/games/{self.game_id}/turn/"
        status = await self.post("step", path, {"steps": self.steps(), "step": value})
        if status is not None and status >= 400:
            self.refused("step", status)
        return status == 200

    async def build_and_submit(self) -> None:
        """An Action, no Power, one to three of the spaces the board offers, then submit;
        if the site refuses that turn, start over with Action D and submit that."""
        actions = _ACTION.findall(self.region)
        if not self.steps() and actions and not await self.step(self.rng.choice(actions)):
            return
        if 'id="timing-none"' in self.region and not await self.step("none"):
            return
        for _ in range(self.rng.randint(1, 3)):
            spaces = _SPACE.findall(self.region)
            if not spaces or not await self.pause(self.pace.think(self.rng, self.pace.step_median)):
                break
            if not await self.step(self.rng.choice(spaces)):
                break
        if await self.submit():
            return
        if (
            'id="turn-form"' in self.region
            and await self.step("reset")
            and await self.step("D")
            and await self.step("none")
        ):
            await self.submit()

    async def submit(self) -> bool:
        key = _KEY.search(self.region)
        if key is None or self.stop.is_set():
            return False
        form = {"steps": self.steps(), "key": key.group(1)}
        status = await self.post("submit", f"/games/{self.game_id}/turn/submit/", form)
        if status is not None and 200 <= status < 300:
            self.accepted("submit", form["key"])
            return True
        if status is not None:
            self.refused("submit", status)
        return False
