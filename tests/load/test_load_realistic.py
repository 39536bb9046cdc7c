"""A short realistic load run in the test suite (``capacity.py``, ``make load
ARGS=--realistic`` at a small scale and a fast pace): people on the page and through the
API, two steps, the curve and every check of ``make load``; and one step of people at
Verdant tables (``--kind verdant``), on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db import connection

from tests.benchmarks import kindcpu
from tests.benchmarks.capacity import CapacityConfig, capacity, run_capacity
from tests.benchmarks.capacityplot import curve_svg, curve_table
from tests.benchmarks.people import Pace
from tests.benchmarks.webstack import database_url_of
from tests.load.loadhelpers import needs_stack


def test_people_at_a_human_pace_give_a_curve_and_lose_nothing(
    transactional_db: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    needs_stack()
    monkeypatch.setenv("BENCH_TIMING_DIR", "")  # gone again after the test
    timing = kindcpu.timing_into(tmp_path, threads=1, profiled=False)
    assert timing is not None
    pace = Pace(poll_seconds=2, pick_median=0.5, turn_median=1, step_median=0.3)
    config = CapacityConfig(
        steps=(8, 16),
        ramp=5,
        measure=15,
        api_share=0.5,
        ahead_share=1.0,  # every table sits down part-way through its game
        web_workers=2,
        settle=60,
        pace=pace,
        open_day=False,  # 40 s of the computer player's games, for a run of under a minute
    )

    results, audit, recorder = run_capacity(
        config, database_url_of(connection.settings_dict), tmp_path
    )

    assert audit.ok, "\n".join(f"{c.name}: {c.detail}" for c in audit.checks if not c.ok)
    assert [r.people for r in results] == [8, 16]
    assert all(not r.errors and r.cpu["web"] > 0 for r in results)
    seen = set().union(*(r.latency for r in results))
    assert {"page", "poll 204", "poll 200"} <= seen
    assert {"api poll 200", "api poll 204"} & seen  # after its first read, with ``since``
    assert recorder.statuses["api view 200"] > 0  # that first read
    assert recorder.moves["ahead"] > 0  # played before the people sat down, audited too
    assert recorder.moves["pick"] + recorder.moves["submit"] > 0  # on the page
    assert recorder.moves["api pick"] + recorder.moves["api turn"] > 0  # through the API
    assert capacity(results, p95_ms=60_000) == 16
    assert "N=   16" in curve_table(results, 300)
    assert curve_svg(results, 300).count("<polyline") == len(seen) + 4  # kinds + CPU parts
    # The web's CPU split by kind: each request the people made, timed inside the workers.
    spent = {each.kind: each for each in kindcpu.by_kind(timing)}
    answered = {"page": "page 200", "poll 204": "poll 204 204", "poll 200": "poll 200 200"}
    for kind, counted in answered.items():  # as the people counted them (kind, status)
        assert spent[kind].requests == recorder.statuses[counted] > 0, kind
    assert 0 < sum(each.cpu_seconds for each in spent.values()) < kindcpu.workers_seconds(timing)
    assert "game page, opened (GET)" in kindcpu.table(timing)


def test_the_machines_speed_beside_a_run_is_the_minimal_views_cpu_in_one_process(
    db: Any,
) -> None:
    from tests.benchmarks.machinespeed import minimal_view_cpu_ms

    spent = minimal_view_cpu_ms(requests=10, rounds=3)

    assert 0 < spent < 1000  # milliseconds of CPU for a view that answers "ok"


def test_people_at_verdant_tables_give_a_curve_and_lose_nothing(
    transactional_db: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    needs_stack()
    monkeypatch.setenv("BENCH_TIMING_DIR", "")
    pace = Pace(poll_seconds=2, pick_median=0.5, turn_median=1, step_median=0.2)
    config = CapacityConfig(
        steps=(8,),
        kind="verdant",
        ramp=5,
        measure=20,
        api_share=0.0,
        ahead_share=0.0,  # every table from its starting plants
        web_workers=2,
        settle=60,
        pace=pace,
        open_day=False,
    )

    results, audit, recorder = run_capacity(
        config, database_url_of(connection.settings_dict), tmp_path
    )

    assert audit.ok, "\n".join(f"{c.name}: {c.detail}" for c in audit.checks if not c.ok)
    assert [r.people for r in results] == [8] and not results[0].errors
    assert recorder.moves["start"] > 0 and recorder.moves["submit"] > 0  # placed, then turns
    assert recorder.statuses["step 200"] > recorder.moves["submit"]  # builder steps before each
    assert {"page", "poll 200", "step", "submit"} <= set(results[0].latency)
