"""A 16-player, 4-round Swiss played to its end by computer players through the
services; the standings are checked against a recomputation from the Table and Seat rows
written independently of tournaments.standings."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import pytest

from games.models import Game, Notification
from tests.tournaments.tourhelpers import (
    current_tables,
    event_with,
    expected_points,
    make_players,
    play_round,
)
from tournaments import results, services
from tournaments.models import Event, Round, Table

# slow: whole events played out by bots
pytestmark = pytest.mark.slow


def _independent_tiebreaks(event: Event, points: dict[int, float]) -> tuple[dict, dict]:
    opponents: dict[int, float] = defaultdict(float)
    score: dict[int, int] = defaultdict(int)
    for table in Table.objects.filter(round__event=event).select_related("game"):
        seats = list(table.game.seats.order_by("position"))
        for seat in seats:
            score[seat.user_id] += seat.score
            opponents[seat.user_id] += sum(points[o.user_id] for o in seats if o is not seat)
    return opponents, score


def test_a_16_player_swiss_is_played_to_the_end_with_correct_standings(alice: Any) -> None:
    players = make_players(16)
    ids = sorted(p.pk for p in players)
    event = event_with(alice, players, rounds=4, table_size=4, min_table_size=3, rated=True)
    services.start_event(event, alice)

    for number in range(1, 5):
        tables = current_tables(event)
        assert event.current_round == number
        assert [t.number for t in tables] == [1, 2, 3, 4]
        seated = [s.user_id for t in tables for s in t.game.seats.all()]
        assert sorted(seated) == ids  # everyone seated exactly once, no byes with 16
        for table in tables:
            assert table.game.players == 4
            assert table.game.status == Game.Status.ACTIVE
            assert table.game.rated
            assert table.game.days_per_move == event.days_per_move
        play_round(event)

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert event.finished_at is not None
    assert Round.objects.filter(event=event).count() == 4
    assert not Round.objects.filter(event=event).exclude(status=Round.Status.FINISHED).exists()
    assert services.advance(event.pk) is None  # nothing more to seat

    # Every player was told of each of their four tables, once.
    mails = Notification.objects.filter(kind="event_table", game__event_table__round__event=event)
    assert mails.count() == 64
    assert Counter(mails.values_list("user_id", flat=True)) == dict.fromkeys(ids, 4)

    rows = results.event_standings(event)
    expected = expected_points(event)
    assert {r.player: r.points for r in rows} == expected
    assert sum(expected.values()) == 16 * 6  # 3 + 2 + 1 + 0 per table
    opponents, score = _independent_tiebreaks(event, expected)
    for row in rows:
        assert row.opponents == opponents[row.player]
        assert row.score == score[row.player]
        assert row.played == 4
        assert sum(row.seats) == 4
        assert max(row.seats) <= 2, "seats rotate across the rounds"
    # Ranked by points, then opponents' points, then game score.
    keys = [(r.points, r.opponents, r.score) for r in rows]
    assert keys == sorted(keys, reverse=True)
    # Equal on all three share a rank; each rank counts the rows ahead (1, 2, 2, 4 ...).
    for row, key in zip(rows, keys, strict=True):
        assert row.rank == 1 + sum(other > key for other in keys)
    assert rows[0].rank == 1


def test_swiss_rounds_avoid_repeat_meetings_when_they_can(alice: Any) -> None:
    players = make_players(16)
    event = event_with(alice, players, rounds=2, table_size=4, min_table_size=3)
    services.start_event(event, alice)
    play_round(event)
    met: Counter[frozenset[int]] = Counter()
    for table in Table.objects.filter(round__event=event).select_related("game"):
        users = [s.user_id for s in table.game.seats.all()]
        for i, a in enumerate(users):
            for b in users[i + 1 :]:
                met[frozenset((a, b))] += 1
    # 16 players at tables of 4 can play two rounds without meeting anyone twice.
    assert max(met.values()) == 1


def test_a_swiss_with_an_odd_count_seats_tables_of_three_and_gives_byes_only_when_needed(
    alice: Any,
) -> None:
    # 7 players, tables of 4 or 3: one table of 4 and one of 3, no bye.
    players = make_players(7)
    event = event_with(alice, players, rounds=1, table_size=4, min_table_size=3)
    services.start_event(event, alice)
    sizes = sorted(t.game.players for t in current_tables(event))
    assert sizes == [3, 4]
    # 5 players at tables of exactly 4: one bye, worth the event's bye points.
    players5 = make_players(5, prefix="q")
    other = event_with(
        alice, players5, name="Bye Cup", rounds=2, table_size=4, min_table_size=4, bye_points=1.5
    )
    services.start_event(other, alice)
    round1 = Round.objects.get(event=other, number=1)
    assert round1.byes.count() == 1
    bye = round1.byes.get()
    assert bye.points == 1.5
    play_round(other)
    round2 = Round.objects.get(event=other, number=2)
    assert round2.byes.get().user_id != bye.user_id  # byes go to whoever had fewest
    rows = {r.player: r for r in results.event_standings(other)}
    assert rows[bye.user_id].byes == 1
    assert rows[bye.user_id].points == expected_points(other)[bye.user_id]
