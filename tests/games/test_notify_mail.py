"""The mails themselves: parts, headers, language, the recap inside, and exactly-once delivery."""

from __future__ import annotations

import contextlib
import smtplib
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from celery.exceptions import Retry
from django.core import mail
from django.core.mail import EmailMultiAlternatives

from games import notifications, services, tasks
from games.evergreen import recap, rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Notification, Player
from tests.games.gamehelpers import Clock, marks_gone, play_until, user_at

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    return Clock.installed(monkeypatch, T0)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: Any) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 4242)


def start(alice: Any, bob: Any, **options: Any) -> Game:
    game = services.create_game(alice, players=2, **options)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def first_note(game: Game) -> tuple[Any, Notification]:
    game.refresh_from_db()
    user = user_at(game, game.engine_state().awaiting[0])
    note = Notification.objects.get(user=user, kind="your_move", status="pending")
    return user, note


@pytest.fixture
def midgame(clock: Clock, alice: Any, bob: Any) -> Game:
    """Season 2 has begun and someone must pick; nothing mailed yet."""
    game = start(alice, bob, days_per_move=1)
    play_until(game, lambda s: s.season == 2 and s.phase.value == "draft")
    Notification.objects.filter(status="pending").update(status="skipped")
    return game


def mail_for_awaited(game: Game) -> tuple[Any, Notification, EmailMultiAlternatives]:
    """Make the one awaited player's decision mail anew (as after a change) and render it."""
    game.refresh_from_db()
    state = game.engine_state()
    seat = game.seats.select_related("user__player").get(position=state.awaiting[0])
    Notification.objects.filter(user=seat.user, game=game).delete()
    note = notifications.your_move(game, seat, state)
    assert note is not None
    return seat.user, note, notifications.render(note)


class TestTheMail:
    def test_it_has_a_subject_plain_text_html_and_a_one_click_link(self, midgame):
        user, _note, message = mail_for_awaited(midgame)
        url = f"http://testserver/games/{midgame.pk}/"
        assert message.subject == f"Your move in Evergreen game #{midgame.pk}"
        assert message.to == [user.email]
        assert "It is your pick in Evergreen game" in message.body
        assert f"Play now: {url}" in message.body
        ((html, mimetype),) = message.alternatives
        assert mimetype == "text/html"
        assert f'href="{url}"' in html and "<html" in html
        assert "Deadline: " in message.body and "(UTC)" in message.body

    def test_it_carries_the_recap_since_the_player_last_acted(self, midgame):
        user, _note, message = mail_for_awaited(midgame)
        seat = midgame.seats.get(user=user)
        lines = [
            line["text"]
            for line in recap.lines(
                recap.for_seat(midgame, seat.position),
                [s.name for s in midgame.seats.order_by("position")],
            )
        ]
        assert lines
        assert "Since your last move:" in message.body
        for text in lines:
            assert text in message.body
        assert "Spring scored:" in message.body
        assert "Now: Summer, round 1, Draft." in message.body
        html = message.alternatives[0][0]
        assert "Since your last move" in html and "Spring scored:" in html

    def test_it_names_no_card_of_the_deck(self, midgame):
        _, _, message = mail_for_awaited(midgame)
        state = midgame.engine_state()
        edition = rules.load_edition()
        for card in state.deck:
            name = recap.card_name(edition, card)
            assert name not in message.body and name not in message.alternatives[0][0]

    def test_it_has_list_unsubscribe_headers_and_a_stable_message_id(self, midgame, client):
        _user, note, message = mail_for_awaited(midgame)
        headers = message.extra_headers
        assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        link = headers["List-Unsubscribe"]
        assert link.startswith("<http://testserver/mail/unsubscribe/") and link.endswith("/>")
        assert link[1:-1] in message.body  # the same link in the footer
        assert headers["Message-ID"] == notifications.message_id(note)
        assert notifications.render(note).extra_headers["Message-ID"] == headers["Message-ID"]
        raw = message.message().as_string()
        assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw
        assert f"Message-ID: {headers['Message-ID']}" in raw

    def test_the_season_and_game_over_mails_show_the_player_s_breakdown(self, clock, alice, bob):
        Player.objects.filter(user=alice).update(email_mode=Player.EmailMode.EVERY_MOVE)
        game = start(alice, bob)
        play_until(game, lambda s: s.is_over)
        state = Game.objects.get(pk=game.pk).engine_state()
        season = Notification.objects.get(user=alice, kind="season", key__endswith=":1")
        message = notifications.render(season)
        s = state.seats[0].seasons[0]
        assert message.subject == f"Spring scored in Evergreen game #{game.pk}"
        assert f"* Alice: Light {s.light}, Forest {s.forest}, Bud {s.bud}" in message.body
        over = notifications.render(Notification.objects.get(user=alice, kind="game_over"))
        assert over.subject == f"Evergreen game #{game.pk} is over"
        for seat, name in ((0, "Alice"), (1, "Bob")):
            assert f"{name}: {state.seats[seat].score}" in over.body
        assert "Winter:" in over.body
        assert (
            f"Fertility at the end of the game:\n  Alice: {state.seats[0].fertility}" in over.body
        )


