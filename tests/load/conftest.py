"""The load and fault tests import the loopback stack of tests/benchmarks (webstack,
loadrun, loadaudit) and the helpers of tests/games (celeryhelpers, gamehelpers)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE.parent / "benchmarks", HERE.parent / "games"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
