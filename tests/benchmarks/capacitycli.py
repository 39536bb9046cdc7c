"""The command line of the realistic load run (``make load ARGS=--realistic``, through
``loadrun``): its options, then the run (``capacity.run_capacity``), its curve, the
capacity figure, the web's CPU by kind of request and the checks, printed. The model and
its options are described in ``capacity.py``."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from tests.benchmarks import capacity as model
from tests.benchmarks import kindcpu
from tests.benchmarks.capacity import DEFAULT_DATABASE_URL, CapacityConfig, capacity, run_capacity
from tests.benchmarks.capacityplot import cpu_estimate, curve_svg, curve_table
from tests.benchmarks.loadstack import prepare_django
from tests.benchmarks.machinespeed import minimal_view_cpu_ms
from tests.benchmarks.people import Pace
from tests.benchmarks.webstack import ROOT, workers_text


def parse_args(argv: list[str]) -> tuple[CapacityConfig, argparse.Namespace]:
    d = CapacityConfig()
    p = argparse.ArgumentParser(description=model.__doc__.splitlines()[0])
    p.add_argument("--steps", default=",".join(map(str, d.steps)), help="people at each step")
    p.add_argument(
        "--kind",
        choices=("evergreen", "verdant"),
        default=d.kind,
        help="the game every table plays (evergreen); Verdant's people all play on the page",
    )
    p.add_argument("--ramp", type=float, default=d.ramp, help="seconds before measuring (20)")
    p.add_argument("--measure", type=float, default=d.measure, help="seconds measured (45)")
    p.add_argument("--api-share", type=float, default=d.api_share, help="through the API (0.2)")
    p.add_argument(
        "--ahead-share",
        type=float,
        default=d.ahead_share,
        help="of the tables, played on to anywhere in their game before they sit down (0.5)",
    )
    p.add_argument("--web-workers", type=int, default=d.web_workers, help="gunicorn (4)")
    p.add_argument("--web-threads", type=int, default=d.web_threads, help="each (1: sync workers)")
    p.add_argument(
        "--worker-concurrency", type=int, default=d.worker_concurrency, help="Celery threads (2)"
    )
    p.add_argument("--p95-ms", type=float, default=d.p95_ms, help="held: every p95 within (300)")
    p.add_argument(
        "--give-up-ms", type=float, default=d.give_up_ms, help="no larger step past (3000)"
    )
    p.add_argument("--pick-median", type=float, default=d.pace.pick_median, help="s (20)")
    p.add_argument("--turn-median", type=float, default=d.pace.turn_median, help="s (60)")
    p.add_argument("--step-median", type=float, default=d.pace.step_median, help="s (4)")
    p.add_argument("--sigma", type=float, default=d.pace.sigma, help="of the log-normal (0.6)")
    p.add_argument("--settle", type=float, default=d.settle, help="s for the worker (180)")
    p.add_argument("--seed", type=int, default=d.seed)
    p.add_argument("--svg", default=str(ROOT / "test-artifacts" / "capacity.svg"))
    p.add_argument("--json", action="store_true", help="also print the figures as JSON")
    p.add_argument(
        "--profile",
        default="",
        help="cProfile the web workers, in the measured windows, into this folder",
    )
    args = p.parse_args(argv)
    pace = Pace(15.0, args.pick_median, args.turn_median, args.step_median, args.sigma)
    config = CapacityConfig(
        steps=tuple(int(n) for n in args.steps.split(",")),
        kind=args.kind,
        ramp=args.ramp,
        measure=args.measure,
        api_share=0.0 if args.kind == "verdant" else args.api_share,
        ahead_share=args.ahead_share,
        web_workers=args.web_workers,
        web_threads=args.web_threads,
        worker_concurrency=args.worker_concurrency,
        p95_ms=args.p95_ms,
        give_up_ms=args.give_up_ms,
        settle=args.settle,
        seed=args.seed,
        pace=pace,
    )
    return config, args


def main(argv: list[str]) -> int:
    config, args = parse_args(argv)
    if args.profile:  # gunicorn reads it (webstack.gunicorn, gunicorn_profile.py)
        os.environ["LOAD_PROFILE_DIR"] = str(Path(args.profile).resolve())
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    database_url = os.environ.get("LOAD_DATABASE_URL", DEFAULT_DATABASE_URL)
    workdir = prepare_django(database_url, "evergreen-capacity-")
    speed = minimal_view_cpu_ms()  # before the run: the machine idle
    timing = kindcpu.timing_into(workdir, config.web_threads, bool(args.profile))
    results, audit, recorder = run_capacity(config, database_url, workdir)
    held = capacity(results, config.p95_ms)
    print(
        f"Realistic load on {os.cpu_count()} cores: gunicorn "
        f"({workers_text(config.web_workers, config.web_threads)}), "
        f"PostgreSQL, Redis, Celery worker with beat, SMTP sink, and the clients, on loopback"
    )
    print(f"  machine: the minimal view {speed:.2f} ms of CPU in one process, before the run")
    print(f"  people: {config.pace.text()}; {config.api_share:.0%} through the API")
    print(
        f"  tables: {config.kind.capitalize()}, {config.seats} seats; {config.ahead_share:.0%} of them played on to "
        f"anywhere in their game first ({recorder.moves['ahead']} moves before they sat down)"
    )
    print(curve_table(results, config.p95_ms))
    print(cpu_estimate(results, config.p95_ms))
    svg = Path(args.svg)
    svg.parent.mkdir(parents=True, exist_ok=True)
    svg.write_text(curve_svg(results, config.p95_ms))
    print(f"  plot: {svg}")
    print(f"Capacity: {held} people at once with every p95 <= {config.p95_ms:.0f} ms and no error")
    if timing is not None:
        print(kindcpu.table(timing))
    if recorder.refusals:
        refused = ", ".join(f"{what} x{n}" for what, n in recorder.refusals.most_common())
        print(f"  moves refused (4xx: a stale page or an illegal step; not errors): {refused}")
    print("Checks")
    for check in audit.checks:
        print(f"  [{'ok' if check.ok else 'FAILED'}] {check.name}: {check.detail}")
    if args.json:
        print(json.dumps({"capacity": held, "steps": [r.__dict__ for r in results]}))
    return 0 if audit.ok else 1
