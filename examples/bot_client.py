#!/usr/bin/env python3
"""A small bot that plays Evergreen or Verdant through the REST API, with the standard
library only.

It logs in (or uses a token), creates or joins a game, then loops: it reads its view of
the game. In Evergreen, when it must pick it takes the first card of the pool; when it
must play a turn it asks the server for the legal spaces and builds a simple legal turn
(Action B to grow two trees when it can, else Action A planting up to three Sprouts, else
Action D). In Verdant it places its starting plant above its room, then each turn asks
the server which card + token pairs are on offer and where each card may go, and takes
the first pair that has a cell (``GET /api/games/{id}/choices/``). It submits every move with an ``Idempotency-Key`` (so a retry after a network error never
plays twice) and the version it read (so a move chosen on an old view is refused, and it
looks again). When the game is over it prints the final scores.

Examples::

    python examples/bot_client.py --email alice@example.org --password ... --create 2 --computer 1
    python examples/bot_client.py --token 0123abcd... --game 42
    python examples/bot_client.py --token 0123abcd... --create 2 --computer 1 --kind verdant

See examples/README.md and the API documentation at /api/docs/.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any, TextIO

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


class ApiError(Exception):
    """A refusal from the server: the HTTP status and the body's ``code`` and ``message``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class Client:
    """The Evergreen REST API, one method per endpoint."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 30) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        query: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        retries: int = 0,
    ) -> Any:
        """Send one request and return the decoded JSON; raises ``ApiError`` on a refusal.

        With ``retries``, a request that failed on the network is sent again as it was
        (only safe for reads and for writes carrying an Idempotency-Key).
        """
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        all_headers = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        if self.token:
            all_headers["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(url, data=data, headers=all_headers, method=method)
        for attempt in range(retries + 1):
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as exc:
                raise _api_error(exc) from None
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if attempt == retries:
                    raise
                time.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    def login(self, email: str, password: str) -> str:
        self.token = None
        self.token = self.request("POST", "/api/token/", {"email": email, "password": password})[
            "token"
        ]
        return self.token

    def create_game(
        self, players: int, computer_seats: int = 0, bot: str = "greedy", kind: str | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"players": players, "computer_seats": computer_seats, "bot": bot}
        if kind:
            body["game"] = kind
        return self.request("POST", "/api/games/", body)  # type: ignore[no-any-return]

    def join(self, game_id: int) -> dict[str, Any]:
        return self.request("POST", f"/api/games/{game_id}/join/", {})  # type: ignore[no-any-return]

    def game(self, game_id: int) -> dict[str, Any]:
        return self.request("GET", f"/api/games/{game_id}/", retries=2)  # type: ignore[no-any-return]

    def game_since(self, game_id: int, version: int) -> dict[str, Any] | None:
        """The game if it has moved since ``version``; else None (the server's 204 costs it
        a fraction of a whole view: poll with this)."""
        query = {"since": str(version)}
        return self.request("GET", f"/api/games/{game_id}/", query=query, retries=2)  # type: ignore[no-any-return]

    def targets(
        self, game_id: int, effect: str, partial: dict[str, Any] | None = None
    ) -> list[list[int]]:
        query = {"effect": effect}
        if partial is not None:
            query["partial"] = json.dumps(partial)
        return self.request("GET", f"/api/games/{game_id}/targets/", query=query, retries=2)  # type: ignore[no-any-return]

    def choices(self, game_id: int, ask: str, **params: str) -> Any:
        """Verdant: what we may choose now (``ask``: selections, cells, actions, ...)."""
        query = {"ask": ask, **params}
        return self.request("GET", f"/api/games/{game_id}/choices/", query=query, retries=2)

    def move(
        self, game_id: int, move: dict[str, Any], version: int | None = None
    ) -> dict[str, Any]:
        """Any game's move as the game records it (the generic move endpoint)."""
        return self._submit(game_id, "move", move, version)

    def pick(self, game_id: int, card: str, version: int | None = None) -> dict[str, Any]:
        return self._submit(game_id, "pick", {"card": card}, version)

    def turn(
        self, game_id: int, turn: dict[str, Any], version: int | None = None
    ) -> dict[str, Any]:
        return self._submit(game_id, "turn", turn, version)

    def _submit(
        self, game_id: int, kind: str, body: dict[str, Any], version: int | None
    ) -> dict[str, Any]:
        headers = {"Idempotency-Key": uuid.uuid4().hex}
        if version is not None:
            headers["If-Match"] = str(version)
        return self.request(  # type: ignore[no-any-return]
            "POST", f"/api/games/{game_id}/{kind}/", body, headers=headers, retries=2
        )


def _api_error(exc: urllib.error.HTTPError) -> ApiError:
    try:
        body = json.loads(exc.read() or b"{}")
    except ValueError:
        body = {}
    if not isinstance(body, dict):
        body = {}
    return ApiError(exc.code, str(body.get("code", "http_error")), str(body.get("message", exc)))


# --- Strategy ---------------------------------------------------------------------------


def choose_card(view: dict[str, Any]) -> str:
    """The first card of the drafting pool."""
    return str(view["pool"][0])


def build_turn(client: Client, game_id: int) -> dict[str, Any]:
    """A simple legal turn, asking the server where each effect may go."""
    grow_first = client.targets(game_id, "grow", {"action": "B"})
    if len(grow_first) >= 2:
        effects = [{"grow": grow_first[0]}]
        second = client.targets(game_id, "grow", {"action": "B", "effects": effects})
        if second:
            effects.append({"grow": second[0]})
        return {"action": "B", "effects": effects, "power": None}
    effects = []
    for _ in range(3):
        spaces = client.targets(game_id, "plant", {"action": "A", "effects": effects})
        if not spaces:
            break
        effects.append({"plant": spaces[0]})
    if effects:
        return {"action": "A", "effects": effects, "power": None}
    for effect in ("grow", "plant"):
        spaces = client.targets(game_id, effect, {"action": "D"})
        if spaces:
            return {"action": "D", "effects": [{effect: spaces[0]}], "power": None}
    return {"action": "D", "effects": [], "power": None}


