"""Simulated people at Verdant tables for the realistic load model (``capacity.py --kind
verdant``), on the page as ``people.PagePerson`` is on Evergreen's.

The same loop (open the page once, poll every 15 s, move when the page shows their move
after a log-normal think time); what differs is how Verdant's page is played:

* **The starting plant**: the page asks where it grows (one radio group, ``side``): the
  person thinks for a pick's time and sends it (one POST of ``games:move``, "start").
* **A turn**: after a turn's think time, the person answers the turn builder's questions
  one at a time as the page asks them, each answer a GET of the page with the turn so far
  (``?turn=``, as htmx sends it: the region comes back), some seconds apart ("step"),
  choosing at random among the answers offered; when the builder asks what to keep in
  storage, they keep nothing and end the turn (one POST of ``games:move``, "submit").

Clearing market tokens (two green thumbs) is never chosen. The API is not played: the
Verdant run's people all play on the page (``capacity.py`` says so in its output).
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote, unquote

from tests.benchmarks.people import PagePerson

_SIDE = re.compile(r'name="side" value="([^"]+)"')
_ANSWER = re.compile(r'type="radio" name="turn" value="([^"]+)"')
_FINISH = re.compile(r'type="hidden" name="turn" value="([^"]+)"')
_POLLED_TURN = re.compile(r"/poll/\?version=\d+&amp;turn=([^\"&]+)")
_VERSION = re.compile(r'name="version" value="(\d+)"')
_KEY = re.compile(r'name="key" value="([0-9a-f]+)"')
# A turn asks a handful of questions (a card and a token, where each goes, an item's use);
# past this many the person gives up and waits for the next poll.
MOST_STEPS = 16


class VerdantPagePerson(PagePerson):
    """A person with a Verdant game page open (``PagePerson``'s cookies and headers)."""

    @property
    def region(self) -> str:
        return self._region

    @region.setter
    def region(self, html_text: str) -> None:
        """What the loop reads of the region shown, parsed once: the poller's version and
        turn so far, and which of the page's forms asks for this person's move."""
        self._region = html_text
        version = re.search(r"/poll/\?version=(\d+)", html_text)
        self.version = version.group(1) if version else None
        turn = _POLLED_TURN.search(html_text)
        self.turn_steps = unquote(html.unescape(turn.group(1))) if turn else ""
        self.sides = _SIDE.findall(html_text)
        self.answers = _ANSWER.findall(html_text)
        finish = _FINISH.search(html_text)
        self.finish = html.unescape(finish.group(1)) if finish else None
        self.picking = bool(self.sides)  # a pick's think time for the starting plant
        self.my_move = bool(self.sides or self.answers or self.finish)

    def form(self, move_type: str) -> dict[str, str] | None:
        key, version = _KEY.search(self.region), _VERSION.search(self.region)
        if key is None or version is None:
            return None
        return {"type": move_type, "key": key.group(1), "version": version.group(1)}

    async def move(self) -> None:
        if self.sides:
            form = self.form("start")
            if form is not None:
                await self.send("start", {**form, "side": self.rng.choice(self.sides)})
            return
        for _ in range(MOST_STEPS):
            if self.finish is not None or not self.answers or self.stop.is_set():
                break
            if self.turn_steps and not await self.pause(
                self.pace.think(self.rng, self.pace.step_median)
            ):
                return
            answer = html.unescape(self.rng.choice(self.answers))
            path = f"/games/{self.game_id}/?turn={quote(answer)}"
            stepped = await self.http.call("step", "GET", path, self.htmx)
            if stepped is None or stepped[0] != 200:
                self.refused("step", stepped[0] if stepped else 0)
                return
            self.region = stepped[2]
        if self.finish is not None:
            form = self.form("turn")
            if form is not None:
                await self.send("submit", {**form, "turn": self.finish, "store": ""})

    async def send(self, kind: str, form: dict[str, str]) -> None:
        status = await self.post(kind, f"/games/{self.game_id}/move/", form)
        if status is not None and 200 <= status < 300:
            self.accepted(kind, form["key"])
        elif status is not None:
            self.refused(kind, status)
