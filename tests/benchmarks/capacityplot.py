"""The capacity curve of ``capacity.py``: a text table and a hand-written SVG plot.

The plot has two panels over the number of people: the 95th-percentile latency of each
kind of request (log scale, with the limit drawn across), and the CPU of each part of
the stack (in cores; the machine's cores drawn across).
"""

from __future__ import annotations

import math
import os
from html import escape
from typing import TYPE_CHECKING

from tests.benchmarks.people import KINDS

if TYPE_CHECKING:
    from tests.benchmarks.capacity import StepResult

PARTS = ("web", "worker", "postgres", "clients")
COLOURS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)


def curve_table(results: list[StepResult], p95_ms: float, header: bool = True) -> str:
    kinds = [k for k in KINDS if any(k in r.latency for r in results)]
    lines = []
    if header:
        lines.append(
            "  p95 in ms of each kind of request (requests in the window); CPU in cores "
            f"(of {os.cpu_count()}); held = every p95 <= {p95_ms:.0f} ms and no error"
        )
    for result in results:
        cpu = " ".join(f"{part} {result.cpu.get(part, 0.0):.2f}" for part in PARTS)
        lines.append(
            f"  N={result.people:5d} ({result.api_people} API)  {result.requests / result.seconds:6.1f} req/s  "
            f"{result.moves / result.seconds:5.1f} moves/s  errors {len(result.errors)}  CPU {cpu}  "
            f"load avg {result.load_average:.1f}  {'held' if result.held(p95_ms) else 'NOT held'}"
        )
        for kind in kinds:
            if kind in result.latency:
                n, median, p95 = result.latency[kind]
                flag = "" if p95 <= p95_ms else "  over"
                lines.append(
                    f"      {KINDS[kind]:36} {n:7d}  median {median:8.1f}  p95 {p95:8.1f}{flag}"
                )
        for error in result.errors[:3]:
            lines.append(f"      error: {error}")
    return "\n".join(lines)


def cpu_estimate(results: list[StepResult], p95_ms: float) -> str:
    """What the CPU figures say when other work shares the machine: the cores the site and
    the clients used per 1000 people (from the largest step that was held, else the
    first: past saturation queued work blurs them), and how many people that many cores
    would carry if the site had them all."""
    if not results:
        return ""
    seated = [r for r in results if r.people]
    if not seated:
        return ""
    held = [r for r in seated if r.held(p95_ms)]
    step = held[-1] if held else seated[0]
    site = sum(step.cpu.get(part, 0.0) for part in ("web", "worker", "postgres"))
    everyone = site + step.cpu.get("clients", 0.0)
    per_1000 = 1000 * everyone / step.people
    parts = ", ".join(
        f"{part} {1000 * step.cpu.get(part, 0.0) / step.people:.2f}" for part in PARTS
    )
    cores = os.cpu_count() or 1
    return (
        f"  CPU per 1000 people (at N={step.people}): {per_1000:.2f} cores ({parts}); "
        f"{cores} cores given to the site and the clients alone would be saturated at about "
        f"{1000 * cores / per_1000:.0f} people"
        if per_1000
        else ""
    )


def curve_svg(results: list[StepResult], p95_ms: float) -> str:
    width, height, left, right, top, panel, gap = 840, 640, 70, 270, 60, 230, 70
    plot_w = width - left - right
    people = [r.people for r in results] or [1]
    x_max = max(people) * 1.05

    def x(n: float) -> float:
        return left + plot_w * n / x_max

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{left}" y="22" font-size="15">Capacity curve ({os.cpu_count()} cores)</text>',
    ]
    # Panel 1: p95 latency, log scale from 1 ms to the largest seen (at least 10 s).
    y0 = top
    highest = max([p95 for r in results for _n, _m, p95 in r.latency.values()] + [10_000.0])
    lo, hi = 0.0, math.log10(highest)

    def y_ms(ms: float) -> float:
        return y0 + panel - panel * (math.log10(max(ms, 1.0)) - lo) / (hi - lo)

    out += _axes(left, y0, plot_w, panel, "p95 latency (ms, log)")
    for tick in (1, 10, 100, 1000, 10_000, 100_000):
        if tick <= highest:
            out.append(_hline(left, plot_w, y_ms(tick), "#ddd"))
            out.append(
                f'<text x="{left - 6}" y="{y_ms(tick) + 4:.1f}" text-anchor="end">{tick}</text>'
            )
    out.append(_hline(left, plot_w, y_ms(p95_ms), "#d00", dash=True))
    out.append(
        f'<text x="{left + 4}" y="{y_ms(p95_ms) - 4:.1f}" fill="#d00">{p95_ms:.0f} ms</text>'
    )
    kinds = [k for k in KINDS if any(k in r.latency for r in results)]
    for i, kind in enumerate(kinds):
        points = [(x(r.people), y_ms(r.latency[kind][2])) for r in results if kind in r.latency]
        out += _series(
            points, COLOURS[i % len(COLOURS)], KINDS[kind], width - right + 10, y0 + 14 * i
        )
    # Panel 2: CPU in cores.
    y1 = top + panel + gap
    cores = float(os.cpu_count() or 1)
    c_max = max([sum(r.cpu.values()) for r in results] + [cores]) * 1.1

    def y_cpu(c: float) -> float:
        return y1 + panel - panel * c / c_max

    out += _axes(left, y1, plot_w, panel, "CPU (cores)")
    for tick in range(int(c_max) + 1):
        out.append(_hline(left, plot_w, y_cpu(tick), "#ddd"))
        out.append(
            f'<text x="{left - 6}" y="{y_cpu(tick) + 4:.1f}" text-anchor="end">{tick}</text>'
        )
    out.append(_hline(left, plot_w, y_cpu(cores), "#d00", dash=True))
    for i, part in enumerate(PARTS):
        points = [(x(r.people), y_cpu(r.cpu.get(part, 0.0))) for r in results]
        out += _series(points, COLOURS[i], part, width - right + 10, y1 + 14 * i)
    for n in people:
        out.append(f'<text x="{x(n):.1f}" y="{y1 + panel + 16}" text-anchor="middle">{n}</text>')
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{y1 + panel + 36}" text-anchor="middle">'
        "people at once</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _axes(left: float, top: float, w: float, h: float, label: str) -> list[str]:
    return [
        f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#444"/>',
        f'<text x="{left}" y="{top - 6}">{escape(label)}</text>',
    ]


def _hline(left: float, w: float, y: float, colour: str, dash: bool = False) -> str:
    style = ' stroke-dasharray="6 4"' if dash else ""
    return f'<line x1="{left}" x2="{left + w}" y1="{y:.1f}" y2="{y:.1f}" stroke="{colour}"{style}/>'


def _series(
    points: list[tuple[float, float]], colour: str, label: str, legend_x: float, legend_y: float
) -> list[str]:
    path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    out = [f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>']
    out += [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="{colour}"/>' for px, py in points]
    out.append(
        f'<line x1="{legend_x}" x2="{legend_x + 16}" y1="{legend_y}" y2="{legend_y}" '
        f'stroke="{colour}" stroke-width="2"/>'
    )
    out.append(f'<text x="{legend_x + 20}" y="{legend_y + 4}">{escape(label)}</text>')
    return out
