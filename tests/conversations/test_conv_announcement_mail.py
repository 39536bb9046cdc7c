"""A club's announcements by mail: each member once, through the outbox (preferences,
quiet hours), never the author, never someone who blocked the author; the discussion is
not mailed."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.core import mail

from conversations import mailclub, services
from games import tasks
from games.models import Notification, Player
from tests.games.gamehelpers import Clock, make_user
from tournaments import services as clubs

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    return Clock.installed(monkeypatch, T0)


def announced_to(club: Any) -> set[str]:
    users = Notification.objects.filter(kind="announcement").values_list(
        "user__username", flat=True
    )
    return set(users)


class TestAnnouncementMails:
    def test_each_member_but_the_author_gets_one(self, clock, club, alice, bob, carol):
        clubs.join_club(club, carol)
        message = services.post_to_club(alice, club, "announce", "Round 2 starts <Monday>")
        assert announced_to(club) == {"bob", "carol"}
        assert mailclub.mail_members(message) == []  # a second call records nothing
        tasks.deliver_due()
        to_bob = next(m for m in mail.outbox if m.to == [bob.email])
        assert to_bob.subject == "An announcement of Pine Club"
        assert "Alice announces to the members of Pine Club:" in to_bob.body
        assert "Round 2 starts <Monday>" in to_bob.body
        html = to_bob.alternatives[0][0]
        assert "Round 2 starts &lt;Monday&gt;" in html

    def test_a_member_who_blocked_the_author_gets_nothing(self, clock, club, alice, bob, carol):
        clubs.join_club(club, carol)
        services.shield(bob, alice.pk, "block")
        services.shield(carol, alice.pk, "mute")  # muting is about chat lines, not this
        services.post_to_club(alice, club, "announce", "News")
        assert announced_to(club) == {"carol"}

    def test_preferences_and_quiet_hours_are_followed(self, clock, club, alice, bob, carol):
        clubs.join_club(club, carol)
        Player.objects.filter(user=bob).update(email_mode="off")
        Player.objects.filter(user=carol).update(quiet_start=11, quiet_end=15)
        services.post_to_club(alice, club, "announce", "News")
        (note,) = Notification.objects.filter(kind="announcement")
        assert note.user == carol and note.send_after == T0.replace(hour=15)

    def test_the_discussion_is_not_mailed(self, clock, club, alice, bob):
        services.post_to_club(bob, club, "discuss", "Anyone for a game?")
        assert announced_to(club) == set()

    def test_it_arrives_in_the_members_language(self, clock, club, alice):
        dora = make_user("dora")
        Player.objects.filter(user=dora).update(language="fr")
        clubs.join_club(club, dora)
        services.post_to_club(alice, club, "announce", "Bonjour")
        tasks.deliver_due()
        (to_dora,) = [m for m in mail.outbox if m.to == [dora.email]]
        assert to_dora.subject == "Une annonce de Pine Club"

    def test_a_larger_club_costs_no_more_queries_to_record(
        self, clock, club, alice, bob, django_assert_num_queries
    ):
        small = services.post_to_club(alice, club, "announce", "One")
        Notification.objects.all().delete()
        with django_assert_num_queries(4):  # the author's name, the members, keys, INSERT
            assert len(mailclub.mail_members(small)) == 1
        for name in ("dora", "emil", "fay", "gus"):
            clubs.join_club(club, make_user(name))
        Notification.objects.all().delete()
        with django_assert_num_queries(4):
            assert len(mailclub.mail_members(small)) == 5