def verdant_move(client: Client, game_id: int, view: dict[str, Any]) -> dict[str, Any]:
    """A legal Verdant move: the starting plant above the room; then the first card +
    token pair on offer whose card has a cell, on its first cell, with no item used."""
    if view["phase"] == "start":
        return {"type": "start", "side": "top"}
    for pair in client.choices(game_id, "selections"):
        cells = client.choices(game_id, "cells", take=pair["take"])
        if cells:
            return {
                "type": "turn",
                "take": pair["take"],
                "column": pair["column"],
                "token": pair["token"],
                "at": cells[0],
                "free": False,
                "steps": [],
                "store": None,
            }
    raise RuntimeError("no card on offer fits anywhere in the home")


def play_one_move(client: Client, game: dict[str, Any]) -> dict[str, Any] | None:
    """Make the move ``game`` waits for from us; None if it waits for no move of ours.

    A 409 (someone moved since we looked) is not an error: look again and retry.
    """
    if not game["my_move"]:
        return None
    view, game_id = game["view"], game["id"]
    try:
        if view.get("game") == "verdant":
            return client.move(game_id, verdant_move(client, game_id, view), game["version"])
        if view["phase"] == "draft":
            return client.pick(game_id, choose_card(view), game["version"])
        return client.turn(game_id, build_turn(client, game_id), game["version"])
    except ApiError as exc:
        if exc.status == 409:
            return None
        raise


def play(
    client: Client,
    game_id: int,
    *,
    poll: float = 5.0,
    timeout: float | None = None,
    log: Callable[[str], None] = lambda _message: None,
) -> dict[str, Any]:
    """Play ``game_id`` until it is over; returns the final game. Raises ``TimeoutError``."""
    deadline = None if timeout is None else time.monotonic() + timeout
    game = client.game(game_id)
    while True:
        if game["status"] in ("finished", "aborted"):
            return game
        result = play_one_move(client, game)
        if result is not None:
            move = result["move"]
            log(f"move {move['number']}: {json.dumps(move['payload'])}")
            game = client.game(game_id)
            continue
        if deadline is not None and time.monotonic() > deadline:
            raise TimeoutError(f"game {game_id} is not over after {timeout} seconds")
        time.sleep(poll)
        game = client.game_since(game_id, game["version"]) or game  # None: nothing moved


def scores_text(game: dict[str, Any]) -> str:
    lines = [f"Game {game['id']}: {game['status']}"]
    view = game.get("view") or {}
    outcome = view.get("outcome") or {}
    winner = outcome.get("winner")
    for seat in game["seats"]:
        mark = "  (winner)" if seat["position"] == winner else ""
        you = " [you]" if seat["is_you"] else ""
        lines.append(f"  seat {seat['position']}: {seat['name']}{you}: {seat['score']}{mark}")
    if outcome.get("title"):
        lines.append(f"  title: {outcome['title']}")
    return "\n".join(lines)


# --- Command line -----------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Play Evergreen or Verdant through the REST API.")
    parser.add_argument("--base-url", default=os.environ.get("EVERGREEN_URL", DEFAULT_BASE_URL))
    parser.add_argument("--email", help="log in with this e-mail address and --password")
    parser.add_argument("--password", help="the account's password")
    parser.add_argument(
        "--token",
        default=os.environ.get("EVERGREEN_TOKEN"),
        help="an API token instead of e-mail and password (or set EVERGREEN_TOKEN)",
    )
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", type=int, help="play this game (joining it if it is open)")
    which.add_argument("--create", type=int, metavar="N", help="create a game for N players")
    parser.add_argument("--computer", type=int, default=0, help="computer seats (with --create)")
    parser.add_argument(
        "--kind",
        default=None,
        choices=["evergreen", "verdant"],
        help="the game to create (with --create; the site's first game by default)",
    )
    parser.add_argument("--bot", default="greedy", choices=["greedy", "random"])
    parser.add_argument("--poll", type=float, default=5.0, help="seconds between looks")
    parser.add_argument("--timeout", type=float, default=None, help="give up after seconds")
    parser.add_argument("--quiet", action="store_true", help="print only the final scores")
    args = parser.parse_args(argv)
    if not args.token and not (args.email and args.password):
        parser.error("give --token, or --email and --password")
    return args


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    args = parse_args(argv)
    client = Client(args.base_url, args.token)

    def say(message: str) -> None:
        if not args.quiet:
            print(message, file=out, flush=True)

    try:
        if not args.token:
            client.login(args.email, args.password)
        if args.create is not None:
            game = client.create_game(args.create, args.computer, args.bot, args.kind)
            say(f"created game {game['id']}")
        else:
            game = client.game(args.game)
            if game["my_seat"] is None:
                game = client.join(args.game)
                say(f"joined game {game['id']} in seat {game['my_seat']}")
        if game["invite_url"] and game["status"] == "open":
            say(f"invite other players with {game['invite_url']}")
        final = play(client, game["id"], poll=args.poll, timeout=args.timeout, log=say)
    except ApiError as exc:
        print(f"error: {exc.message} ({exc.status} {exc.code})", file=sys.stderr)
        return 1
    except (urllib.error.URLError, TimeoutError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(scores_text(final), file=out, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
