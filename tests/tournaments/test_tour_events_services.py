"""Clubs, registration and the event's life cycle through the services: what each write
does, and the stable code of every refusal (with nothing changed)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from games import notifications
from games.models import Game, Notification
from games.services import Conflict, NotAPlayer, ServiceError
from tests.games.gamehelpers import make_user
from tests.tournaments.tourhelpers import (
    current_tables,
    event_with,
    finish_by_bots,
    make_players,
    play_round,
)
from tournaments import services
from tournaments.models import Club, Event, JoinRequest, Membership, Registration, Round


def _code(exc_info: Any) -> str:
    return exc_info.value.code


class TestClubs:
    def test_the_creator_organizes_a_new_club_and_gets_the_admin(self, alice: Any) -> None:
        club = services.create_club(alice, "Pine Club", "We play on Sundays")
        assert club.slug == "pine-club" and club.is_public
        assert club.is_organizer(alice)
        alice.refresh_from_db()
        assert alice.is_staff
        again = services.create_club(alice, "Pine Club")
        assert again.slug == "pine-club-2"

    def test_reserved_and_taken_slugs_are_refused(self, alice: Any) -> None:
        assert services.create_club(alice, "New").slug == "new-2"
        with pytest.raises(Conflict) as taken:
            services.create_club(alice, "Invitations", slug="invite")
        assert _code(taken) == "slug_taken"
        with pytest.raises(ServiceError) as bad:
            services.create_club(alice, "X", slug="Not a slug")
        assert _code(bad) == "bad_slug"
        with pytest.raises(ServiceError) as nameless:
            services.create_club(alice, "   ")
        assert _code(nameless) == "bad_name"
        assert Club.objects.count() == 1

    def test_joining_a_public_club_and_an_invite_only_one(
        self, alice: Any, bob: Any, carol: Any
    ) -> None:
        public = services.create_club(alice, "Open Club")
        services.join_club(public, bob)
        assert public.is_member(bob) and not public.is_organizer(bob)
        with pytest.raises(Conflict) as twice:
            services.join_club(public, bob)
        assert _code(twice) == "already_member"

        private = services.create_club(alice, "Closed Club", invite_only=True)
        with pytest.raises(NotAPlayer) as closed:
            services.join_club(private, bob)
        assert _code(closed) == "club_invite_only"
        request = services.request_to_join(private, bob, "Hello!")
        with pytest.raises(Conflict) as again:
            services.request_to_join(private, bob)
        assert _code(again) == "already_requested"
        with pytest.raises(NotAPlayer):
            services.decide_join_request(request, carol, accept=True)
        services.decide_join_request(request, alice, accept=True)
        request.refresh_from_db()
        assert request.status == JoinRequest.Status.ACCEPTED and request.decided_by == alice
        assert private.is_member(bob)
        with pytest.raises(Conflict) as decided:
            services.decide_join_request(request, alice, accept=False)
        assert _code(decided) == "already_decided"

        declined = services.request_to_join(private, carol)
        services.decide_join_request(declined, alice, accept=False)
        assert not private.is_member(carol)

    def test_invitation_links(self, alice: Any, bob: Any, carol: Any) -> None:
        club = services.create_club(alice, "Closed Club", invite_only=True)
        with pytest.raises(NotAPlayer) as bad:
            services.join_by_invite("nope", bob)
        assert _code(bad) == "bad_invite"
        old = club.invite_code
        services.join_by_invite(old, bob)
        assert club.is_member(bob)
        club = services.new_invite_code(club, alice)
        assert club.invite_code != old
        with pytest.raises(NotAPlayer):
            services.join_by_invite(old, carol)
        with pytest.raises(NotAPlayer):
            services.new_invite_code(club, bob)

    def test_roles_and_leaving(self, alice: Any, bob: Any) -> None:
        club = services.create_club(alice, "Pine Club")
        services.join_club(club, bob)
        with pytest.raises(Conflict) as last:
            services.leave_club(club, alice)
        assert _code(last) == "last_organizer"
        with pytest.raises(NotAPlayer):
            services.set_role(club, alice, Membership.Role.MEMBER, bob)
        services.set_role(club, bob, Membership.Role.ORGANIZER, alice)
        bob.refresh_from_db()
        assert club.is_organizer(bob) and bob.is_staff
        with pytest.raises(ServiceError) as role:
            services.set_role(club, bob, "king", alice)
        assert _code(role) == "bad_role"
        services.leave_club(club, alice)
        alice.refresh_from_db()
        assert not club.is_member(alice) and not alice.is_staff
        with pytest.raises(Conflict) as gone:
            services.leave_club(club, alice)
        assert _code(gone) == "not_member"


class TestEventSettings:
    @pytest.mark.parametrize(
        ("fields", "code"),
        [
            ({"format": "swiss", "rounds": None}, "bad_rounds"),
            ({"table_size": 5}, "bad_table_size"),
            ({"table_size": 3, "min_table_size": 4}, "bad_min_table_size"),
            ({"days_per_move": 4}, "bad_time_control"),
            ({"hours_per_move": 100}, "bad_time_control"),
            ({"points_scheme": [1, 3]}, "bad_points_scheme"),
            ({"points_scheme": ["a"]}, "bad_points_scheme"),
            ({"tiebreaks": ["luck"]}, "bad_tiebreaks"),
            ({"tiebreaks": ["score", "score"]}, "bad_tiebreaks"),
            ({"format": "knockout", "knockout_advance": 4}, "bad_advance"),
            ({"timeout_policy": "coin"}, "bad_timeout_policy"),
            ({"bye_points": -1}, "bad_bye_points"),
            ({"colour": "green"}, "bad_field"),
        ],
    )
    def test_bad_settings_are_refused_and_nothing_is_saved(
        self, alice: Any, fields: dict[str, Any], code: str
    ) -> None:
        club = services.create_club(alice, "Pine Club")
        with pytest.raises(ServiceError) as refused:
            services.create_event(club, alice, **{"name": "Open", "rounds": 3, **fields})
        assert _code(refused) == code and refused.value.message
        assert not Event.objects.exists()

    def test_a_registration_window_and_membership_rules(
        self, alice: Any, bob: Any, carol: Any
    ) -> None:
        club = services.create_club(alice, "Pine Club", invite_only=True)
        now = timezone.now()
        event = services.create_event(
            club,
            alice,
            name="Winter Swiss",
            rounds=3,
            registration_opens=now + timedelta(days=1),
            registration_closes=now + timedelta(days=3),
        )
        assert event.slug == "winter-swiss" and event.seed
        with pytest.raises(Conflict) as draft:
            services.register(event, bob)
        assert _code(draft) == "registration_closed"
        services.open_registration(event, alice)
        with pytest.raises(Conflict) as early:
            services.register(event, bob)
        assert _code(early) == "registration_closed"
        later = now + timedelta(days=2)
        with pytest.raises(NotAPlayer) as outsider:
            services.register(event, bob, now=later)
        assert _code(outsider) == "not_member"
        services.join_by_invite(club.invite_code, bob)
        services.register(event, bob, now=later)
        with pytest.raises(Conflict) as twice:
            services.register(event, bob, now=later)
        assert _code(twice) == "already_registered"
        with pytest.raises(Conflict) as late:
            services.register(event, bob, now=now + timedelta(days=4))
        assert _code(late) == "registration_closed"

    def test_a_public_clubs_event_makes_its_players_members(self, alice: Any, bob: Any) -> None:
        event = event_with(alice, [bob], rounds=1)
        assert event.club.is_member(bob)


class TestRunning:
    def test_starting_needs_an_organizer_and_enough_players(self, alice: Any, bob: Any) -> None:
        players = make_players(2)
        event = event_with(alice, players, rounds=1, table_size=4, min_table_size=3)
        with pytest.raises(NotAPlayer):
            services.start_event(event, bob)
        with pytest.raises(Conflict) as few:
            services.start_event(event, alice)
        assert _code(few) == "too_few_players"
        services.register(event, make_user("third"))
        mail.outbox.clear()
        first = services.start_event(event, alice)
        assert first.number == 1
        with pytest.raises(Conflict) as twice:
            services.start_event(event, alice)
        assert _code(twice) == "already_started"
        [table] = current_tables(event)
        assert table.game.status == Game.Status.ACTIVE
        assert table.game.created_by == alice  # hand-over mails reach the organizer
        # Each player's "you play at table 1" notification, rendered in full.
        notes = Notification.objects.filter(kind=Notification.Kind.EVENT_TABLE)
        assert notes.count() == 3
        message = notifications.render(notes.first())
        assert message.subject == "Spring Open, round 1: you play at table 1"
        html = message.alternatives[0][0]
        assert "Pine Club" in message.body and f"/games/{table.game_id}/" in message.body
        assert "you)" in message.body and "<ol>" in html
        assert "computer player finishes their seat" in message.body

    def test_the_organizer_seats_rounds_and_closes_the_event(self, alice: Any, bob: Any) -> None:
        players = make_players(4)
        event = event_with(alice, players, rounds=3, table_size=2, min_table_size=2)
        services.start_event(event, alice)
        with pytest.raises(Conflict) as running:
            services.seat_next_round(event, alice)
        assert _code(running) == "round_not_finished"
        with pytest.raises(Conflict):
            services.close_event(event, alice)
        first, second = current_tables(event)
        finish_by_bots(first.game_id)
        with pytest.raises(NotAPlayer):
            services.adjudicate_table(second, bob)
        services.adjudicate_table(second, alice)
        with pytest.raises(Conflict) as over:
            services.adjudicate_table(second, alice)
        assert _code(over) == "game_not_active"
        assert services.seat_next_round(event, alice).number == 2
        play_round(event)  # → round 3
        # Ended by the organizer, uncommitted: the event's own step (closing it after its
        # last game) does not run first, so the organizer's closing is what is tested.
        for table in current_tables(event):
            services.adjudicate_table(table, alice)
        services.close_event(event, alice)
        event.refresh_from_db()
        assert event.status == Event.Status.FINISHED
        assert Round.objects.filter(event=event).count() == 3
        assert services.advance(event.pk) is None
        with pytest.raises(Conflict) as closed:
            services.close_event(event, alice)
        assert _code(closed) == "event_finished"
        with pytest.raises(Conflict) as done:
            services.seat_next_round(event, alice)
        assert _code(done) == "event_not_running"

    def test_a_season_can_only_follow_a_finished_league(self, alice: Any) -> None:
        event = event_with(alice, make_players(3), rounds=1, table_size=3, min_table_size=3)
        with pytest.raises(Conflict) as swiss:
            services.create_next_season(event, alice)
        assert _code(swiss) == "not_a_league"
        league = event_with(
            alice,
            make_players(3, "l"),
            club=event.club,
            name="League",
            format=Event.Format.LEAGUE,
            table_size=3,
            min_table_size=3,
        )
        with pytest.raises(Conflict) as early:
            services.create_next_season(league, alice)
        assert _code(early) == "event_not_finished"
        assert Registration.objects.filter(event=league).count() == 3
