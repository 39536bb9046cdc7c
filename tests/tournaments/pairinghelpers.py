"""What the seating tests share: Hypothesis' pace and the checks every round must pass."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import settings

from tournaments.pairing import Pairing

FAST = settings(max_examples=40, deadline=None)


def check_round(pairing: Pairing, everyone: Sequence[int], low: int, high: int) -> None:
    seated = pairing.players()
    assert len(seated) == len(set(seated)), "nobody sits at two tables"
    assert not set(seated) & set(pairing.byes), "nobody both plays and has a bye"
    assert sorted(seated + list(pairing.byes)) == sorted(everyone), "everyone seated or bye"
    assert all(low <= len(table) <= high for table in pairing.tables)
