"""How often a player is mailed about one game: coalesced by default, and reminders that
never repeat the mail just sent (issue 13's trial: 47 "your move" mails and 11 reminders
to one player of one 2-player game at one day per move).

The clock is controlled (``timezone.now``); the beat's work (``deliver_due``,
``send_reminders``) runs after every move, as the beat would every minute.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games import deadlines, services, tasks
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Notification, Player, Seat
from tests.games.gamehelpers import Clock, submit, user_at

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    return Clock.installed(monkeypatch, T0)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: Any) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 777)


def start(alice: Any, bob: Any, days: int) -> Game:
    game = services.create_game(alice, players=2, days_per_move=days)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def beat() -> None:
    tasks.deliver_due()
    deadlines.send_reminders()


def sent(user: Any, kind: str | None = None) -> list[Notification]:
    notes = Notification.objects.filter(user=user, status=Notification.Status.SENT)
    if kind:
        notes = notes.filter(kind=kind)
    return list(notes.order_by("sent_at"))


def test_new_players_get_coalesced_mails() -> None:
    assert Player._meta.get_field("email_mode").default == Player.EmailMode.COALESCED


def test_a_fast_game_mails_each_player_at_most_once_an_hour_per_game(
    clock: Clock, alice: Any, bob: Any
) -> None:
    game = start(alice, bob, days=1)
    bot = RandomBot(3)
    moves = 0
    while True:
        game.refresh_from_db()
        state = game.engine_state()
        if state.is_over:
            break
        seat = state.awaiting[0]
        clock.advance(minutes=4)
        submit(game.pk, user_at(game, seat), bot.choose(state, seat))
        moves += 1
        beat()
    for _ in range(8):  # the hours after the end: mails that waited for their window
        clock.advance(hours=1)
        beat()

    assert moves > 40  # a whole game, hours long, at a move every four minutes
    by_player: dict[int, list[datetime]] = defaultdict(list)
    for note in Notification.objects.filter(game=game, status=Notification.Status.SENT):
        assert note.sent_at is not None
        by_player[note.user_id].append(note.sent_at)
    for user in (alice, bob):
        times = sorted(by_player[user.pk])
        assert times, "each player hears about the game"
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert all(gap >= timedelta(hours=1) for gap in gaps), (user, times)
    assert [n.kind for n in sent(alice, "game_over")] == ["game_over"]
    assert sent(alice, "reminder") == [] and sent(bob, "reminder") == []


def test_no_reminder_while_the_move_is_younger_than_the_reminders_lead_time(
    clock: Clock, alice: Any, bob: Any
) -> None:
    game = start(alice, bob, days=1)  # reminders 24 h and 2 h before: the 24 h one is due
    beat()
    awaited = user_at(game, game.engine_state().awaiting[0])
    seat = Seat.objects.get(game=game, user=awaited)
    assert seat.deadline == T0 + timedelta(days=1)
    assert [n.kind for n in sent(awaited)] == ["your_move"]

    clock.advance(hours=21, minutes=30)  # 2.5 h left: no reminder is due yet
    assert deadlines.send_reminders() == 0
    clock.advance(minutes=45)  # 1 h 45 min left: the 2 h reminder, the move 22 h old
    assert deadlines.send_reminders() == 1
    tasks.deliver_due()
    reminder = sent(awaited, "reminder")
    assert [n.context["hours"] for n in reminder] == [2]


def test_a_reminder_that_would_repeat_the_mail_just_sent_is_skipped(
    clock: Clock, alice: Any, bob: Any
) -> None:
    game = start(alice, bob, days=2)
    awaited = user_at(game, game.engine_state().awaiting[0])
    deadline = Seat.objects.get(game=game, user=awaited).deadline
    assert deadline == T0 + timedelta(days=2)

    # The mail goes out late (the worker was down): just after the 24 h reminder's time.
    clock.now = deadline - timedelta(hours=24) + timedelta(minutes=5)
    tasks.deliver_due()
    assert [n.kind for n in sent(awaited)] == ["your_move"]
    clock.advance(minutes=5)
    assert deadlines.send_reminders() == 0  # it would say what the mail just said
    assert not Notification.objects.filter(user=awaited, kind="reminder").exists()

    clock.now = deadline - timedelta(hours=1)  # the 2 h reminder is news
    assert deadlines.send_reminders() == 1
    tasks.deliver_due()
    assert [n.kind for n in sent(awaited)] == ["your_move", "reminder"]


def test_a_reminder_replaces_a_your_move_mail_still_waiting_for_its_window(
    clock: Clock, alice: Any, bob: Any
) -> None:
    Player.objects.filter(user__in=[alice, bob]).update(email_every_hours=48)
    game = start(alice, bob, days=2)
    beat()
    bot = RandomBot(1)
    for _ in range(10):  # play on until alice's "your move" mail waits for its window
        if Notification.objects.filter(user=alice, kind="your_move", status="pending").exists():
            break
        game.refresh_from_db()
        state = game.engine_state()
        seat = state.awaiting[0]
        clock.advance(minutes=10)
        submit(game.pk, user_at(game, seat), bot.choose(state, seat))
    deadline = Seat.objects.get(game=game, user=alice).deadline
    assert deadline is not None

    clock.now = deadline - timedelta(hours=1)
    deadlines.send_reminders()
    assert Notification.objects.filter(user=alice, kind="reminder").count() == 1
    assert not Notification.objects.filter(user=alice, kind="your_move", status="pending").exists()
    tasks.deliver_due()
    assert [n.kind for n in sent(alice)] == ["your_move", "reminder"]
