"""How fast this machine is right now: the CPU of a minimal Django view in one process.

The same code measured on the same 2-core machine a few hours apart has differed by a
factor of two to three (the test suite took 23 minutes one day and 8 the next; the
capacity run's web CPU at 2,000 people was 0.81 and 0.65 cores within an hour), so a
figure of a load run means little without the machine's speed beside it. This is that
reference, taken as ``rendercost`` takes its first row: the minimal view (``GET
/bench/read/``, ``evergreen.bench_urls``) through every middleware with Django's test
client, CPU time (``rendercost.cpu_ms``: the wait for a core does not count), warm; the
median of five rounds, since one round in a few takes twice as long (0.22, 0.51, 0.23 ms
in three rounds one after the other on an idle machine).
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING

from tests.benchmarks.rendercost import cpu_ms

if TYPE_CHECKING:
    from django.test import Client


def minimal_view_cpu_ms(requests: int = 100, rounds: int = 5) -> float:
    """CPU milliseconds of the minimal view in this process (Django set up): the median
    of ``rounds`` means of ``requests`` requests each."""
    from django.test import Client, override_settings

    client = Client()
    with override_settings(ROOT_URLCONF="evergreen.bench_urls", ALLOWED_HOSTS=["testserver"]):
        means = [cpu_ms(lambda: _answered(client), requests) for _round in range(rounds)]
    return statistics.median(means)


def _answered(client: Client) -> None:
    response = client.get("/bench/read/")
    if response.status_code != 200:
        raise RuntimeError(f"the minimal view answered {response.status_code}")
