"""The command line: ``evergreen-rules simulate|replay|score|demo|bench`` (the console script;
``python -m games.evergreen.rules`` is the same).

Every subcommand prints its result on stdout (JSON, except ``demo`` and ``bench``,
which are for people) and any error as one line on stderr with exit status 2. The
clock is read here only to report speed (``simulate``) — never inside the game.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Sequence
from functools import partial
from typing import Any

from tqdm import tqdm

from games.enginekit import cli as kit
from games.enginekit.cli import InputError
from games.enginekit.errors import RulesError
from games.enginekit.rng import bot_seed  # noqa: F401 - the CLI's own

from .bots import BOTS
from .demo import demo, season_sun
from .edition import Edition, load_edition
from .pieces import EMPTY, PIECE_CODES, PIECE_NAMES
from .planet import BIOMES, CREVICE, SUNS, Planet
from .record import GameRecord
from .scoring import biggest_forest, fertility_score, light_score
from .selfplay import make_bots, play_bot_game  # noqa: F401 - the CLI's own

PLACEABLE = tuple(name for name in PIECE_NAMES if name != "empty")
SCORE_KEYS = ("planet", "pieces", "sun", "fertility")
_KEY = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


# --- simulate ----------------------------------------------------------------------------


def simulate(
    players: int, games: int, seed: int, bot: str, progress: bool = True
) -> dict[str, Any]:
    """Play ``games`` bot games (game ``i`` seeded ``seed + i``) and summarise them."""
    edition = load_edition()
    tally = kit.Tally(players)
    moves = 0
    started = time.perf_counter()
    for i in tqdm(
        range(games), desc="simulate", unit="game", file=sys.stderr, disable=not progress
    ):
        state, played = play_bot_game(players, seed + i, bot)
        outcome = state.outcome
        assert outcome is not None
        tally.add(outcome.scores, outcome.winner, outcome.title)
        moves += len(played)
    elapsed = time.perf_counter() - started
    summary: dict[str, Any] = {
        "players": players,
        "games": games,
        "bot": bot,
        "seed": seed,
        "edition": edition.name,
        **tally.figures(),
        "moves_per_game": round(moves / games, 2),
        "games_per_second": round(games / elapsed, 2) if elapsed > 0 else None,
    }
    if players == 1:
        summary["titles"] = tally.title_rows(edition.solo_titles)
    return summary


# --- replay ------------------------------------------------------------------------------


def _read_record(path: str) -> tuple[GameRecord, dict[str, Any]]:
    data = kit.read_json(path)
    try:
        record = GameRecord.from_json(data)
    except RulesError as exc:
        raise InputError(f"{path}: {exc.message} [{exc.code}]") from exc
    except (AttributeError, TypeError, ValueError, KeyError) as exc:
        raise InputError(f"{path} is not a well-formed game record: {exc}") from exc
    return record, data


def replay(path: str) -> dict[str, Any]:
    """Replay the record at ``path`` (``-``: stdin), checking every move; return the scores.

    Raises ``InputError`` for a file that cannot be read, is not a record, holds an
    illegal move or states a result the replay does not reach.
    """
    record, data = _read_record(path)
    try:
        final = record.replay()
    except RulesError as exc:
        raise kit.refused(path, exc) from exc
    names = record.players
    outcome = final.outcome.to_json() if final.outcome else None
    kit.check_result(path, data.get("result"), outcome)
    seats = []
    for index, seat in enumerate(final.seats):
        seats.append(
            {
                "seat": index,
                "player": names[index],
                "setup_points": seat.setup_points,
                "seasons": [
                    {
                        "season": s.season,
                        "sun": season_sun(record.sun, s.season),
                        "light": s.light,
                        "forest": s.forest,
                        "bud": s.bud,
                        "total": s.total,
                    }
                    for s in seat.seasons
                ],
                "fertility": seat.fertility,
                "total": seat.score,
            }
        )
    if outcome is not None:
        outcome["ranking_players"] = kit.named_ranking(outcome, names)
        outcome["winner_player"] = names[outcome["winner"]]
    return {
        "edition": record.edition,
        "seed": record.seed,
        "moves": len(record.moves),
        "over": final.is_over,
        "seats": seats,
        "outcome": outcome,
    }


# --- score -------------------------------------------------------------------------------


def _space_key(key: str, planet: Planet) -> int:
    match = _KEY.match(key)
    if not match:
        raise InputError(f'piece key {key!r} is not "row,column" (two integers, e.g. "0,3")')
    row, col = int(match.group(1)), int(match.group(2))
    if not planet.on_grid((row, col)):
        raise InputError(
            f"piece at {row},{col} is outside the {planet.rows}x{planet.cols} planet grid"
        )
    i = planet.index((row, col))
    if planet.chars[i] == CREVICE:
        raise InputError(f"piece at {row},{col} is on a crevice: nothing can stand there")
    if planet.biomes[i] is None:
        raise InputError(f"piece at {row},{col} is off the planet ('.')")
    return i


def score_position(data: Any, edition: Edition | None = None) -> dict[str, int]:
    """Light, Biggest Forest and Fertility of one planet described in JSON.

    ``data`` is ``{"planet": [rows], "pieces": {"r,c": piece}, "sun": "N",
    "fertility": {biome: n}}`` (``pieces`` and ``fertility`` optional). Shadow lengths
    and Light points come from ``edition`` (default: the standard edition). Raises
    ``InputError`` with a readable message on anything malformed.
    """
    ed = edition or load_edition()
    if not isinstance(data, dict):
        raise InputError('the input must be a JSON object such as {"planet": [...], "sun": "N"}')
    unknown = sorted(set(data) - set(SCORE_KEYS))
    if unknown:
        raise InputError(f"unknown field(s) {', '.join(unknown)}; use {', '.join(SCORE_KEYS)}")
    rows = data.get("planet")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise InputError('"planet" must be a list of strings, one per row, e.g. ["s s # s"]')
    try:
        planet = Planet.parse(rows)
    except RulesError as exc:
        raise InputError(f"bad planet: {exc.message}") from exc
    sun = data.get("sun")
    if sun not in SUNS:
        raise InputError(f'"sun" must be one of {", ".join(SUNS)}, not {sun!r}')
    pieces = data.get("pieces", {})
    if not isinstance(pieces, dict):
        raise InputError('"pieces" must be an object such as {"0,1": "small"}')
    board = [EMPTY] * planet.size
    for key, name in pieces.items():
        if name not in PLACEABLE:
            raise InputError(f"unknown piece {name!r} at {key}; use {', '.join(PLACEABLE)}")
        i = _space_key(key, planet)
        if board[i] != EMPTY:
            raise InputError(f"space {key.strip()} is given twice")
        board[i] = PIECE_CODES[name]
    fertility = data.get("fertility", {})
    if not isinstance(fertility, dict):
        raise InputError('"fertility" must be an object such as {"snow": 3}')
    for biome, value in fertility.items():
        if biome not in BIOMES:
            raise InputError(f"unknown biome {biome!r} in fertility; use {', '.join(BIOMES)}")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InputError(f"fertility of {biome} must be a non-negative integer, not {value!r}")
    return {
        "light": light_score(planet, board, sun, ed),
        "forest": biggest_forest(planet, board),
        "fertility": fertility_score(planet, board, fertility),
    }


# --- argument parsing --------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evergreen-rules", description="The Evergreen rules engine."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    bots = sorted(BOTS)

    p = sub.add_parser("simulate", help="play many games between bots; print a JSON summary")
    p.add_argument("--players", type=int, choices=range(1, 5), required=True)
    p.add_argument("--games", type=kit.positive, required=True)
    p.add_argument("--seed", type=int, required=True, help="game i uses seed SEED+i")
    p.add_argument("--bot", choices=bots, default="random")
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = sub.add_parser("replay", help="replay a game record (JSON); print the scores as JSON")
    p.add_argument("file", help="the record file, or - for stdin")

    sub.add_parser(
        "score",
        help="score one planet read as JSON on stdin",
        description='Read {"planet": ["s s # s", ...], "pieces": {"0,1": "small"}, "sun": "N", '
        '"fertility": {"snow": 3}} on stdin; print {"light": L, "forest": F, "fertility": P}.',
    )

    p = sub.add_parser("demo", help="play one game between bots and print it for people")
    p.add_argument("--players", type=int, choices=range(1, 5), required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bot", choices=bots, default="greedy")

    p = sub.add_parser("bench", help="measure the engine against its speed targets")
    p.add_argument("--quick", action="store_true", help="fewer repetitions (for the tests)")
    p.add_argument(
        "--strong-games",
        type=int,
        default=None,
        help="solo and 4-player games of the strong player (default 200; 2 with --quick; 0: none)",
    )
    p.add_argument(
        "--workers",
        type=kit.positive,
        default=min(2, os.cpu_count() or 1),
        help="processes playing those games (the figures do not depend on it)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 on bad input)."""
    args = build_parser().parse_args(argv)
    return kit.run(partial(_command, args))


def _command(args: argparse.Namespace) -> None:
    command = str(args.command)
    if command == "simulate":
        summary = simulate(
            int(args.players), int(args.games), int(args.seed), str(args.bot), not args.quiet
        )
        print(json.dumps(summary))
    elif command == "replay":
        print(json.dumps(replay(str(args.file)), indent=2))
    elif command == "score":
        print(json.dumps(score_position(kit.read_json_input(sys.stdin))))
    elif command == "demo":
        demo(int(args.players), int(args.seed), str(args.bot), sys.stdout)
    else:
        from .bench import run as bench

        bench(
            quick=bool(args.quick),
            out=sys.stdout,
            strong_games=None if args.strong_games is None else int(args.strong_games),
            workers=int(args.workers),
        )
