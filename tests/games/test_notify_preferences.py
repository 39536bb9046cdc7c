"""Who hears what, and when: every move, coalesced, digest, off, quiet hours (eager mode).

The clock is controlled: ``django.utils.timezone.now`` is replaced, so move times,
``send_after`` and delivery all read the same test clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core import mail

from games import deadlines, notifications, services, tasks, timeouts
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Notification, Player
from tests.games.gamehelpers import Clock, play_until, submit, user_at

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)  # a Monday, winter time in Europe and America


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    return Clock.installed(monkeypatch, T0)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: Any) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 4242)


def prefer(user: Any, **fields: Any) -> None:
    Player.objects.filter(user=user).update(**fields)


def start(alice: Any, bob: Any, **options: Any) -> Game:
    game = services.create_game(alice, players=2, **options)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def awaited(game: Game) -> list[Any]:
    game.refresh_from_db()
    return [user_at(game, s) for s in game.engine_state().awaiting]


def move(game: Game, user: Any, seed: int = 0) -> None:
    game.refresh_from_db()
    state = game.engine_state()
    seat = game.seats.get(user=user).position
    assert seat in state.awaiting
    submit(game.pk, user, RandomBot(seed).choose(state, seat))


def mails_to(user: Any) -> list[Any]:
    return [m for m in mail.outbox if m.to == [user.email]]


def notes(user: Any, kind: str | None = None, **filters: Any) -> list[Notification]:
    query = Notification.objects.filter(user=user, **filters)
    if kind:
        query = query.filter(kind=kind)
    return list(query.order_by("pk"))


class TestEveryMove:
    @pytest.fixture(autouse=True)
    def every_move(self, alice: Any, bob: Any) -> None:
        prefer(alice, email_mode="every")
        prefer(bob, email_mode="every")

    def test_the_player_who_must_act_gets_one_mail_at_once_and_the_other_none(
        self, clock, alice, bob
    ):
        game = start(alice, bob)
        (first,) = awaited(game)
        second = bob if first == alice else alice
        assert tasks.deliver_due() == 1
        assert len(mails_to(first)) == 1 and mails_to(second) == []
        assert mails_to(first)[0].subject == f"Your move in Evergreen game #{game.pk}"
        move(game, first)  # committed: its mail is delivered at once, nothing is left over
        assert len(mails_to(second)) == 1 and len(mails_to(first)) == 1
        assert tasks.deliver_due() == 0

    def test_deliveries_happen_when_the_transaction_commits(
        self, clock, alice, bob, django_capture_on_commit_callbacks
    ):
        game = start(alice, bob)
        tasks.deliver_due()
        (first,) = awaited(game)
        second = bob if first == alice else alice
        with django_capture_on_commit_callbacks(execute=True):
            move(game, first)
        assert len(mails_to(second)) == 1
        assert Notification.objects.filter(status=Notification.Status.PENDING).count() == 0


class TestOff:
    def test_off_means_no_mail_of_any_kind(self, clock, alice, bob):
        prefer(alice, email_mode="off")
        prefer(bob, email_mode="off")
        game = start(alice, bob, hours_per_move=2)
        play_until(game, lambda s: s.season == 2)
        clock.advance(hours=1, minutes=30)
        deadlines.send_reminders()
        assert Notification.objects.count() == 0
        assert tasks.deliver_due() == 0 and mail.outbox == []

    def test_a_mail_waiting_when_the_player_turns_mail_off_is_not_sent(self, clock, alice, bob):
        prefer(alice, quiet_start=11, quiet_end=13)  # delays the first mail
        prefer(bob, quiet_start=11, quiet_end=13)
        game = start(alice, bob)
        (first,) = awaited(game)
        (note,) = notes(first, Notification.Kind.YOUR_MOVE)
        prefer(first, email_mode="off")
        clock.advance(hours=2)
        assert tasks.deliver_due() == 0
        note.refresh_from_db()
        assert note.status == Notification.Status.SKIPPED and mail.outbox == []


class TestCoalesced:
    def test_no_mail_for_a_move_already_made_from_an_open_page(self, clock, alice, bob):
        prefer(alice, email_mode="coalesced", email_every_hours=6)
        prefer(bob, email_mode="coalesced", email_every_hours=6)
        game = start(alice, bob)
        (first,) = awaited(game)
        second = bob if first == alice else alice
        assert tasks.deliver_due() == 1  # nobody was active: the first mail goes at once
        clock.advance(minutes=1)
        move(game, first)
        tasks.deliver_due()  # the second picker, idle so far, hears at once
        assert len(mails_to(second)) == 1
        clock.advance(minutes=1)
        move(game, second)  # the Draft is over: both plan their turns
        waiting = notes(first, "your_move", status="pending")
        assert len(waiting) == 1
        assert waiting[0].send_after == T0 + timedelta(minutes=1, hours=6)
        clock.advance(minutes=1)
        move(game, first)  # played from the open page, within the window
        move(game, second)
        clock.advance(hours=7)
        outbox_before = len(mail.outbox)
        tasks.deliver_due()
        sent_now = mail.outbox[outbox_before:]
        # Only a decision still open may be mailed; the turns already made are not.
        for note in Notification.objects.filter(key__endswith="s1r1action"):
            assert note.status == Notification.Status.SKIPPED
        game.refresh_from_db()
        still = awaited(game)
        assert {tuple(m.to) for m in sent_now} == {(u.email,) for u in still}

    def test_decisions_within_the_window_make_one_mail(self, clock, alice, bob):
        prefer(alice, email_mode="coalesced", email_every_hours=6)
        game = start(alice, bob)
        # Two rounds, everyone moving from their page every few minutes.
        alice_moved = None
        mails_before = 0
        while game.engine_state().round < 3 or alice not in awaited(game):
            clock.advance(minutes=3)
            user = awaited(game)[0]
            move(game, user, seed=len(Notification.objects.all()))
            if user == alice:
                if alice_moved is None:  # active from now on: no more mail for a while
                    mails_before = len(mails_to(alice))
                alice_moved = clock.now
            assert len(notes(alice, "your_move", status="pending")) <= 1
            tasks.deliver_due()
        assert len(mails_to(alice)) == mails_before == 1  # only before she was active
        assert notes(alice, "your_move", status="skipped")  # earlier ones were replaced
        (pending,) = notes(alice, "your_move", status="pending")
        assert alice_moved is not None
        assert pending.send_after == alice_moved + timedelta(hours=6)
        clock.now = pending.send_after - timedelta(seconds=1)
        assert tasks.deliver_due() == 0
        clock.now = pending.send_after
        assert tasks.deliver_due() == 1
        assert len(mails_to(alice)) == mails_before + 1
        body = mails_to(alice)[-1].body
        assert "Since your last move:" in body and "revealed" in body

    def test_a_recent_mail_also_holds_the_next_one_back(self, clock, alice, bob):
        # No move from a page at all: the window runs from the last mail sent.
        prefer(alice, email_mode="coalesced", email_every_hours=6)
        prefer(bob, email_mode="coalesced", email_every_hours=6)
        game = start(alice, bob, hours_per_move=1, timeout_policy="minimal")
        (first,) = awaited(game)
        second = bob if first == alice else alice
        tasks.deliver_due()
        assert len(mails_to(first)) == 1
        clock.advance(hours=1, minutes=1)
        timeouts.sweep()  # the first pick times out
        tasks.deliver_due()
        clock.advance(minutes=1)
        move(game, second)
        (pending,) = notes(first, "your_move", status="pending")
        assert pending.send_after == T0 + timedelta(hours=6)

    def test_season_scores_are_left_to_the_recap(self, clock, alice, bob):
        prefer(alice, email_mode="coalesced")
        prefer(bob, email_mode="every")
        game = start(alice, bob)
        play_until(game, lambda s: s.season == 2)
        assert notes(alice, "season") == []
        assert len(notes(bob, "season")) == 1


class TestDigest:
    def test_the_digest_comes_at_the_player_s_hour_in_their_zone_once_a_day(
        self, clock, alice, bob
    ):
        prefer(alice, email_mode="digest", digest_hour=8, time_zone="America/New_York")
        game = start(alice, bob)
        if alice not in awaited(game):
            move(game, bob)
        assert alice in awaited(game)
        assert notes(alice, "your_move") == []  # no mail per move
        # 08:00 UTC is 03:00 in New York: not yet.
        assert notifications.send_digests(datetime(2025, 1, 7, 8, 0, tzinfo=UTC)) == 0
        clock.now = datetime(2025, 1, 7, 13, 0, tzinfo=UTC)  # 08:00 in New York
        assert notifications.send_digests() == 1
        clock.advance(minutes=5)
        assert notifications.send_digests() == 0  # the beat runs again within the hour
        assert tasks.deliver_due() == 1
        (digest,) = mails_to(alice)
        assert digest.subject == "Evergreen: 1 game waits for you"
        assert f"http://testserver/games/{game.pk}/" in digest.body
        assert "Now: Spring, round 1" in digest.body
        clock.now = datetime(2025, 1, 8, 13, 0, tzinfo=UTC)
        assert notifications.send_digests() == 1  # the next day
        # Summer time: 08:00 in New York is 12:00 UTC.
        clock.now = datetime(2025, 7, 1, 12, 0, tzinfo=UTC)
        assert notifications.send_digests() == 1

    def test_no_digest_without_a_game_waiting(self, clock, alice, bob):
        prefer(bob, email_mode="digest", digest_hour=12)
        game = start(alice, bob)
        if bob in awaited(game):
            move(game, bob)
        assert bob not in awaited(game)
        assert notifications.send_digests() == 0


class TestQuietHours:
    def test_a_mail_due_in_quiet_hours_across_midnight_waits_for_their_end(self, clock, alice, bob):
        for user in (alice, bob):
            prefer(user, quiet_start=22, quiet_end=7, time_zone="Europe/Berlin")
        clock.now = datetime(2025, 1, 6, 22, 30, tzinfo=UTC)  # 23:30 in Berlin
        game = start(alice, bob)
        (first,) = awaited(game)
        (note,) = notes(first, "your_move")
        assert note.send_after == datetime(2025, 1, 7, 6, 0, tzinfo=UTC)  # 07:00 in Berlin
        clock.advance(hours=7)  # 06:30 in Berlin
        assert tasks.deliver_due() == 0
        clock.now = datetime(2025, 1, 7, 6, 0, tzinfo=UTC)
        assert tasks.deliver_due() == 1 and len(mails_to(first)) == 1

    def test_quiet_hours_are_read_in_the_player_s_zone(self):
        player = Player(quiet_start=22, quiet_end=7, time_zone="Europe/Berlin")
        winter = datetime(2025, 1, 6, tzinfo=UTC)
        assert notifications.quiet_until(player, winter.replace(hour=20, minute=59)) is None
        assert notifications.quiet_until(player, winter.replace(hour=21)) == datetime(
            2025, 1, 7, 6, tzinfo=UTC
        )
        assert notifications.quiet_until(player, winter.replace(hour=5, minute=59)) == (
            winter.replace(hour=6)
        )
        assert notifications.quiet_until(player, winter.replace(hour=6)) is None
        day = Player(quiet_start=9, quiet_end=17, time_zone="UTC")
        assert notifications.quiet_until(day, winter.replace(hour=8)) is None
        assert notifications.quiet_until(day, winter.replace(hour=12)) == winter.replace(hour=17)
        assert notifications.quiet_until(day, winter.replace(hour=17)) is None
        for start, end in [(None, 7), (22, None), (5, 5)]:
            none = Player(quiet_start=start, quiet_end=end, time_zone="UTC")
            assert notifications.quiet_until(none, winter.replace(hour=5)) is None

    def test_quiet_hours_set_after_a_mail_was_scheduled_still_hold_it_back(self, clock, alice, bob):
        game = start(alice, bob)
        (first,) = awaited(game)
        (note,) = notes(first, "your_move")
        prefer(first, quiet_start=11, quiet_end=14)
        assert notifications.deliver(note.pk) == "deferred"
        note.refresh_from_db()
        assert note.status == Notification.Status.PENDING
        assert note.send_after == T0.replace(hour=14) and mail.outbox == []


class TestSeasonAndGameOver:
    def test_each_mode_hears_about_seasons_and_the_end_as_documented(self, clock, alice, bob):
        prefer(alice, email_mode="every")
        prefer(bob, email_mode="coalesced")
        game = start(alice, bob)
        play_until(game, lambda s: s.is_over)
        seasons = [n.context["scored_season"] for n in notes(alice, "season")]
        assert seasons == [1, 2, 3]  # the fourth is in the game-over mail
        assert notes(bob, "season") == []
        assert len(notes(alice, "game_over")) == 1 and len(notes(bob, "game_over")) == 1
        tasks.deliver_due()
        (over,) = [m for m in mails_to(alice) if "is over" in m.subject]
        assert "Final scores:" in over.body and "Winter" in over.body

    def test_a_digest_player_finds_the_finished_game_in_the_digest(self, clock, alice, bob):
        prefer(alice, email_mode="digest", digest_hour=13)
        game = start(alice, bob)
        play_until(game, lambda s: s.is_over)
        assert notes(alice, "game_over") == [] and notes(alice, "season") == []
        clock.now = T0.replace(hour=13)
        assert notifications.send_digests() == 1
        tasks.deliver_due()
        (digest,) = mails_to(alice)
        assert "Finished since yesterday:" in digest.body
        assert f"http://testserver/games/{game.pk}/" in digest.body
