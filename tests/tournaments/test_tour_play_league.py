"""A 9-player league at tables of 3 played to its end by computer players, and league
seasons with promotion and relegation."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.tournaments.tourhelpers import (
    current_tables,
    event_with,
    expected_points,
    make_players,
    play_round,
    play_to_the_end,
)
from tournaments import results, services
from tournaments.models import Division, Event, Registration, Table

# slow: whole events played out by bots
pytestmark = pytest.mark.slow


def _meetings(event: Event) -> Counter[frozenset[int]]:
    met: Counter[frozenset[int]] = Counter()
    for table in Table.objects.filter(round__event=event).select_related("game"):
        users = [s.user_id for s in table.game.seats.all()]
        for i, a in enumerate(users):
            for b in users[i + 1 :]:
                met[frozenset((a, b))] += 1
    return met


def test_a_9_player_league_at_tables_of_3_meets_everyone_once(alice: Any) -> None:
    players = make_players(9)
    ids = sorted(p.pk for p in players)
    event = event_with(
        alice,
        players,
        format=Event.Format.LEAGUE,
        table_size=3,
        min_table_size=3,
        bye_points=0.0,
    )
    services.start_event(event, alice)
    division = Division.objects.get(event=event)
    assert len(division.schedule) == 4  # 9 players at tables of 3: an affine plane
    assert set(Registration.objects.filter(event=event).values_list("division", flat=True)) == {
        division.pk
    }
    for _round in range(4):
        tables = current_tables(event)
        assert len(tables) == 3 and all(t.game.players == 3 for t in tables)
        assert sorted(s.user_id for t in tables for s in t.game.seats.all()) == ids
        assert all(t.division_id == division.pk for t in tables)
        play_round(event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED

    met = _meetings(event)
    assert len(met) == 36 and set(met.values()) == {1}  # every pair exactly once

    [(group_division, rows)] = results.division_standings(event)
    assert group_division == division
    expected = expected_points(event)
    assert {r.player: r.points for r in rows} == expected
    assert sum(expected.values()) == 12 * 3  # 2 + 1 + 0 per table, 12 tables
    for row in rows:
        assert row.played == 4
        assert max(row.seats[:3]) <= 2 and row.seats[3] == 0
    keys = [(r.points, r.opponents, r.score) for r in rows]
    assert keys == sorted(keys, reverse=True)


def test_a_league_season_promotes_and_relegates_into_the_next(alice: Any) -> None:
    players = make_players(9)
    event = event_with(
        alice,
        players,
        format=Event.Format.LEAGUE,
        table_size=3,
        min_table_size=3,
        division_size=3,
        rounds=3,
        promote=1,
        relegate=1,
    )
    services.start_event(event, alice)
    divisions = list(event.divisions.order_by("number"))
    assert [d.number for d in divisions] == [1, 2, 3]
    for division in divisions:
        assert Registration.objects.filter(event=event, division=division).count() == 3
    play_to_the_end(event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    # Each player sat once in each seat over the three rounds of their division.
    for _division, rows in results.division_standings(event):
        assert all(row.seats == (1, 1, 1, 0) for row in rows)

    ranked = [[r.player for r in rows] for _d, rows in results.division_standings(event)]
    nxt = services.create_next_season(event, alice)
    assert nxt.previous_season == event and nxt.season == 2
    assert nxt.status == Event.Status.REGISTRATION
    got = [
        set(
            Registration.objects.filter(event=nxt, division__number=n).values_list(
                "user_id", flat=True
            )
        )
        for n in (1, 2, 3)
    ]
    # By hand: the top of divisions 2 and 3 go up, the bottom of 1 and 2 go down.
    assert got[0] == {ranked[0][0], ranked[0][1], ranked[1][0]}
    assert got[1] == {ranked[0][2], ranked[1][1], ranked[2][0]}
    assert got[2] == {ranked[1][2], ranked[2][1], ranked[2][2]}

    # A newcomer joins the bottom division's round robin... and the season starts.
    newcomer = make_players(1, prefix="new")[0]
    services.register(nxt, newcomer)
    services.start_event(nxt, alice)
    bottom = Registration.objects.get(event=nxt, user=newcomer).division
    assert bottom.number == 3
    assert len(current_tables(nxt)) >= 3
