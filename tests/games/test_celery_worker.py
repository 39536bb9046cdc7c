"""Integration: a real Celery worker process, the machine's Redis, a real SMTP server.

The worker (``python -m celery -A evergreen worker``, production settings: tasks are not
eager) works on this test's PostgreSQL database; this process sends it tasks through a
Redis database of its own and plays through ``games.services`` as the web process would.
Mails go over SMTP to an aiosmtpd server that keeps them in memory.

Without Redis these tests are skipped; with ``CI`` set they fail instead.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connections, transaction

from games import notifications, services, tasks
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Notification, Player
from games.services import writes
from tests.games.celeryhelpers import SITE_URL
from tests.games.gamehelpers import user_at
from tests.games.liveworker import UNSENT, Live
from tests.games.racehelpers import waiting_on_locks

# slow: a real Celery worker process, Redis and an SMTP server
pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def every_move(alice: Any, bob: Any, carol: Any) -> None:
    """These tests count a mail for every move: the players chose every-move mail (new
    players' mails are coalesced)."""
    Player.objects.update(email_mode=Player.EmailMode.EVERY_MOVE)


def three_player_game(alice: Any, bob: Any, carol: Any) -> Game:
    game = services.create_game(alice, players=3)
    services.join_game(game.pk, bob)
    services.join_game(game.pk, carol)
    game.refresh_from_db()
    return game


def play(
    live: Live, game: Game, until: Callable[[rules.GameState], bool], bot: RandomBot
) -> list[tuple[int, int]]:
    """Play random legal moves through the services, like players who read each mail
    before moving; returns the (season, round) of every round the worker closed."""
    closed: list[tuple[int, int]] = []
    while True:
        live.settle()
        game.refresh_from_db()
        state = game.engine_state()
        if until(state):
            return closed
        seat = state.awaiting[0]
        last_turn = state.phase is rules.Phase.ACTION and len(state.awaiting) == 1
        services.submit_move(game.pk, user_at(game, seat), bot.choose(state, seat))
        if last_turn:
            live.wait(
                lambda: not Game.objects.filter(pk=game.pk, needs_closing=True).exists(),
                f"the worker to close season {state.season} round {state.round}",
            )
            game.refresh_from_db()
            after = game.engine_state()
            assert (after.season, after.round) != (state.season, state.round)
            closed.append((state.season, state.round))


def by_message_id(notes: Any) -> dict[str, Notification]:
    """These notifications by the Message-ID of their mail, as the worker renders them."""
    return {notifications.render(n).extra_headers["Message-ID"]: n for n in notes}


def assert_each_arrived_once(live: Live, notes: Any) -> None:
    """Every mail of these notifications arrived exactly once, to its player; no other."""
    expected = by_message_id(notes)
    assert live.smtp.message_id_counts() == Counter(dict.fromkeys(expected, 1))
    for received in live.smtp.received():
        assert received.recipients == (expected[received.message_id].user.email,)


def test_a_season_of_a_three_player_game_is_closed_by_the_worker_with_each_mail_once(
    live: Live, alice: Any, bob: Any, carol: Any
) -> None:
    game = three_player_game(alice, bob, carol)

    closed = play(live, game, lambda s: s.season > 1, RandomBot(11))
    live.settle()

    assert closed == [(1, r) for r in range(1, 6)]
    # the worker logs a task's result just after its transaction commits
    live.wait(
        lambda: live.task_results("close_round").count("True") >= 5,
        "the five closings in the worker's log",
    )
    assert live.task_results("close_round").count("True") == 5
    game.refresh_from_db()
    state = game.engine_state()
    assert (state.season, state.round, state.phase) == (2, 1, rules.Phase.DRAFT)

    notes = Notification.objects.filter(game=game).select_related("user__player", "game")
    assert set(notes.values_list("status", flat=True)) == {"sent"}
    keys = set(notes.values_list("key", flat=True))
    for position in range(3):
        for round_number in range(1, 6):
            for phase in ("draft", "action"):
                assert f"move:{game.pk}:{position}:s1r{round_number}{phase}" in keys
        assert f"season:{game.pk}:{position}:1" in keys
    assert Counter(notes.values_list("kind", flat=True)) == {"your_move": 31, "season": 3}
    assert_each_arrived_once(live, notes)

    kinds = {mid: note.kind for mid, note in by_message_id(notes).items()}
    for received in live.smtp.received():
        message = received.message
        text, html = message.get_body(("plain",)), message.get_body(("html",))
        assert text is not None
        assert html is not None
        if kinds[received.message_id] == Notification.Kind.YOUR_MOVE:
            assert f"{SITE_URL}/games/{game.pk}/" in text.get_content()  # one click to play


def test_b_mails_the_smtp_server_refused_are_retried_until_each_arrives_once(
    live: Live, alice: Any, bob: Any
) -> None:
    live.smtp.refuse_next(3)
    for _ in range(3):  # three games: three "your move" mails, each refused once
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
    live.wait(lambda: live.smtp.refused == 3, "the SMTP server to refuse three deliveries")
    # The retries come a second later (NOTIFICATION_RETRY_SECONDS=1 for this worker), so
    # some may already be through; none went out before its refusal.
    assert len(live.smtp.received()) <= 3

    kicked = [0.0]

    def all_sent() -> bool:
        # Beat runs deliver_due every minute; here every second, as a faster beat.
        if time.monotonic() - kicked[0] > 1.0:
            kicked[0] = time.monotonic()
            tasks.deliver_due.delay()
        return not Notification.objects.exclude(status=Notification.Status.SENT).exists()

    live.wait(all_sent, "the refused mails to be retried and sent", timeout=75)
    live.settle()

    notes = Notification.objects.select_related("user__player", "game")
    assert notes.count() == 3
    assert live.smtp.refused == 3
    assert_each_arrived_once(live, notes)
    for note in notes:
        assert note.attempts == 2
        assert "451" in note.last_error


def leave_last_turn_unclosed(live: Live, game: Game, monkeypatch: Any) -> tuple[int, int]:
    """Play to the last turn of season 1 and submit it with the closing task lost."""
    bot = RandomBot(5)

    def last_turn(s: rules.GameState) -> bool:
        return (s.season, s.round, s.phase) == (1, 5, rules.Phase.ACTION) and len(s.awaiting) == 1

    play(live, game, last_turn, bot)
    game.refresh_from_db()
    state = game.engine_state()
    seat = state.awaiting[0]
    with monkeypatch.context() as patch:
        patch.setattr(writes, "schedule_closing", lambda game_id: None)
        services.submit_move(game.pk, user_at(game, seat), bot.choose(state, seat))
    game.refresh_from_db()
    assert game.needs_closing
    assert rules.round_complete(game.engine_state())
    live.wait(
        lambda: not Notification.objects.filter(status__in=UNSENT).exists(),
        "the mails so far to be sent",
    )
    live.smtp.reset()
    return game.version, Notification.objects.order_by("-pk").values_list("pk", flat=True)[0]


def assert_closed_once(live: Live, game: Game, version: int, last_note: int) -> None:
    live.settle()
    game.refresh_from_db()
    assert game.version == version + 1
    state = game.engine_state()
    assert (state.season, state.round, state.phase) == (2, 1, rules.Phase.DRAFT)
    new = Notification.objects.filter(game=game, pk__gt=last_note).select_related(
        "user__player", "game"
    )
    assert Counter(new.values_list("kind", flat=True)) == {"season": 3, "your_move": 1}
    assert Notification.objects.filter(game=game, kind="season").count() == 3
    assert_each_arrived_once(live, new)


def test_c_the_same_closing_run_twice_at_once_closes_the_round_once(
    live: Live, alice: Any, bob: Any, carol: Any, monkeypatch: Any
) -> None:
    game = three_player_game(alice, bob, carol)
    version, last_note = leave_last_turn_unclosed(live, game, monkeypatch)

    results: list[bool] = []
    errors: list[BaseException] = []

    def close() -> None:
        try:
            results.append(tasks.close_round(game.pk))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=close) for _ in range(2)]
    with transaction.atomic():
        # Hold the game row until both closings wait on it: they really run at once.
        Game.objects.select_for_update().get(pk=game.pk)
        for thread in threads:
            thread.start()
        live.wait(lambda: waiting_on_locks() >= 2, "both closings to wait on the game row")
    for thread in threads:
        thread.join(30)

    assert errors == []
    assert sorted(results) == [False, True]
    assert_closed_once(live, game, version, last_note)


def test_c_the_closing_task_sent_twice_to_a_worker_with_two_threads_closes_the_round_once(
    live: Live, alice: Any, bob: Any, carol: Any, monkeypatch: Any
) -> None:
    game = three_player_game(alice, bob, carol)
    version, last_note = leave_last_turn_unclosed(live, game, monkeypatch)
    live.mark()

    tasks.close_round.delay(game.pk)
    tasks.close_round.delay(game.pk)
    live.wait(lambda: len(live.task_results("close_round")) >= 2, "both closing tasks to run")

    assert sorted(live.task_results("close_round")) == ["False", "True"]
    assert_closed_once(live, game, version, last_note)
