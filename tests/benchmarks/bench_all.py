"""``make bench``: every benchmark in one run, then their figures side by side.

Runs, one after the other (each prints its own table as it goes):

1. the rules engine (``python -m games.evergreen.rules bench``);
2. the web latencies (``bench_web.py``: game page and turn submission next to minimal
   Django views, gunicorn + PostgreSQL + Redis);
3. the SQL queries per request (``bench_queries.py``);
4. a short load run (``loadrun.py``: 40 players in 10 games for 30 s through the API, then every
   check of ``make load``);

and ends with one summary of the four. Exits 1 if a part failed or missed a check.

Usage: ``.venv/bin/python -m tests.benchmarks.bench_all [--load-duration 30]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def run_part(title: str, command: list[str]) -> tuple[dict[str, Any], bool]:
    """Run one part, echoing its output; its JSON lines merged, and whether it succeeded."""
    print(f"\n=== {title} ===", flush=True)
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert process.stdout is not None
    figures: dict[str, Any] = {}
    for line in process.stdout:
        if line.startswith("{"):
            try:
                figures.update(json.loads(line))
                continue
            except ValueError:
                pass
        print(line, end="", flush=True)
    return figures, process.wait() == 0


def summary(
    engine: dict[str, Any], web: dict[str, Any], queries: dict[str, Any], load: dict[str, Any]
) -> str:
    lines = [
        f"Summary ({datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, "
        f"{os.cpu_count()} cores, figures from the runs above)"
    ]
    lines.append("  Rules engine (one core)")
    for key, label in (
        ("apply_turn_us", "validate + apply a turn, median"),
        ("light_forest_full_planet_us", "Light + Forest of a full planet"),
        ("random_game_4p_ms", "whole 4-player game, random bots"),
    ):
        figure = engine.get("bench", {}).get(key)
        if figure:
            target = f"<= {figure['target']:g} {figure['unit']}" if figure.get("target") else ""
            state = {True: "ok", False: "MISSED", None: ""}[figure.get("ok")]
            lines.append(
                f"    {label:48} {figure['value']:9.1f} {figure['unit']:3} {target:>12} {state}"
            )
    rows = web.get("bench_web", {})
    if rows:
        lines.append("  Web, one request at a time (gunicorn 1 sync worker)    median      p95")
        for label, figure in rows.items():
            lines.append(f"    {label:48} {figure['median_ms']:7.2f}ms {figure['p95_ms']:7.2f}ms")
        lines.append(
            f"    game page / minimal view {web.get('page_ratio', 0):.2f}x (target 2x), "
            f"rendered afresh {web.get('render_ratio', 0):.2f}x (target 4x), "
            f"first render after a move {web.get('cold_render_ratio', 0):.2f}x (target 4x), "
            f"turn submission / minimal write {web.get('submit_ratio', 0):.2f}x (target 3x)"
        )
    counts = queries.get("queries", {})
    if counts:
        lines.append("  SQL queries per request")
        for label, count in counts.items():
            lines.append(f"    {label:60} {count:3d}")
    figures = load.get("load")
    if figures:
        lines.append(
            f"  Load: {figures['players']} players in {figures['games_at_once']} games at once, "
            f"{figures['seconds']} s (gunicorn, PostgreSQL, Redis, Celery worker, SMTP)"
        )
        lines.append(
            f"    {'accepted moves':48} {figures['accepted_moves']:9d}   "
            f"{figures['moves_per_second']:.1f} moves/s"
        )
        lines.append(f"    {'':48} {'requests':>9} {'median':>9} {'p95':>9}")
        for kind, figure in figures["latency_ms"].items():
            if kind in ("view", "turn", "pick", "targets"):
                lines.append(
                    f"    {kind:48} {figure['n']:9d} {figure['median']:7.2f}ms "
                    f"{figure['p95']:7.2f}ms"
                )
        lines.append(
            f"    checks (replay, moves, closings, mails): "
            f"{'all ok' if figures['checks_ok'] else 'FAILED'}"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load-players", type=int, default=40)
    parser.add_argument("--load-duration", type=float, default=30.0)
    parser.add_argument("--web-requests", type=int, default=200)
    args = parser.parse_args()
    python = sys.executable
    engine, ok_engine = run_part("Rules engine", [python, "-m", "games.evergreen.rules", "bench"])
    web, ok_web = run_part(
        "Web latencies",
        [python, "-m", "tests.benchmarks.bench_web", "--requests", str(args.web_requests)],
    )
    queries, ok_queries = run_part(
        "Queries per request", [python, "-m", "tests.benchmarks.bench_queries"]
    )
    load, ok_load = run_part(
        "Short load run",
        [
            python,
            "-m",
            "tests.benchmarks.loadrun",
            "--players",
            str(args.load_players),
            "--duration",
            str(args.load_duration),
            "--json",
        ],
    )
    print()
    print(summary(engine, web, queries, load))
    return 0 if ok_engine and ok_web and ok_queries and ok_load else 1


if __name__ == "__main__":
    raise SystemExit(main())
