"""A small crafted event whose standings were worked out by hand: adjudicated games with
set scores, a points scheme, a player ranked last by a timeout decision, an override,
and the tie-breaks in different orders."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Seat
from tests.games.gamehelpers import make_user
from tests.tournaments.tourhelpers import current_tables, event_with
from tournaments import results, services
from tournaments.models import Event, TimeoutDecision


def _finish_with(event: Event, by: Any, scores: dict[Any, int]) -> Any:
    """Adjudicate the round's only table with these scores (by user)."""
    [table] = current_tables(event)
    for user, score in scores.items():
        Seat.objects.filter(game=table.game, user=user).update(score=score)
    services.adjudicate_table(table, by)
    table.refresh_from_db()
    return table


@pytest.fixture
def four(db: Any) -> list[Any]:
    return [make_user(name) for name in ("ann", "ben", "cat", "dan")]


def _table(rows: list[Any], names: dict[int, str]) -> list[tuple[str, int, float, float, int]]:
    return [(names[r.player], r.rank, r.points, r.opponents, r.score) for r in rows]


def test_standings_of_a_crafted_event_match_the_hand_computed_ones(
    alice: Any, four: list[Any]
) -> None:
    ann, ben, cat, dan = four
    names = {u.pk: u.username for u in four}
    event = event_with(
        alice,
        four,
        rounds=2,
        table_size=4,
        min_table_size=4,
        points_scheme=[5, 3, 1, 0],
        timeout_policy=Event.TimeoutPolicy.LAST,
    )
    services.start_event(event, alice)
    table1 = _finish_with(event, alice, {ann: 60, ben: 50, cat: 45, dan: 40})
    assert table1.adjudicated and table1.adjudicated_by == alice
    # Round 1 by hand: ann 5, ben 3, cat 1, dan 0.
    rows = results.event_standings(event)
    assert _table(rows, names) == [
        ("ann", 1, 5.0, 4.0, 60),
        ("ben", 2, 3.0, 6.0, 50),
        ("cat", 3, 1.0, 8.0, 45),
        ("dan", 4, 0.0, 9.0, 40),
    ]

    second = services.seat_next_round(event, alice)
    assert second is not None and second.number == 2
    [table2] = current_tables(event)
    dan_seat = Seat.objects.get(game=table2.game, user=dan)
    Seat.objects.filter(pk=dan_seat.pk).update(timeouts_in_row=1)
    assert services.apply_timeout_policy(table2.game_id, dan_seat.position) == "last"
    _finish_with(event, alice, {ann: 50, ben: 55, cat: 35, dan: 70})
    event.refresh_from_db()
    # Round 2 by hand: dan timed out and ranks last despite 70: ben 5, ann 3, cat 1, dan 0.
    # Totals: ann 8, ben 8, cat 2, dan 0. Opponents: ann (8+2+0)*2 = 20, ben the same;
    # score decides: ann 110, ben 105.
    rows = results.event_standings(event)
    assert _table(rows, names) == [
        ("ann", 1, 8.0, 20.0, 110),
        ("ben", 2, 8.0, 20.0, 105),
        ("cat", 3, 2.0, 32.0, 80),
        ("dan", 4, 0.0, 36.0, 110),
    ]
    # Seats rotate: nobody sat in the same seat twice.
    assert all(sum(r.seats) == 2 and max(r.seats) == 1 for r in rows)

    # Head-to-head alone: ann beat ben in round 1, ben beat ann in round 2: they share 1st.
    event.tiebreaks = ["head_to_head"]
    event.save(update_fields=["tiebreaks"])
    rows = results.event_standings(event)
    assert [(names[r.player], r.rank, r.head_to_head) for r in rows][:2] == [
        ("ann", 1, 1.0),
        ("ben", 1, 1.0),
    ]

    # The organizer overrides the timeout ruling: dan's 70 wins round 2 after all.
    event.tiebreaks = ["opponents", "score", "head_to_head"]
    event.save(update_fields=["tiebreaks"])
    decision = TimeoutDecision.objects.get(game=table2.game, position=dan_seat.position)
    services.override_timeout_decision(decision, alice, ranks_last=False, note="Server outage")
    decision.refresh_from_db()
    assert decision.overridden_by == alice and decision.note == "Server outage"
    # Round 2 now: dan 5, ben 3, ann 1, cat 0. Totals: ann 6, ben 6, dan 5, cat 1.
    # Opponents: ann (6+1+5)*2 = 24 = ben's, dan (6+6+1)*2 = 26, cat (6+6+5)*2 = 34;
    # score: ann 110 > ben 105.
    rows = results.event_standings(event)
    assert _table(rows, names) == [
        ("ann", 1, 6.0, 24.0, 110),
        ("ben", 2, 6.0, 24.0, 105),
        ("dan", 3, 5.0, 26.0, 110),
        ("cat", 4, 1.0, 34.0, 80),
    ]
    # The event is over after its two rounds: the next step finishes it.
    assert services.seat_next_round(event, alice) is None
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
