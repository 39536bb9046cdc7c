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
from pathlib import Path
from typing import Any, TextIO

from tqdm import tqdm

from .bots import BOTS
from .demo import demo, season_sun
from .edition import Edition, load_edition
from .errors import RulesError
from .pieces import EMPTY, PIECE_CODES, PIECE_NAMES
from .planet import BIOMES, CREVICE, SUNS, Planet
from .record import GameRecord
from .scoring import biggest_forest, fertility_score, light_score
from .selfplay import bot_seed, make_bots, play_bot_game  # noqa: F401 - the CLI's own

EXIT_BAD_INPUT = 2
PLACEABLE = tuple(name for name in PIECE_NAMES if name != "empty")
SCORE_KEYS = ("planet", "pieces", "sun", "fertility")
_KEY = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*$")


class InputError(Exception):
    """Input the command line cannot use; the message is printed as is."""


# --- simulate ----------------------------------------------------------------------------


def simulate(
    players: int, games: int, seed: int, bot: str, progress: bool = True
) -> dict[str, Any]:
    """Play ``games`` bot games (game ``i`` seeded ``seed + i``) and summarise them."""
    edition = load_edition()
    scores: list[int] = []
    winning: list[int] = []
    wins = [0] * players
    moves = 0
    titles = dict.fromkeys((name for _, name in edition.solo_titles), 0)
    started = time.perf_counter()
    for i in tqdm(
        range(games), desc="simulate", unit="game", file=sys.stderr, disable=not progress
    ):
        state, played = play_bot_game(players, seed + i, bot)
        outcome = state.outcome
        assert outcome is not None
        scores.extend(outcome.scores)
        winning.append(outcome.scores[outcome.winner])
        wins[outcome.winner] += 1
        moves += len(played)
        if outcome.title is not None:
            titles[outcome.title] += 1
    elapsed = time.perf_counter() - started
    summary: dict[str, Any] = {
        "players": players,
        "games": games,
        "bot": bot,
        "seed": seed,
        "edition": edition.name,
        "mean_score": round(sum(scores) / len(scores), 2),
        "min_score": min(scores),
        "max_score": max(scores),
        "mean_winning_score": round(sum(winning) / len(winning), 2),
        "wins_per_seat": wins,
        "moves_per_game": round(moves / games, 2),
        "games_per_second": round(games / elapsed, 2) if elapsed > 0 else None,
    }
    if players == 1:
        summary["titles"] = [
            {"title": name, "from_score": threshold, "games": titles[name]}
            for threshold, name in edition.solo_titles
        ]
    return summary


# --- replay ------------------------------------------------------------------------------


def _read_record(path: str) -> tuple[GameRecord, dict[str, Any]]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text: {exc}") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON: {exc}") from exc
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
        cause = exc.__cause__
        code = f"{exc.code}: {cause.code}" if isinstance(cause, RulesError) else exc.code
        raise InputError(f"{path}: {exc.message} [{code}]") from exc
    names = record.players
    outcome = final.outcome.to_json() if final.outcome else None
    stated = data.get("result")
    if stated is not None and stated != outcome:
        raise InputError(
            f"{path}: the record's result {json.dumps(stated)} does not match the replay "
            f"({json.dumps(outcome)})."
        )
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
        outcome["ranking_players"] = [names[s] for s in outcome["ranking"]]
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


def _score_stdin(stream: TextIO) -> dict[str, int]:
    try:
        data = json.loads(stream.read())
    except json.JSONDecodeError as exc:
        raise InputError(f"the input is not valid JSON: {exc}") from exc
    return score_position(data)


# --- argument parsing --------------------------------------------------------------------


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="evergreen-rules", description="The Evergreen rules engine."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    bots = sorted(BOTS)

    p = sub.add_parser("simulate", help="play many games between bots; print a JSON summary")
    p.add_argument("--players", type=int, choices=range(1, 5), required=True)
    p.add_argument("--games", type=_positive, required=True)
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
        type=_positive,
        default=min(2, os.cpu_count() or 1),
        help="processes playing those games (the figures do not depend on it)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 on bad input)."""
    args = build_parser().parse_args(argv)
    command = str(args.command)
    try:
        if command == "simulate":
            summary = simulate(
                int(args.players), int(args.games), int(args.seed), str(args.bot), not args.quiet
            )
            print(json.dumps(summary))
        elif command == "replay":
            print(json.dumps(replay(str(args.file)), indent=2))
        elif command == "score":
            print(json.dumps(_score_stdin(sys.stdin)))
        elif command == "demo":
            demo(int(args.players), int(args.seed), str(args.bot), sys.stdout)
        else:
            from .bench import run

            run(
                quick=bool(args.quick),
                out=sys.stdout,
                strong_games=None if args.strong_games is None else int(args.strong_games),
                workers=int(args.workers),
            )
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader went away (``... | head``): stop quietly, without a second error at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
