"""Deadlines with a controlled clock: reminders, timeout moves, the hand-over to a bot.

The clock is the ``now`` given to the beat's work (``deadlines.send_reminders`` and
``timeouts.sweep``), read from the deadlines the services set: no waiting, no frozen
time. Tasks run eagerly (the test settings); mails land in ``mail.outbox``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core import mail

from games import deadlines, notifications, services, tasks, timeouts
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot, make_bot
from games.models import Game, Move, Notification, Seat
from tests.games.gamehelpers import user_at

pytestmark = pytest.mark.django_db(transaction=True)  # mails are sent on commit


def timed_game(alice: Any, bob: Any, policy: str) -> Game:
    """alice (the creator, seat 0) against bob (seat 1), two days per move."""
    game = services.create_game(alice, players=2, days_per_move=2, timeout_policy=policy)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def bob_seat(game: Game) -> Seat:
    return Seat.objects.get(game=game, position=1)


def alice_plays_until_only_bob_must_act(game: Game, bot: RandomBot) -> rules.GameState:
    """alice moves (bob never does) until bob alone has to act."""
    for _ in range(20):
        game.refresh_from_db()
        state = game.engine_state()
        if state.awaiting == (1,):
            return state
        assert 0 in state.awaiting
        services.submit_move(game.pk, user_at(game, 0), bot.choose(state, 0))
    raise AssertionError("bob never was the only one to act")


def mails_of(kind: str) -> list[Any]:
    """The mails sent for notifications of this kind (by their Message-ID)."""
    notes = Notification.objects.filter(kind=kind).select_related("user__player", "game")
    ids = {notifications.render(note).extra_headers["Message-ID"] for note in notes}
    return [m for m in mail.outbox if m.extra_headers.get("Message-ID") in ids]


def time_out_bob(game: Game, bot: RandomBot) -> tuple[rules.GameState, datetime, str, Move]:
    """Let bob's deadline pass: the sweep at that instant makes his move."""
    before = alice_plays_until_only_bob_must_act(game, bot)
    deadline = bob_seat(game).deadline
    assert deadline is not None
    assert timeouts.sweep(now=deadline - timedelta(seconds=1)) == {}
    outcome = timeouts.sweep(now=deadline)
    move = Move.objects.filter(game=game, seat=1).order_by("-number").first()
    assert move is not None
    return before, deadline, next(iter(outcome)), move


def test_reminders_come_before_the_deadline_once_per_threshold(alice: Any, bob: Any) -> None:
    game = timed_game(alice, bob, "minimal")
    alice_plays_until_only_bob_must_act(game, RandomBot(1))
    deadline = bob_seat(game).deadline
    assert deadline is not None
    mail.outbox.clear()

    assert deadlines.send_reminders(now=deadline - timedelta(hours=30)) == 0
    assert deadlines.send_reminders(now=deadline - timedelta(hours=23)) == 1  # 24 h before
    assert deadlines.send_reminders(now=deadline - timedelta(hours=22)) == 0
    assert deadlines.send_reminders(now=deadline - timedelta(hours=1)) == 1  # 2 h before
    assert deadlines.send_reminders(now=deadline - timedelta(minutes=30)) == 0
    assert tasks.send_reminders() == 0  # the beat's task, at the real time: nothing new

    reminders = mails_of("reminder")
    assert [m.to for m in reminders] == [["bob@example.org"], ["bob@example.org"]]
    assert sorted(
        Notification.objects.filter(kind="reminder").values_list("context__hours", flat=True)
    ) == [2, 24]


def test_a_timed_out_pick_and_turn_are_the_minimal_moves(alice: Any, bob: Any) -> None:
    game = timed_game(alice, bob, "minimal")
    bot = RandomBot(2)

    before, _, outcome, move = time_out_bob(game, bot)
    assert before.phase is rules.Phase.DRAFT
    assert outcome == "timed out"
    assert move.payload == {"type": "pick", "seat": 1, "card": before.pool[0]}
    assert move.user is None
    assert bob_seat(game).timeouts_in_row == 1

    before, deadline, outcome, move = time_out_bob(game, bot)
    assert before.phase is rules.Phase.ACTION
    assert outcome == "timed out"
    assert move.payload == {"type": "turn", "seat": 1, "action": "D", "effects": [], "power": None}
    assert timeouts.sweep(now=deadline) == {}  # a second sweep changes nothing
    seat = bob_seat(game)
    assert (seat.timeouts_in_row, seat.bot, seat.handed_to_bot) == (2, "", False)
    game.refresh_from_db()
    assert not game.needs_closing  # the round the timeout completed was closed
    assert game.engine_state().round == 2


def test_the_bot_policy_moves_for_a_player_out_of_time(alice: Any, bob: Any) -> None:
    game = timed_game(alice, bob, "bot")

    before, _, outcome, move = time_out_bob(game, RandomBot(3))

    assert outcome == "timed out"
    assert move.user is None
    assert move.kind == "pick"
    assert move.payload["card"] in before.pool
    assert bob_seat(game).bot == ""  # not handed over yet
    # The move is the strong player's, seeded by the game and the number of moves.
    strong = make_bot("strong", game.seed ^ (move.number - 1)).choose(before, 1)
    assert move.payload == strong.to_json()


def test_the_third_timeout_in_a_row_hands_the_seat_to_the_bot_and_tells_player_and_creator(
    alice: Any, bob: Any
) -> None:
    game = timed_game(alice, bob, "minimal")
    bot = RandomBot(4)
    outcomes = [time_out_bob(game, bot)[2] for _ in range(3)]

    assert outcomes == ["timed out", "timed out", "handed to bot"]
    seat = bob_seat(game)
    assert (seat.bot, seat.handed_to_bot, seat.deadline) == ("strong", True, None)
    handovers = mails_of("handover")
    assert sorted(m.to[0] for m in handovers) == ["alice@example.org", "bob@example.org"]

    # From now on the computer player moves for bob at once: only alice is ever waited for.
    for _ in range(8):
        game.refresh_from_db()
        state = game.engine_state()
        assert 1 not in state.awaiting
        services.submit_move(game.pk, alice, bot.choose(state, 0))
    assert Seat.objects.filter(game=game, deadline__isnull=False).exclude(position=0).count() == 0


def test_a_move_of_his_own_resets_the_count_of_timeouts_in_a_row(alice: Any, bob: Any) -> None:
    game = timed_game(alice, bob, "minimal")
    bot = RandomBot(5)
    time_out_bob(game, bot)
    time_out_bob(game, bot)

    state = alice_plays_until_only_bob_must_act(game, bot)
    services.submit_move(game.pk, bob, bot.choose(state, 1))
    assert bob_seat(game).timeouts_in_row == 0

    outcome = time_out_bob(game, bot)[2]
    assert outcome == "timed out"
    assert bob_seat(game).bot == ""
