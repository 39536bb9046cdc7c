"""The CPU of reading a game with its seats (``games.access``), its rows kept in the cache
(``games.rowcache``) or not, in one process, the two alternated round after round.

``python -m tests.benchmarks.rowcost [--rounds N]``: bench_web's page game (its
``BENCH_DATABASE_URL``, dropped and made again) and a private Redis as the cache, the
production settings. It prints, for ``game_for_viewer`` (every page and htmx region) and
``game_and_seats_for_viewer`` (the API's game view and targets), the median CPU per read
with ``GAME_ROWS_CACHE_SECONDS`` 0 (read from PostgreSQL through the ORM) and on (found in
the cache), and the first read after a seat's row changed (a miss: the rows read with
their versions and kept). Alternated in one process, the comparison holds on a machine
too busy for two runs to be compared.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from typing import Any

from tests.benchmarks.oneprocess import bench_process
from tests.benchmarks.rendercost import cpu_ms

CALLS = 100
KEPT = 600


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with bench_process("rowcost", broker="memory://"):
        from tests.benchmarks import bench_web

        pk = bench_web.prepare_games(0)["page_game"]  # Django is set up from here on

        from django.contrib.auth.models import AnonymousUser
        from django.db.models import F
        from django.test.utils import override_settings

        from games import access
        from games.models import Seat

        visitor = AnonymousUser()

        def a_seat_changed() -> None:
            Seat.objects.filter(game_id=pk, position=0).update(hints_used=F("hints_used") + 1)

        reads: dict[str, tuple[Callable[[], Any], Callable[[], Any] | None]] = {
            "game_for_viewer": (lambda: access.game_for_viewer(pk, visitor), None),
            "game_and_seats_for_viewer": (
                lambda: access.game_and_seats_for_viewer(pk, visitor, with_users=False),
                None,
            ),
            "game_for_viewer, a seat changed": (
                lambda: access.game_for_viewer(pk, visitor),
                a_seat_changed,
            ),
        }
        spent: dict[tuple[str, int], list[float]] = {}
        for turn in range(args.rounds):
            for seconds in (0, KEPT) if turn % 2 == 0 else (KEPT, 0):
                with override_settings(GAME_ROWS_CACHE_SECONDS=seconds):
                    for name, (call, between) in reads.items():
                        call()  # warm: the rows kept, when they are
                        spent.setdefault((name, seconds), []).append(cpu_ms(call, CALLS, between))
        print(f"CPU ms per read, median of {args.rounds} alternated rounds: not kept -> kept")
        for name in reads:
            off = statistics.median(spent[(name, 0)])
            on = statistics.median(spent[(name, KEPT)])
            print(f"  {name:34} {off:6.2f} -> {on:6.2f}  ({(on - off) / off * 100:+.0f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
