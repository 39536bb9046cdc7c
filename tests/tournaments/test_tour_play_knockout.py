"""A knockout cup played down to its final table by computer players."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.tourhelpers import current_tables, event_with, make_players, play_round
from tournaments import services
from tournaments.models import Event, Registration, Round

# slow: whole events played out by bots
pytestmark = pytest.mark.slow


def _check_advance(tables: list[Any], advancing: list[int], k: int) -> None:
    """The k best scores of each table go on; at a tie on the cut, exactly enough of the
    tied players go on (the seeding picks which)."""
    for table in tables:
        seats = sorted(table.game.seats.all(), key=lambda s: -s.score)
        going = [s.user_id for s in seats if s.user_id in advancing]
        assert len(going) == k
        cut = seats[k - 1].score
        assert all(s.user_id in advancing for s in seats if s.score > cut)
        assert all(s.user_id not in advancing for s in seats if s.score < cut)


def test_a_12_player_knockout_goes_down_to_a_final_table(alice: Any) -> None:
    players = make_players(12)
    event = event_with(
        alice,
        players,
        format=Event.Format.KNOCKOUT,
        table_size=4,
        min_table_size=3,
        knockout_advance=2,
    )
    services.start_event(event, alice)
    sizes = []
    while True:
        event.refresh_from_db()
        tables = current_tables(event)
        sizes.append(sorted(t.game.players for t in tables))
        number = event.current_round
        play_round(event)
        for table in tables:
            table.game.refresh_from_db()
        advancing = services.knockout_advancing(event, number)
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            break
        _check_advance(tables, advancing, 2)
        next_round = Round.objects.get(event=event, number=number + 1)
        seated = {s.user_id for t in next_round.tables.all() for s in t.game.seats.all()}
        assert seated == set(advancing)
    # 12 → three tables of 4 → 6 advance → two tables of 3 → 4 advance → the final.
    assert sizes == [[4, 4, 4], [3, 3], [4]]
    final = Round.objects.get(event=event, number=3)
    assert final.is_final and final.tables.count() == 1
    eliminated = dict(
        Registration.objects.filter(event=event).values_list("user_id", "eliminated_in")
    )
    assert sorted(v for v in eliminated.values() if v is not None) == [1] * 6 + [2] * 2
    finalists = {s.user_id for s in final.tables.get().game.seats.all()}
    assert {u for u, v in eliminated.items() if v is None} == finalists


def test_a_knockout_of_two_tables_of_two_ends_with_a_final_of_two(alice: Any) -> None:
    players = make_players(4)
    event = event_with(
        alice,
        players,
        format=Event.Format.KNOCKOUT,
        table_size=2,
        min_table_size=2,
        knockout_advance=1,
    )
    services.start_event(event, alice)
    assert len(current_tables(event)) == 2
    play_round(event)
    event.refresh_from_db()
    final = Round.objects.get(event=event, number=2)
    assert final.is_final
    assert final.tables.get().game.players == 2
    play_round(event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
