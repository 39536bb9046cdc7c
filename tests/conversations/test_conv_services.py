"""The rules of conversations, through the services: who reads and writes where, limits,
reports, hiding, mute and block."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import DatabaseError

from conversations import access, reading, services
from conversations.models import MAX_LENGTH, Message, Report
from conversations.shields import may_invite
from games.ratelimit import RateLimited
from games.services import ServiceError
from tests.tournaments.tourhelpers import current_tables, event_with, make_players
from tournaments import services as clubs


def texts(game: Any, reader: Any, **kwargs: Any) -> list[str]:
    return [line.text for line in reading.lines(reading.game_messages(game.pk), reader, **kwargs)]


class TestTheGameChat:
    def test_the_players_write_and_read_it_in_order(self, game, alice, bob):
        services.post_to_game(alice, game, "Good luck!")
        services.post_to_game(bob, game, "  You too.  ")
        services.post_to_game(alice, game, "Thanks")
        assert texts(game, bob) == ["Good luck!", "You too.", "Thanks"]
        lines = reading.lines(reading.game_messages(game.pk), alice)
        assert [(line.name, line.mine) for line in lines] == [
            ("Alice", True),
            ("Bob", False),
            ("Alice", True),
        ]

    def test_someone_without_a_seat_cannot_write(self, game, carol):
        with pytest.raises(ServiceError) as refused:
            services.post_to_game(carol, game, "Hello")
        assert refused.value.code == "not_a_player"
        assert refused.value.status == 403
        assert not Message.objects.exists()

    def test_spectators_read_only_when_the_creator_allowed_it(self, game, alice, carol):
        services.post_to_game(alice, game, "Just us")
        assert not access.may_read_game(carol, game)
        with pytest.raises(ServiceError) as refused:
            access.check_read_game(carol, game)
        assert refused.value.code == "chat_private"
        services.set_spectators_read(game, True)
        assert access.may_read_game(carol, game)
        assert not access.may_write_game(carol, game)

    def test_a_game_of_a_club_event_is_read_by_the_clubs_organizers(self, alice):
        players = make_players(2)
        event = event_with(alice, players, table_size=2, min_table_size=2, rounds=1)
        clubs.start_event(event, alice)
        table = current_tables(event)[0]
        services.post_to_game(players[0], table.game, "Hi")
        assert access.club_of_game(table.game) == event.club
        assert access.may_read_game(alice, table.game)
        assert not access.may_write_game(alice, table.game)


class TestLimits:
    def test_an_empty_message_is_refused(self, game, alice):
        with pytest.raises(ServiceError) as refused:
            services.post_to_game(alice, game, "   \n ")
        assert refused.value.code == "message_empty"
        assert not Message.objects.exists()

    def test_a_message_longer_than_the_limit_is_refused_and_says_how_long(self, game, alice):
        services.post_to_game(alice, game, "x" * MAX_LENGTH)
        with pytest.raises(ServiceError) as refused:
            services.post_to_game(alice, game, "x" * (MAX_LENGTH + 1))
        assert refused.value.code == "message_too_long"
        assert str(MAX_LENGTH + 1) in refused.value.message
        assert Message.objects.count() == 1

    def test_posting_faster_than_the_rate_is_refused_with_the_wait(
        self, game, alice, bob, settings
    ):
        settings.CHAT_RATE_LIMIT = "2/minute"
        cache.clear()
        services.post_to_game(alice, game, "one")
        services.post_to_game(alice, game, "two")
        with pytest.raises(RateLimited) as refused:
            services.post_to_game(alice, game, "three")
        assert refused.value.code == "rate_limited"
        assert refused.value.status == 429
        assert refused.value.retry_after >= 1
        services.post_to_game(bob, game, "each player has a limit of their own")
        assert texts(game, alice) == ["one", "two", "each player has a limit of their own"]


class TestHiding:
    def test_staff_hide_a_message_from_everyone_and_its_reports_are_dealt_with(
        self, game, alice, bob, superuser
    ):
        message = services.post_to_game(bob, game, "rude words")
        services.report(alice, message, "rude")
        services.hide(superuser, message)
        assert texts(game, alice) == []
        assert texts(game, bob) == []
        assert texts(game, superuser, see_hidden=True) == ["rude words"]
        assert Report.objects.get().resolved

    def test_a_hiding_that_fails_half_way_leaves_the_message_shown(
        self, game, alice, bob, superuser, monkeypatch
    ):
        message = services.post_to_game(bob, game, "rude words")
        services.report(alice, message, "rude")

        def broken(*args: Any, **kwargs: Any) -> Any:
            raise DatabaseError("the reports could not be written")

        monkeypatch.setattr(Report.objects, "filter", broken)
        with pytest.raises(DatabaseError):
            services.hide(superuser, message)
        monkeypatch.undo()
        message.refresh_from_db()
        assert not message.hidden and message.hidden_by is None
        assert texts(game, alice) == ["rude words"]

    def test_a_player_cannot_hide_their_opponents_message(self, game, alice, bob):
        message = services.post_to_game(bob, game, "hello")
        with pytest.raises(ServiceError) as refused:
            services.hide(alice, message)
        assert refused.value.code == "not_a_moderator"
        message.refresh_from_db()
        assert not message.hidden

    def test_organizers_hide_in_their_club_only(self, club, alice, bob, carol):
        message = services.post_to_club(bob, club, "discuss", "spam")
        other = clubs.create_club(carol, "Oak Club")
        elsewhere = services.post_to_club(carol, other, "discuss", "hello oaks")
        services.hide(alice, message)
        with pytest.raises(ServiceError):
            services.hide(alice, elsewhere)
        elsewhere.refresh_from_db()
        assert message.hidden and not elsewhere.hidden


class TestReports:
    def test_a_report_is_recorded_once_per_reader_with_the_club_that_deals_with_it(
        self, club, alice, bob
    ):
        message = services.post_to_club(alice, club, "discuss", "Meeting at 8")
        first = services.report(bob, message, "  wrong time ")
        again = services.report(bob, message, "twice")
        assert first.pk == again.pk
        assert (first.club, first.reason) == (club, "wrong time")

    def test_a_friendly_games_report_goes_to_staff_only(self, game, alice, bob):
        report = services.report(alice, services.post_to_game(bob, game, "hm"))
        assert report.club is None

    def test_nobody_reports_their_own_message_or_one_they_cannot_read(
        self, game, alice, bob, carol
    ):
        message = services.post_to_game(bob, game, "mine")
        with pytest.raises(ServiceError) as own:
            services.report(bob, message)
        with pytest.raises(ServiceError) as unseen:
            services.report(carol, message)
        assert (own.value.code, unseen.value.code) == ("own_message", "no_such_message")
        assert not Report.objects.exists()


class TestMuteAndBlock:
    def test_a_blocked_players_messages_are_hidden_from_me_only(self, game, alice, bob):
        services.post_to_game(bob, game, "before")
        services.shield(alice, bob.pk, "block")
        services.post_to_game(bob, game, "after")
        services.post_to_game(alice, game, "mine")
        assert texts(game, alice) == ["mine"]
        assert texts(game, bob) == ["before", "after", "mine"]
        services.shield(alice, bob.pk, None)
        assert texts(game, alice) == ["before", "after", "mine"]

    def test_muting_keeps_their_messages_on_my_page(self, game, alice, bob):
        services.post_to_game(bob, game, "still here")
        services.shield(alice, bob.pk, "mute")
        assert texts(game, alice) == ["still here"]

    def test_a_blocked_player_cannot_invite_me(self, alice, bob):
        assert may_invite(bob, alice)
        services.shield(alice, bob.pk, "block")
        assert not may_invite(bob, alice)
        assert may_invite(alice, bob)  # the block is mine: I may still invite them

    def test_one_cannot_block_oneself_nor_a_player_who_does_not_exist(self, alice):
        with pytest.raises(ServiceError) as self_block:
            services.shield(alice, alice.pk, "block")
        with pytest.raises(ServiceError) as nobody:
            services.shield(alice, 10**9, "block")
        assert (self_block.value.code, nobody.value.code) == ("self", "no_such_player")


class TestClubChannels:
    def test_only_organizers_announce_and_everyone_reads_a_public_clubs_news(
        self, club, alice, bob, carol
    ):
        services.post_to_club(alice, club, "announce", "Season 2 starts Monday")
        with pytest.raises(ServiceError) as refused:
            services.post_to_club(bob, club, "announce", "me too")
        assert refused.value.code == "not_an_organizer"
        assert access.may_read_club(carol, club, "announce")

    def test_the_discussion_is_for_members(self, club, bob, carol):
        services.post_to_club(bob, club, "discuss", "Anyone for a friendly?")
        with pytest.raises(ServiceError) as refused:
            services.post_to_club(carol, club, "discuss", "let me in")
        assert refused.value.code == "not_a_member"
        assert not access.may_read_club(carol, club, "discuss")
        clubs.join_club(club, carol)
        assert access.may_read_club(carol, club, "discuss")

    def test_there_are_two_channels_only(self, club, alice):
        with pytest.raises(ServiceError) as refused:
            services.post_to_club(alice, club, "game", "x")
        assert refused.value.code == "no_such_channel"
