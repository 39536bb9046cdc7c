"""Fitting the learnt judgement (``learnt.py``): self-play, then least squares, offline.

``python -m games.verdant.rules.learnt_fit --games 6000 --seed 10000 --vary 0.15 --write
games/verdant/rules/learnt_weights.py`` plays solo games
with the planner (``strong.PlannerBot``), which now and then plays its second or third
best turn instead of its best (``--vary``) so that the homes it records differ more
than its own choices would make them. After each of the seat's turns it records the
home's ``learnt.features`` and the number of turns left; at the end, the final score.
For each number of turns left a ridge regression of the final score on the features is
solved (the normal equations, by Gaussian elimination: pure Python, the engine has no
numpy), and the weights are written to ``learnt_weights.py`` with how they were made.
The last tenth of the games is held out: the command prints, per turns left, the
error of the prediction there and that of the outlook alone, so a fit that does not
generalise shows before it is used. Seeds from 10000 keep clear of the benchmark's
(1-200) and of the tuning seeds (3000-3399).
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence
from pathlib import Path

from games.enginekit.rng import bot_seed

from .engine import apply, edition_of, new_game
from .learnt import FEATURES, features, predict
from .moves import Move
from .state import Phase
from .strong import PlannerBot

Sample = tuple[int, tuple[float, ...]]  # (turns left, features)


def recorded_game(seed: int, vary: float, learnt: bool = False) -> tuple[list[Sample], int]:
    """One solo game of the varied planner (judging by ``learnt_weights`` when ``learnt``):
    its samples and the final score."""
    state = new_game(1, seed)
    bot = PlannerBot(bot_seed(seed, 0))
    if learnt:
        bot.learn()
    rnd = random.Random(seed * 7919 + 1)
    ed = edition_of(state)
    samples: list[Sample] = []
    while not state.is_over:
        move: Move
        if state.phase is Phase.PLAY:
            ranked = bot.ranked(state, 0)
            pick = 0
            if len(ranked) > 1 and rnd.random() < vary:
                pick = rnd.randint(1, min(2, len(ranked) - 1))
            move = ranked[pick][2]
        else:
            move = bot.choose(state, 0)
        state = apply(state, move)
        seat = state.seats[0]
        if state.phase is not Phase.START and not state.is_over:
            samples.append((ed.turns_per_player - seat.turns, features(seat, state, ed)))
    assert state.outcome is not None
    return samples, state.outcome.scores[0]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            continue
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(m[r][r]) < 1e-12:
            continue
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def ridge(rows: Sequence[Sequence[float]], targets: Sequence[float], penalty: float) -> list[float]:
    """Least squares weights with ``penalty`` on every weight but the constant's."""
    n = len(rows[0])
    a = [[0.0] * n for _ in range(n)]
    b = [0.0] * n
    for row, y in zip(rows, targets, strict=True):
        for i, fi in enumerate(row):
            if fi:
                b[i] += fi * y
                line = a[i]
                for j, fj in enumerate(row):
                    line[j] += fi * fj
    for i in range(1, n):
        a[i][i] += penalty
    return solve(a, b)


def rmse(errors: Sequence[float]) -> float:
    return math.sqrt(sum(e * e for e in errors) / max(1, len(errors)))


def fit(
    games: list[tuple[list[Sample], int]], penalty: float, held: float
) -> tuple[list[list[float]], list[str]]:
    """The weights for each turns left (1, 2, ...) and a report line for each."""
    cut = int(len(games) * (1.0 - held))
    longest = max(left for samples, _ in games for left, _ in samples)
    weights, lines = [], []
    outlook_at = FEATURES.index("outlook")
    for left in range(1, longest + 1):

        def rows_of(
            part: list[tuple[list[Sample], int]], left: int = left
        ) -> list[tuple[tuple[float, ...], int]]:
            return [(f, final) for samples, final in part for t, f in samples if t == left]

        train, test = rows_of(games[:cut]), rows_of(games[cut:])
        w = ridge([f for f, _ in train], [float(y) for _, y in train], penalty)
        shift = sum(y - f[outlook_at] for f, y in train) / len(train)
        learnt = rmse([predict(w, f) - y for f, y in test])
        outlook = rmse([f[outlook_at] + shift - y for f, y in test])
        weights.append(w)
        lines.append(
            f"turns left {left:2d}: {len(train)} samples, held-out error {learnt:.2f} "
            f"(the outlook plus a constant: {outlook:.2f})"
        )
    return weights, lines


def write_weights(weights: list[list[float]], how: str, path: Path) -> None:
    rows = "\n".join("    (" + ", ".join(f"{w:.5g}" for w in row) + ")," for row in weights)
    path.write_text(
        '"""The learnt judgement\'s weights (``learnt.FEATURES`` order), one row per turn left.\n\n'
        "Written by ``python -m games.verdant.rules.learnt_fit``; not edited by hand.\n"
        f"{how}\n"
        '"""\n\n'
        "# fmt: off\n"
        f"WEIGHTS: tuple[tuple[float, ...], ...] = (\n{rows}\n)\n"
        "# fmt: on\n"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=10000)
    parser.add_argument("--vary", type=float, default=0.2)
    parser.add_argument("--penalty", type=float, default=10.0)
    parser.add_argument("--held", type=float, default=0.1)
    parser.add_argument("--learnt", action="store_true", help="the planner judges by the fit")
    parser.add_argument("--write", type=Path, help="the weights file to write")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    games = [recorded_game(seed, args.vary, args.learnt) for seed in seeds]
    mean = sum(final for _, final in games) / len(games)
    print(f"{len(games)} games, mean final score {mean:.2f}")
    weights, lines = fit(games, args.penalty, args.held)
    print("\n".join(lines))
    if args.write:
        judging = "the learnt value before this fit" if args.learnt else "the outlook"
        how = (
            f"Fitted on {args.games} solo games (seeds {seeds[0]}-{seeds[-1]}) of the planner\n"
            f"judging by {judging}, playing its 2nd or 3rd best turn with chance {args.vary};\n"
            f"ridge penalty {args.penalty}, the last {args.held:.0%} of the games held out."
        )
        write_weights(weights, how, args.write)


if __name__ == "__main__":
    main()