class TestLanguage:
    def test_the_deadline_is_written_in_the_player_s_language_and_time_zone(self, midgame):
        user, note, _ = mail_for_awaited(midgame)
        assert midgame.seats.get(user=user).deadline == T0 + timedelta(days=1)
        english = notifications.render(note).body
        assert "Deadline: Jan. 7, 2025, noon (UTC)." in english
        Player.objects.filter(user=user).update(language="de", time_zone="Europe/Berlin")
        note = Notification.objects.select_related("user__player").get(pk=note.pk)
        german = notifications.render(note)
        # Django's own German catalogue names the month; the hour is Berlin's.
        assert "7. Januar 2025 13:00 (Europe/Berlin)" in german.body
        assert "7. Januar 2025 13:00" in german.alternatives[0][0]
        assert 'lang="de"' in german.alternatives[0][0]

    def test_the_subject_is_translated_for_a_german_player(self, midgame):
        user, note, english = mail_for_awaited(midgame)
        Player.objects.filter(user=user).update(language="de")
        note = Notification.objects.select_related("user__player").get(pk=note.pk)
        german = notifications.render(note)
        assert english.subject == f"Your move in Evergreen game #{midgame.pk}"
        assert german.subject == f"Du bist am Zug in der Evergreen-Partie Nr. {midgame.pk}"


class TestExactlyOnce:
    def test_a_repeated_change_creates_no_second_notification(self, clock, alice, bob):
        game = start(alice, bob)
        _user, _note = first_note(game)
        state = game.engine_state()
        seats = list(game.seats.select_related("user__player").order_by("position"))
        before = Notification.objects.count()
        notifications.after_change(game, state, state, seats)
        notifications.after_change(game, state, state, seats)
        assert Notification.objects.count() == before
        assert tasks.deliver_due() == 1 and tasks.deliver_due() == 0
        assert len(mail.outbox) == 1

    def test_a_second_delivery_of_the_same_notification_sends_nothing(self, clock, alice, bob):
        game = start(alice, bob)
        _, note = first_note(game)
        assert notifications.deliver(note.pk) == "sent"
        assert notifications.deliver(note.pk) == "not due or already taken"
        assert tasks.deliver_notification.delay(note.pk).get() == "not due or already taken"
        assert len(mail.outbox) == 1

    def test_an_smtp_failure_is_retried_with_backoff_and_sent_exactly_once(
        self, clock, alice, bob, monkeypatch
    ):
        game = start(alice, bob)
        _, note = first_note(game)
        real_send = EmailMultiAlternatives.send
        tried: list[str] = []

        def flaky_send(self: EmailMultiAlternatives, fail_silently: bool = False) -> int:
            tried.append(self.extra_headers["Message-ID"])
            if len(tried) == 1:
                raise smtplib.SMTPServerDisconnected("connection lost")
            return real_send(self, fail_silently)

        monkeypatch.setattr(EmailMultiAlternatives, "send", flaky_send)
        with pytest.raises(smtplib.SMTPServerDisconnected):
            notifications.deliver(note.pk)
        note.refresh_from_db()
        assert note.status == Notification.Status.PENDING
        assert note.attempts == 1 and "SMTPServerDisconnected" in note.last_error
        assert note.send_after == T0 + timedelta(seconds=30)
        assert mail.outbox == []
        assert tasks.deliver_due() == 0  # not due again yet
        clock.advance(seconds=30)
        assert tasks.deliver_due() == 1
        assert tasks.deliver_due() == 0
        note.refresh_from_db()
        assert note.status == Notification.Status.SENT and note.attempts == 2
        assert len(mail.outbox) == 1
        assert tried[0] == tried[1] == mail.outbox[0].extra_headers["Message-ID"]

    def test_the_backoff_grows_and_is_capped(self, clock, alice, bob, monkeypatch):
        game = start(alice, bob)
        _, note = first_note(game)

        def down(self: EmailMultiAlternatives, fail_silently: bool = False) -> int:
            raise smtplib.SMTPConnectError(421, "try later")

        monkeypatch.setattr(EmailMultiAlternatives, "send", down)
        waits = []
        for _ in range(9):
            assert tasks.deliver_due() == 0
            note.refresh_from_db()
            waits.append(note.send_after - clock.now)
            clock.now = note.send_after
        assert waits[:4] == [timedelta(seconds=s) for s in (30, 60, 120, 240)]
        assert waits[-1] == timedelta(hours=1) and note.attempts == 9
        assert note.status == Notification.Status.PENDING  # never given up

    def test_the_celery_task_leaves_a_failed_mail_for_a_later_try(
        self, clock, alice, bob, monkeypatch
    ):
        game = start(alice, bob)
        _, note = first_note(game)
        real_send = EmailMultiAlternatives.send
        calls = []

        def flaky_send(self: EmailMultiAlternatives, fail_silently: bool = False) -> int:
            calls.append(1)
            if len(calls) == 1:
                raise smtplib.SMTPServerDisconnected("connection lost")
            return real_send(self, fail_silently)

        monkeypatch.setattr(EmailMultiAlternatives, "send", flaky_send)
        # Eager mode hands the retry back to the caller; the row is what counts.
        with contextlib.suppress(smtplib.SMTPException, Retry):
            tasks.deliver_notification.delay(note.pk)
        note.refresh_from_db()
        assert note.status == Notification.Status.PENDING and note.attempts == 1
        clock.advance(minutes=1)
        assert tasks.deliver_due() == 1
        assert tasks.deliver_notification.delay(note.pk).get() == "not due or already taken"
        assert len(mail.outbox) == 1

    def test_a_mail_for_a_move_already_made_is_skipped(self, clock, alice, bob):
        game = start(alice, bob)
        user, note = first_note(game)
        state = game.engine_state()
        seat = game.seats.get(user=user).position
        services.submit_move(game.pk, user, RandomBot(0).choose(state, seat))
        assert notifications.deliver(note.pk) == "skipped"
        assert all(m.to != [user.email] for m in mail.outbox)


