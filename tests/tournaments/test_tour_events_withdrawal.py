"""Withdrawing from an event and replacing a player with the bot."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game, Seat
from games.services import Conflict, NotAPlayer
from tests.tournaments.tourhelpers import (
    current_tables,
    event_with,
    expected_points,
    make_players,
    play_round,
)
from tournaments import results, services
from tournaments.models import Event, Registration


def test_withdrawing_before_the_start_gives_up_the_place(alice: Any) -> None:
    players = make_players(5)
    event = event_with(alice, players, rounds=1, table_size=4, min_table_size=2)
    registration = services.withdraw(event, players[0])
    assert registration.status == Registration.Status.WITHDRAWN
    with pytest.raises(Conflict) as twice:
        services.withdraw(event, players[0])
    assert twice.value.code == "not_registered"
    services.start_event(event, alice)
    seated = {s.user_id for t in current_tables(event) for s in t.game.seats.all()}
    assert seated == {p.pk for p in players[1:]}


def test_a_late_withdrawal_hands_the_seat_to_the_bot_and_keeps_the_result(alice: Any) -> None:
    players = make_players(8)
    event = event_with(alice, players, rounds=2, table_size=4, min_table_size=3)
    services.start_event(event, alice)
    leaver = players[0]
    [table] = [t for t in current_tables(event) if t.game.seats.filter(user=leaver).exists()]
    services.withdraw(event, leaver)
    seat = Seat.objects.get(game=table.game, user=leaver)
    assert seat.bot == "strong" and seat.handed_to_bot and seat.deadline is None
    assert Registration.objects.get(event=event, user=leaver).withdrawn_at is not None

    play_round(event)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    # Round 2 seats the seven others only (a table of 4 and one of 3).
    tables = current_tables(event)
    assert sorted(t.game.players for t in tables) == [3, 4]
    assert leaver.pk not in {s.user_id for t in tables for s in t.game.seats.all()}
    # The leaver's round-1 result stands, for them and for their opponents.
    rows = {r.player: r for r in results.event_standings(event)}
    assert rows[leaver.pk].played == 1
    assert {p: r.points for p, r in rows.items()} == expected_points(event)

    play_round(event)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    with pytest.raises(Conflict) as over:
        services.withdraw(event, players[1])
    assert over.value.code == "event_finished"


def test_a_round_robin_keeps_its_schedule_with_the_bot_in_the_leavers_seat(alice: Any) -> None:
    players = make_players(4)
    event = event_with(
        alice, players, format=Event.Format.ROUND_ROBIN, table_size=2, min_table_size=2
    )
    services.start_event(event, alice)
    assert len(event.divisions.get().schedule) == 3
    leaver = players[0]
    services.withdraw(event, leaver)
    play_round(event)
    [table] = [t for t in current_tables(event) if t.game.seats.filter(user=leaver).exists()]
    seat = Seat.objects.get(game=table.game, user=leaver)
    assert seat.bot and seat.handed_to_bot
    assert all(t.game.players == 2 for t in current_tables(event))
    # The bot played the leaver's seat from the start: that game is not rated, the other is.
    assert {t.game.rated for t in current_tables(event)} == {True, False}
    assert not table.game.rated


def test_the_organizer_replaces_a_player_with_the_bot(alice: Any, bob: Any) -> None:
    players = make_players(4)
    event = event_with(alice, players, rounds=2, table_size=4, min_table_size=4)
    services.start_event(event, alice)
    vanished = players[2]
    with pytest.raises(NotAPlayer) as refused:
        services.replace_with_bot(event, vanished, bob)
    assert refused.value.code == "not_organizer"
    assert services.replace_with_bot(event, vanished, alice) == 1
    assert Seat.objects.get(user=vanished).handed_to_bot
    assert Registration.objects.get(event=event, user=vanished).is_active
    assert services.replace_with_bot(event, vanished, alice) == 0  # nothing left to hand over
    play_round(event)
    # Not withdrawn: seated again in round 2; this time they are withdrawn as well.
    assert Seat.objects.filter(user=vanished, bot="").count() == 1
    assert services.replace_with_bot(event, vanished, alice, withdraw_player=True) == 1
    assert not Registration.objects.get(event=event, user=vanished).is_active
