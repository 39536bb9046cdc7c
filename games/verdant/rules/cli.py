"""The command line: ``verdant-rules score|simulate|replay|bench|demo``.

Every subcommand prints its result on stdout (JSON, except ``demo`` and ``bench``,
which are for people) and any error as one line on stderr with exit status 2. The
clock is read here only to report speed — never inside the game.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from functools import partial
from typing import Any, TextIO

from games.enginekit import cli as kit
from games.enginekit.cli import InputError
from games.enginekit.errors import RulesError
from games.enginekit.rng import bot_seed  # noqa: F401 - the CLI's own

from .bots import BOTS
from .contract import ContractError, score_document
from .edition import load_edition
from .engine import MAX_PLAYERS, apply, new_game, score_seat
from .moves import Move, Start, Turn, Wipe
from .record import GameRecord
from .selfplay import make_bots, play_bot_game
from .state import VARIANTS, GameState

# --- simulate ----------------------------------------------------------------------------


def simulate(
    players: int, games: int, seed: int, bot: str, *, variant: str = "standard", goals: bool = False
) -> dict[str, Any]:
    """Play ``games`` bot games (game ``i`` seeded ``seed + i``) and summarise them."""
    edition = load_edition()
    tally = kit.Tally(players)
    started = time.perf_counter()
    for i in range(games):
        state, _ = play_bot_game(players, seed + i, bot, variant=variant, goals=goals)
        outcome = state.outcome
        assert outcome is not None
        tally.add(outcome.scores, outcome.winner, outcome.title)
    elapsed = time.perf_counter() - started
    summary: dict[str, Any] = {
        "players": players,
        "games": games,
        "bot": bot,
        "seed": seed,
        "edition": edition.name,
        "variant": variant,
        "goals": goals,
        **tally.figures(),
        "games_per_second": round(games / elapsed, 2) if elapsed > 0 else None,
    }
    if players == 1:
        summary["titles"] = [
            {"title": None, "from_score": 0, "games": tally.titles[None]},
            *tally.title_rows(edition.solo_titles),
        ]
    return summary


# --- replay ------------------------------------------------------------------------------


def replay(path: str) -> dict[str, Any]:
    """Replay the record at ``path`` (``-``: stdin), checking every move; return the scores.

    Raises ``InputError`` for a file that cannot be read, is not a record, holds an
    illegal move or states a result the replay does not reach.
    """
    data = kit.read_json(path)
    try:
        record = GameRecord.from_json(data)
        final = record.replay()
    except RulesError as exc:
        raise kit.refused(path, exc) from exc
    outcome = final.outcome.to_json() if final.outcome else None
    kit.check_result(path, data.get("result"), outcome)
    names = record.players
    seats = [
        {
            "seat": index,
            "player": names[index],
            "green_thumbs": seat.thumbs,
            **score_seat(final, index).to_json(),
        }
        for index, seat in enumerate(final.seats)
    ]
    if outcome is not None:
        outcome["ranking_players"] = kit.named_ranking(outcome, names)
        outcome["winner_players"] = [names[s] for s in outcome["winners"]]
    return {
        "edition": record.edition,
        "seed": record.seed,
        "variant": record.variant,
        "goals": list(final.goals),
        "moves": len(record.moves),
        "over": final.is_over,
        "seats": seats,
        "outcome": outcome,
    }


# --- demo --------------------------------------------------------------------------------


def _item_words(kind: str) -> str:
    ed = load_edition()
    name = ed.items[kind].name.lower() if ed.is_item(kind) else kind.replace("_", " ")
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def describe(move: Move, before: GameState) -> str:
    """A move in words, for people."""
    ed = load_edition(before.edition)
    if isinstance(move, Start):
        return f"puts the starting plant on the {move.side} of the starting room"
    if isinstance(move, Wipe):
        return f"wipes the tokens of columns {', '.join(str(c) for c in move.columns)} (action A)"
    row = before.market_plants if move.take == "plant" else before.market_rooms
    card = row[move.column] or "?"
    name = ed.plants[card].name if card in ed.plants else f"a {ed.rooms[card].type} room"
    token = _item_words(before.market_tokens[move.token] or "?")
    words = f"takes {name} and {token}" + (" (action B)" if move.free else "")
    parts = [f"{words}, placed at {move.at[0]},{move.at[1]}"]
    for step in move.steps:
        cells = " ".join(f"{r},{c}" for r, c in step.at)
        what = "green thumb" if step.step == "thumb" else _item_words(step.item or "?")
        parts.append(f"{what} on {cells}")
    if move.store:
        parts.append(f"stores {_item_words(move.store)}")
    return "; ".join(parts)


def demo(players: int, seed: int, bot: str, out: TextIO, *, variant: str, goals: bool) -> None:
    """Play one game between bots and print it for people: every move, scores, the title."""
    ed = load_edition()
    bots = make_bots(bot, players, seed)
    state = new_game(players, seed, variant=variant, goals=goals)
    print("Verdant: a bot-vs-bot game on the command line.", file=out)
    print(f"{players} player(s), {bot} bots, seed {seed}, {variant} variant.", file=out)
    for goal in state.goals:
        print(f"  Goal {goal}: {ed.goals[goal].name}: {ed.goals[goal].text}", file=out)
    print(f"Bot {state.first + 1} starts.", file=out)
    while not state.is_over:
        seat = state.awaiting[0]
        move = bots[seat].choose(state, seat)
        line = describe(move, state)
        if isinstance(move, Turn):
            line = f"round {state.round:2d}: {line}"
        state = apply(state, move)
        print(f"  Bot {seat + 1} {line}", file=out)
    outcome = state.outcome
    assert outcome is not None
    print("\nFinal scores", file=out)
    for place, index in enumerate(outcome.ranking, start=1):
        sheet = score_seat(state, index).to_json()
        detail = ", ".join(f"{k} {v}" for k, v in sheet.items() if k != "total")
        print(f"  {place}. Bot {index + 1}: {sheet['total']} ({detail})", file=out)
    if state.solo:
        print(f"Solo title: {outcome.title or 'none (below 60)'}", file=out)
    else:
        print(f"Winner: {', '.join(f'Bot {w + 1}' for w in outcome.winners)}", file=out)


# --- argument parsing --------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="verdant-rules", description="The Verdant rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    bots = sorted(BOTS)
    counts = range(1, MAX_PLAYERS + 1)

    sub.add_parser(
        "score",
        help="score one finished home read as JSON on stdin (the edition's score contract)",
        description='Read {"home": {"r,c": card}, "verdancy": {...}, "completed": [...], '
        '"pots": [...], "items": {...}, "green_thumbs": n, "goals": [...], "variant": ...} '
        "on stdin; print the score breakdown as JSON.",
    )

    p = sub.add_parser("simulate", help="play many games between bots; print a JSON summary")
    p.add_argument("--players", type=int, choices=counts, required=True)
    p.add_argument("--games", type=kit.positive, required=True)
    p.add_argument("--seed", type=int, required=True, help="game i uses seed SEED+i")
    p.add_argument("--bot", choices=bots, default="random")
    p.add_argument("--variant", choices=VARIANTS, default="standard")
    p.add_argument("--goals", action="store_true", help="the advanced set-up's goal cards")

    p = sub.add_parser("replay", help="replay a game record (JSON); print the final scores")
    p.add_argument("file", help="the record file, or - for stdin")

    sub.add_parser("bench", help="measure the engine against its speed targets").add_argument(
        "--quick", action="store_true", help="fewer repetitions (for the tests)"
    )

    p = sub.add_parser("demo", help="play one game between bots and print it for people")
    p.add_argument("--players", type=int, choices=counts, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bot", choices=bots, default="greedy")
    p.add_argument("--variant", choices=VARIANTS, default="standard")
    p.add_argument("--goals", action="store_true")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (2 on bad input)."""
    args = build_parser().parse_args(argv)
    return kit.run(partial(_command, args), (InputError, ContractError))


def _command(args: argparse.Namespace) -> None:
    command = str(args.command)
    if command == "score":
        print(json.dumps(score_document(kit.read_json_input(sys.stdin)).to_json()))
    elif command == "simulate":
        summary = simulate(
            int(args.players),
            int(args.games),
            int(args.seed),
            str(args.bot),
            variant=str(args.variant),
            goals=bool(args.goals),
        )
        print(json.dumps(summary))
    elif command == "replay":
        print(json.dumps(replay(str(args.file)), indent=2))
    elif command == "demo":
        demo(
            int(args.players),
            int(args.seed),
            str(args.bot),
            sys.stdout,
            variant=str(args.variant),
            goals=bool(args.goals),
        )
    else:
        from .bench import run as bench

        bench(quick=bool(args.quick), out=sys.stdout)
