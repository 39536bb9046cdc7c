"""The web CPU of a turn submitted through the API, in one process, beside a minimal write.

``python -m tests.benchmarks.turncost [--requests N] [--profile]``: bench_web's games
(``BENCH_DATABASE_URL``, dropped and made again; each waiting for the bench user's whole
turn, which completes the round) and a private Redis as the cache and the broker, the
production settings (DEBUG off). The Django test client sends, as bench_web does, the
minimal view writing one row and the turn (each to its own game). It prints the CPU time
(``time.process_time``: the wait for a core does not count) per request and the turn's
multiple of the minimal write; ``--profile`` adds cProfile's top functions of the turn
(sorted by ``SORT``, cumulative by default; ``PROFILE_OUT=file`` keeps the whole profile).
Issue 16's target for a turn: at most 3x the minimal write (issue 11's: 5x).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import time

from tests.benchmarks.oneprocess import bench_process, show_profile

SUBMIT_TARGET = 3.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with bench_process("turncost", MOVE_RATE_LIMIT="1000000/minute"):
        from tests.benchmarks import bench_web

        # the warm-up turns, the measured ones and the profiled ones each need a game
        profiled = 50 if args.profile else 0
        data = bench_web.prepare_games(10 + args.requests + profiled)
        from django.test import Client

        client = Client()
        header = {"Authorization": f"Token {data['token']}"}
        turns = iter(enumerate(data["turns"]))

        def write() -> None:
            assert client.post("/bench/write/").status_code == 200

        def turn() -> None:
            k, (game_id, body) = next(turns)
            response = client.post(
                f"/api/games/{game_id}/turn/",
                json.dumps(body),
                content_type="application/json",
                headers={**header, "Idempotency-Key": f"turncost-{k}"},
            )
            assert response.status_code == 200, response.content[:300]

        for _ in range(10):
            write()
            turn()
        spent = {"write": 0.0, "turn": 0.0}
        for _ in range(args.requests):
            for name, call in (("write", write), ("turn", turn)):
                start = time.process_time()
                call()
                spent[name] += time.process_time() - start
        write_ms, turn_ms = (spent[n] * 1000 / args.requests for n in ("write", "turn"))
        print(f"web CPU per request, in one process (ms, mean of {args.requests}, warm):")
        print(f"  {'minimal view writing one row':36} {write_ms:7.2f}")
        print(f"  {'turn submission (API)':36} {turn_ms:7.2f}  {turn_ms / write_ms:5.1f}x")
        print(f"  (issue 16: a turn <= {SUBMIT_TARGET:g}x the minimal write)")
        if args.profile:
            profiler = cProfile.Profile(time.process_time)
            for _ in range(profiled):
                profiler.runcall(turn)
            show_profile(profiler)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
