"""The web CPU of a Verdant game page, in one process, beside the minimal view and Evergreen's.

``python -m tests.benchmarks.verdantcost [--requests N] [--players N] [--profile]``:
``rendercost``'s set-up (bench_web's scratch database made again, a private Redis as the
cache, the production settings), and Verdant tables of ``--players`` people (4) played
by the greedy bot through the services as their seated people. The Django test client
sends the minimal view, Evergreen's page rendered afresh and its region after a move (the
same rows as ``rendercost``'s, for the ratio between the two games in one run), then
Verdant's: a player's page rendered afresh half-way through the game, a spectator's, the
first render after a move (a real move of the player before, not counted), the region
the page's poller fetches after a move (for the first player to look, and for the next,
who finds what the first drew and told), and the first look at a table played on to
half-way before anyone looked at it, and a step of the turn builder (the region asked
with the turn's first answer, its cells offered; the capacity run's "step"). It prints
the CPU time per request (warm) and each one's multiple of the minimal view: what a
Verdant club night (``make load ARGS="--realistic --kind verdant"``) asks of the web
processes per request, without the run's noise.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import re
import time
from collections.abc import Callable
from typing import Any

from tests.benchmarks.oneprocess import bench_process, show_profile
from tests.benchmarks.rendercost import OUR_CODE, cpu_ms, session_of, spectator_session

HALF_WAY = 12  # turns: the market and homes half-grown, the log some fifty lines long
EVERGREEN_ROWS = ("minimal view (GET)", "game page rendered afresh", "region after a move (poll)")


def play_verdant(game_id: int, *, until_turn: int | None = None, moves: int | None = None) -> bool:
    """Play Verdant game ``game_id`` on by the greedy bot as its seated people: to turn
    ``until_turn``, or ``moves`` moves. False once it has ended."""
    from games.verdant import rules
    from tests.benchmarks.bench_web import play_on

    bot = rules.make_bot("greedy", seed=game_id)
    reached = None if until_turn is None else (lambda state: state.turn >= until_turn)
    return play_on(game_id, moves=moves, reached=reached, bot=bot)


class VerdantTables:
    """Verdant games of ``players`` new users, made and joined through the services and
    played on to ``HALF_WAY``; ``next_table`` makes the next one (its users' sessions)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.made = 0

    def next_table(self) -> tuple[int, list[str]]:
        from django.contrib.auth import get_user_model

        from games import services

        self.made += 1
        users = [
            get_user_model().objects.create_user(f"verdant{self.made}-{k}")
            for k in range(self.players)
        ]
        game = services.create_game(users[0], kind="verdant", players=self.players)
        for user in users[1:]:
            services.join_game(game.pk, user)
        play_verdant(game.pk, until_turn=HALF_WAY)
        return int(game.pk), [session_of(user) for user in users]


def verdant_requests(players: int) -> dict[str, tuple[Callable[[], Any], Any]]:
    from django.conf import settings
    from django.test import Client

    from games.models import Game

    tables = VerdantTables(players)
    game_id, sessions = tables.next_table()
    player, spectator, newcomer, second, builder = (Client() for _ in range(5))
    player.cookies[settings.SESSION_COOKIE_NAME] = sessions[0]
    spectator.cookies[settings.SESSION_COOKIE_NAME] = spectator_session()
    page = f"/games/{game_id}/"
    current: dict[str, Any] = {"game": game_id, "sessions": sessions}
    after: dict[str, str] = {}

    def ok(response: Any) -> Any:
        for client in (player, spectator, newcomer, builder, second):  # never from the page cache
            client.cookies.pop(settings.CSRF_COOKIE_NAME, None)
        assert response.status_code == 200, (response.status_code, response.content[:300])
        return response

    def move() -> int:
        """A move made in the moving game (a new table once it has ended): its version
        before the move."""
        shown = Game.objects.get(pk=current["game"]).version
        while not play_verdant(current["game"], moves=1):
            current["game"], current["sessions"] = tables.next_table()
            shown = Game.objects.get(pk=current["game"]).version
        player.cookies[settings.SESSION_COOKIE_NAME] = current["sessions"][0]
        return shown

    def moved() -> None:
        move()
        after["page"] = f"/games/{current['game']}/"

    def moved_seen() -> None:
        shown = move()
        after["poll"] = f"/games/{current['game']}/poll/?version={shown}"

    def seen_by_one() -> None:
        """A move, whose region the first player's poll fetched (not counted): the next
        player's poll finds what the first drew and told kept."""
        moved_seen()
        ok(player.get(after["poll"], headers={"HX-Request": "true"}))
        second.cookies[settings.SESSION_COOKIE_NAME] = current["sessions"][1]

    def sit_down() -> None:
        late_game, late_sessions = tables.next_table()
        newcomer.cookies.clear()
        newcomer.cookies[settings.SESSION_COOKIE_NAME] = late_sessions[0]
        after["late"] = f"/games/{late_game}/"

    def still() -> None:
        player.cookies[settings.SESSION_COOKIE_NAME] = sessions[0]

    def to_build() -> None:
        """The player to move at a table half-way, their turn's first answer (a card and a
        token) given: the builder then offers the cells of their home. One table for all
        (a step changes nothing): what its page shows is kept, as a person's steps find it."""
        from games.verdant import rules

        if "step" in after:
            return
        build_game, build_sessions = tables.next_table()
        state = Game.objects.get(pk=build_game).engine_state()
        pick = rules.legal_selections(state, state.to_play, rules.load_edition())[0]
        builder.cookies.clear()
        builder.cookies[settings.SESSION_COOKIE_NAME] = build_sessions[state.to_play]
        after["step"] = f"/games/{build_game}/?turn={pick.take}-{pick.column}-{pick.token}"

    return {
        f"Verdant {players}p page rendered afresh": (lambda: ok(player.get(page)), still),
        "the same for a spectator": (lambda: ok(spectator.get(page)), None),
        "first render after a move": (lambda: ok(player.get(after["page"])), moved),
        "region after a move (poll)": (
            lambda: ok(player.get(after["poll"], headers={"HX-Request": "true"})),
            moved_seen,
        ),
        "the next player's region after a move (poll)": (
            lambda: ok(second.get(after["poll"], headers={"HX-Request": "true"})),
            seen_by_one,
        ),
        "first look: a table played ahead": (lambda: ok(newcomer.get(after["late"])), sit_down),
        "a turn builder step (GET ?turn=, htmx)": (
            lambda: ok(builder.get(after["step"], headers={"HX-Request": "true"})),
            to_build,
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--only", default="", help="a regex: only the Verdant rows it finds")
    args = parser.parse_args()
    with bench_process("verdantcost", broker="memory://"):
        from tests.benchmarks import bench_web, rendercost

        data = bench_web.prepare_games(0)
        evergreen = rendercost.requests(data)
        rows = {f"Evergreen: {name}": evergreen[name] for name in EVERGREEN_ROWS}
        rows |= {
            name: row
            for name, row in verdant_requests(args.players).items()
            if re.search(args.only, name)
        }
        print(f"web CPU per request, in one process (ms, mean of {args.requests}, warm):")
        minimal = None
        for name, (call, between) in rows.items():
            ms = cpu_ms(call, args.requests, between)
            minimal = minimal or ms
            print(f"  {name:44} {ms:7.2f}  {ms / minimal:5.1f}x", flush=True)
            if args.profile and not name.startswith("Evergreen"):
                profiler = cProfile.Profile(time.process_time)
                for _ in range(30):
                    if between is not None:
                        between()
                    profiler.runcall(call)
                slug = re.sub(r"\W+", "-", name).strip("-")
                show_profile(
                    profiler, os.environ.get("PROFILE_FILTER", OUR_CODE), 40, suffix=f".{slug}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
