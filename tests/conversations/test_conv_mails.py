"""Conversations in the mails: "Bob wrote: …" in the "your move" mail and the digest (one
query for all the games of a mail), and the optional "new message" mail, which follows
the e-mail preferences and quiet hours, reaches nobody who muted or blocked the writer,
and is recorded once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.core import mail

from conversations import mailchat, services
from games import notifications, tasks
from games import services as games
from games.evergreen.rules.bots import RandomBot
from games.models import Game, Notification, Player
from tests.games.gamehelpers import Clock, user_at

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)  # a Monday, winter time


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    return Clock.installed(monkeypatch, T0)


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: Any) -> None:
    monkeypatch.setattr(games.secrets, "randbits", lambda bits: 4242)


def prefer(user: Any, **fields: Any) -> None:
    Player.objects.filter(user=user).update(**fields)


def awaited_and_other(game: Game) -> tuple[Any, Any]:
    game.refresh_from_db()
    seat = game.engine_state().awaiting[0]
    return user_at(game, seat), user_at(game, 1 - seat)


def move(game: Game, user: Any) -> None:
    game.refresh_from_db()
    state = game.engine_state()
    seat = game.seats.get(user=user).position
    games.submit_move(game.pk, user, RandomBot(0).choose(state, seat))


def your_move_mail(game: Game, user: Any) -> Any:
    """The "your move" mail ``user`` would get now, rendered."""
    game.refresh_from_db()
    seat = game.seats.select_related("user__player").get(user=user)
    Notification.objects.filter(user=user, game=game).delete()
    note = notifications.your_move(game, seat, game.engine_state())
    assert note is not None
    return notifications.render(note)


def chat_notes(user: Any) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind="chat").order_by("pk"))


class TestTheYourMoveMail:
    def test_it_shows_what_the_opponent_wrote_since_my_last_move(self, clock, game):
        me, other = awaited_and_other(game)
        services.post_to_game(other, game, "Good luck <3")
        clock.advance(minutes=1)
        services.post_to_game(me, game, "my own words")
        message = your_move_mail(game, me)
        name = other.player.display_name
        assert f"{name} wrote: Good luck <3" in message.body
        assert "my own words" not in message.body
        html = message.alternatives[0][0]
        assert "Good luck &lt;3" in html and "Good luck <3" not in html

    def test_messages_before_my_last_move_are_not_repeated(self, clock, game):
        me, other = awaited_and_other(game)
        services.post_to_game(other, game, "old news")
        clock.advance(minutes=5)
        move(game, me)
        clock.advance(minutes=5)
        services.post_to_game(other, game, "fresh news")
        message = your_move_mail(game, me)
        assert "fresh news" in message.body and "old news" not in message.body

    def test_hidden_muted_and_blocked_writers_stay_out(self, clock, game, superuser):
        me, other = awaited_and_other(game)
        hidden = services.post_to_game(other, game, "rude")
        services.hide(superuser, hidden)
        services.post_to_game(other, game, "polite")
        services.shield(me, other.pk, "mute")
        assert "wrote:" not in your_move_mail(game, me).body
        services.shield(me, other.pk, None)
        body = your_move_mail(game, me).body
        assert "polite" in body and "rude" not in body

    def test_the_lines_of_many_games_come_from_one_query(
        self, clock, alice, bob, django_assert_num_queries
    ):
        made = []
        for _ in range(3):
            g = games.create_game(alice, players=2)
            games.join_game(g.pk, bob)
            services.post_to_game(bob, g, f"hello from {g.pk}")
            made.append(g.pk)
        with django_assert_num_queries(1):
            lines = mailchat.unread(alice, made)
        assert {pk: [line["text"] for line in lines[pk]] for pk in made} == {
            pk: [f"hello from {pk}"] for pk in made
        }


class TestTheDigest:
    def test_each_waiting_game_shows_its_new_messages(self, clock, game):
        me, other = awaited_and_other(game)
        prefer(me, email_mode="digest", digest_hour=13)
        services.post_to_game(other, game, "see you tomorrow")
        clock.now = T0.replace(hour=13)
        assert notifications.send_digests() == 1
        tasks.deliver_due()
        (digest,) = [m for m in mail.outbox if m.to == [me.email]]
        assert f"{other.player.display_name} wrote: see you tomorrow" in digest.body


class TestTheNewMessageMail:
    def test_nobody_gets_it_without_asking(self, clock, game, alice, bob):
        services.post_to_game(alice, game, "hello")
        assert chat_notes(bob) == []

    def test_it_is_sent_once_with_every_message_written_meanwhile(self, clock, game, alice, bob):
        services.set_mail(bob, True)
        first = services.post_to_game(alice, game, "first")
        services.post_to_game(alice, game, "second")
        mailchat.announce(first)  # a retried task: nothing new
        (note,) = chat_notes(bob)
        assert note.status == "pending" and chat_notes(alice) == []
        Notification.objects.exclude(kind="chat").update(status="skipped")  # the game's mails
        tasks.deliver_due()
        (sent,) = [m for m in mail.outbox if m.subject == f"New messages in game #{game.pk}"]
        assert sent.to == [bob.email]
        assert "Alice wrote: first" in sent.body and "Alice wrote: second" in sent.body
        clock.advance(minutes=10)
        services.post_to_game(alice, game, "third")
        assert len(chat_notes(bob)) == 2  # a new mail once the last one went out

    def test_it_waits_for_the_end_of_quiet_hours(self, clock, game, alice, bob):
        services.set_mail(bob, True)
        prefer(bob, quiet_start=11, quiet_end=14, time_zone="UTC")
        services.post_to_game(alice, game, "are you there?")
        (note,) = chat_notes(bob)
        assert note.send_after == T0.replace(hour=14)
        tasks.deliver_due()
        note.refresh_from_db()
        assert note.status == "pending"

    @pytest.mark.parametrize("mode", ["digest", "off"])
    def test_it_follows_the_email_setting(self, clock, game, alice, bob, mode):
        services.set_mail(bob, True)
        prefer(bob, email_mode=mode)
        services.post_to_game(alice, game, "hello")
        assert chat_notes(bob) == []

    @pytest.mark.parametrize("kind", ["mute", "block"])
    def test_nothing_of_a_muted_or_blocked_player_reaches_me(self, clock, game, alice, bob, kind):
        services.set_mail(bob, True)
        services.shield(bob, alice.pk, kind)
        services.post_to_game(alice, game, "hello")
        assert chat_notes(bob) == []