def without_links(message: EmailMultiAlternatives) -> str:
    """The body without its unsubscribe link (signed with the time: new every second)."""
    return message.body.replace(message.extra_headers["List-Unsubscribe"][1:-1], "")


class TestCost:
    def test_a_your_move_mail_with_its_recap_is_delivered_in_five_queries(
        self, midgame: Game, django_assert_max_num_queries: Any
    ) -> None:
        # claim, the notification with its player, game and seats, the moves of the
        # recap, sent: the worker's cost per mail does not grow with the seats.
        Player.objects.update(email_mode=Player.EmailMode.EVERY_MOVE)  # a mail now
        user, note, _message = mail_for_awaited(midgame)
        mail.outbox.clear()
        with django_assert_max_num_queries(5):
            assert notifications.deliver(note.pk) == "sent"
        (message,) = mail.outbox
        assert message.to == [user.email]
        assert "Since your last move:" in message.body and "Spring scored:" in message.body

    @pytest.mark.usefixtures("kept_users")
    def test_with_users_kept_the_mail_reads_them_from_the_cache_and_says_the_same(
        self, midgame: Game, django_assert_max_num_queries: Any
    ) -> None:
        Player.objects.update(email_mode=Player.EmailMode.EVERY_MOVE)
        user, note, expected = mail_for_awaited(midgame)
        marks_gone()
        notifications.deliver(note.pk)  # the users read once, and kept
        Notification.objects.filter(pk=note.pk).update(status="pending")
        mail.outbox.clear()
        with django_assert_max_num_queries(5) as queries:
            assert notifications.deliver(note.pk) == "sent"
        assert not [q for q in queries.captured_queries if "auth_user" in q["sql"]]
        (message,) = mail.outbox
        assert message.to == [user.email]
        assert message.subject == expected.subject
        assert without_links(message) == without_links(expected)  # links signed each second

    @pytest.mark.usefixtures("kept_users")
    def test_with_users_kept_a_player_who_turned_mail_off_since_gets_none(
        self, midgame: Game
    ) -> None:
        Player.objects.update(email_mode=Player.EmailMode.EVERY_MOVE)
        user, note, _ = mail_for_awaited(midgame)
        marks_gone()
        notifications.deliver(note.pk)  # the users read once, and kept
        Notification.objects.filter(pk=note.pk).update(status="pending")
        mail.outbox.clear()
        user.player.email_mode = Player.EmailMode.OFF
        user.player.save()  # forgets the kept rows
        assert notifications.deliver(note.pk) == "skipped"
        assert mail.outbox == []
