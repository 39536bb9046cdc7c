"""A move's mails are recorded together: their queries do not grow with the players told, and
a change made again (a retried request, a repeated closing) records and schedules nothing,
even when two transactions record the same mail at once."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from games import notifications, services
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Notification, Player
from tests.games.gamehelpers import make_user, user_at
from tests.games.racehelpers import wait_for, waiting_on_locks


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: Any) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 4242)


def four_player_game(*names: str) -> Game:
    people = [make_user(name) for name in names]
    game = services.create_game(people[0], players=len(people))
    for person in people[1:]:
        services.join_game(game.pk, person)
    game.refresh_from_db()
    return game


@pytest.fixture
def game(db: Any) -> Game:
    return four_player_game("ann", "ben", "cat", "dan")


def next_pick(game: Game) -> tuple[Any, Any]:
    """The state before the awaited player's pick and after it (not submitted)."""
    game.refresh_from_db()
    state = game.engine_state()
    seat = state.awaiting[0]
    return state, rules.apply(state, RandomBot(seat).choose(state, seat))


def the_pick_that_ends_the_draft(game: Game) -> tuple[Any, Any]:
    """Picks made until the next one ends the draft: the states before and after that one."""
    while True:
        before, after = next_pick(game)
        if after.phase is not rules.Phase.DRAFT:
            return before, after
        seat = before.awaiting[0]
        services.submit_move(game.pk, user_at(game, seat), RandomBot(seat).choose(before, seat))


def told(game: Game, before: Any, after: Any) -> tuple[int, list[Notification]]:
    """The queries of the mails of the change from ``before`` to ``after``, and its new mails."""
    seats = list(game.seats.select_related("user__player").order_by("position"))
    known = set(Notification.objects.values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as queries:
        notifications.after_change(game, before, after, seats)
    return len(queries), list(Notification.objects.exclude(pk__in=known).order_by("key"))


def every_move() -> None:
    Player.objects.update(email_mode=Player.EmailMode.EVERY_MOVE)


class TestQueries:
    def test_telling_four_players_it_is_their_move_costs_the_queries_of_telling_one(self, game):
        one_query_count, one = told(game, *next_pick(game))
        four_query_count, four = told(game, *the_pick_that_ends_the_draft(game))
        assert [n.kind for n in one] == ["your_move"]
        assert [n.kind for n in four] == ["your_move"] * 4
        # when they last acted, the keys recorded already, the new rows, the mails replaced
        assert one_query_count == four_query_count == 4

    def test_players_mailed_at_every_move_cost_two_queries_however_many(
        self, game, django_capture_on_commit_callbacks
    ):
        every_move()
        before, after = the_pick_that_ends_the_draft(game)
        with django_capture_on_commit_callbacks() as deliveries:
            query_count, four = told(game, before, after)
        assert len(four) == 4 and query_count == 2  # the keys recorded already, one INSERT
        assert len(deliveries) == 4  # each delivered once the move commits

    def test_each_coalesced_player_s_new_mail_replaces_the_one_waiting(self, game):
        game.refresh_from_db()
        first = game.engine_state().awaiting[0]
        waiting = Notification.objects.get(status="pending")  # the first pick's, at the start
        _, four = told(game, *the_pick_that_ends_the_draft(game))
        waiting.refresh_from_db()
        assert waiting.status == "skipped"
        mine = next(n for n in four if n.context["seat"] == first)
        assert waiting.last_error == f"replaced by {mine.key}"
        pending = Notification.objects.filter(game=game, status="pending")
        assert sorted(pending.values_list("key", flat=True)) == [n.key for n in four]


class TestOnce:
    def test_a_repeated_change_records_nothing_and_schedules_nothing(
        self, game, django_capture_on_commit_callbacks
    ):
        every_move()
        before, _ = the_pick_that_ends_the_draft(game)
        seat = before.awaiting[0]
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True) as first:
            pick = RandomBot(seat).choose(before, seat)
            services.submit_move(game.pk, user_at(game, seat), pick)
        game.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True) as again:
            query_count, none = told(game, before, game.engine_state())
        assert len(first) == 4
        assert none == [] and again == [] and query_count == 1  # the keys: all there
        assert sorted(m.to[0] for m in mail.outbox if "Your move" in m.subject) == [
            "ann@example.org",
            "ben@example.org",
            "cat@example.org",
            "dan@example.org",
        ]

    def test_the_single_mail_functions_record_once_too(self, game):
        game.refresh_from_db()
        state = game.engine_state()
        seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
        Notification.objects.all().delete()
        assert notifications.your_move(game, seat, state) is not None
        assert notifications.your_move(game, seat, state) is None
        assert Notification.objects.count() == 1


@pytest.mark.skipif(
    getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
    reason="row locks need PostgreSQL",
)
@pytest.mark.django_db(transaction=True)
def test_the_same_mail_recorded_by_two_transactions_at_once_is_one_row_and_one_mail() -> None:
    # No game lock here: the second transaction reads the keys before the first commits,
    # its INSERT then waits for the first's row and takes it as it stands.
    game = four_player_game("eve", "fay", "gus", "hal")
    every_move()
    game.refresh_from_db()
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Notification.objects.all().delete()
    mail.outbox.clear()
    results: dict[str, Any] = {}

    def second() -> None:
        try:
            with transaction.atomic():
                results["note"] = notifications.your_move(game, seat, state)
        except BaseException as exc:
            results["note"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=second)
    with transaction.atomic():
        first = notifications.your_move(game, seat, state)
        thread.start()
        wait_for(lambda: waiting_on_locks() >= 1, "the second INSERT to wait for the first row")
    thread.join(60)

    assert first is not None and isinstance(results["note"], Notification), results
    assert results["note"].pk == first.pk
    assert Notification.objects.count() == 1
    assert [m.to for m in mail.outbox] == [[seat.user.email]]


@pytest.mark.django_db(transaction=True)
def test_a_move_whose_mail_cannot_be_queued_still_commits_and_answers(
    game: Game, monkeypatch: Any
) -> None:
    """The broker unreachable when the move commits: the mail waits for the beat task
    (``deliver_due``), and the move is not turned into an error by the failed send."""
    from celery import current_app
    from kombu.exceptions import OperationalError

    from games.outbox import DELIVER_TASK

    def unreachable(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(current_app.tasks[DELIVER_TASK], "delay", unreachable)
    before, _after = next_pick(game)
    seat = before.awaiting[0]
    services.submit_move(game.pk, user_at(game, seat), RandomBot(seat).choose(before, seat))
    game.refresh_from_db()
    assert game.moves.count() == 1
    assert Notification.objects.filter(game=game, status=Notification.Status.PENDING).exists()
