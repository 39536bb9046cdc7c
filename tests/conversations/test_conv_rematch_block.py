"""Blocking stops invitations: a rematch is refused while two of its people have blocked
one another, with a clear error on the page and in the API; an offered rematch mails
each other person (preferences, quiet hours, once) and the game page says who offers it;
nothing of a blocked player's reaches the one who blocked them (the hand-over mail to a
game's creator included)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse

from conversations import services as talk
from games import notifications, services, tasks
from games.models import Game, Notification, Player
from games.rematches import services as rematches
from tests.games.gamehelpers import Clock, api_client_for, client_for, make_user

pytestmark = pytest.mark.django_db

T0 = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    return Clock.installed(monkeypatch, T0)


def finished_nim(*players: Any) -> Game:
    """A finished game of Nim (the test settings' toy game) between ``players``."""
    first, *others = players
    game = services.create_game(first, kind="nim", players=len(players), options={"stones": 3})
    for user in others:
        services.join_game(game.pk, user)
    services.submit_move(game.pk, first, {"type": "take", "count": 3})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def ended_for_three(*players: Any) -> Game:
    """A 3-player game ended by its organizer's decision (Nim seats two; playing a whole
    Evergreen game would only slow the test: the rematch reads the game's status)."""
    first, *others = players
    game = services.create_game(first, players=3)
    for user in others:
        services.join_game(game.pk, user)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    return game


def rematch_notes(user: Any) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind="rematch"))


class TestABlockedPlayerCannotInvite:
    def test_a_rematch_offered_by_someone_i_blocked_is_refused(self, alice, bob):
        game = finished_nim(alice, bob)
        talk.shield(bob, alice.pk, "block")
        with pytest.raises(services.ServiceError) as refused:
            rematches.accept(game.pk, alice)
        assert refused.value.code == "blocked" and refused.value.status == 403
        assert "does not take invitations from you" in refused.value.message
        assert rematches.standing(game) is None and rematch_notes(bob) == []

    def test_i_cannot_offer_a_rematch_to_someone_i_blocked(self, alice, bob):
        game = finished_nim(alice, bob)
        talk.shield(alice, bob.pk, "block")
        with pytest.raises(services.ServiceError) as refused:
            rematches.accept(game.pk, alice)
        assert refused.value.code == "blocked"
        assert "You blocked a player of this game" in refused.value.message

    def test_a_third_player_is_told_why_there_is_no_rematch(self, alice, bob, carol):
        game = ended_for_three(alice, bob, carol)
        talk.shield(alice, bob.pk, "block")
        with pytest.raises(services.ServiceError) as refused:
            rematches.accept(game.pk, carol)
        assert refused.value.code == "blocked"
        assert "blocked one another" in refused.value.message

    def test_blocking_after_the_offer_stops_the_acceptance(self, alice, bob):
        game = finished_nim(alice, bob)
        rematches.accept(game.pk, alice)
        talk.shield(alice, bob.pk, "block")
        with pytest.raises(services.ServiceError):
            rematches.accept(game.pk, bob)
        standing = rematches.standing(game)
        assert standing is not None and standing.new_game is None

    def test_muting_is_no_block(self, alice, bob):
        game = finished_nim(alice, bob)
        talk.shield(bob, alice.pk, "mute")
        rematches.accept(game.pk, alice)
        assert rematches.accept(game.pk, bob).new_game is not None

    def test_the_page_says_so_and_changes_nothing(self, alice, bob):
        game = finished_nim(alice, bob)
        talk.shield(bob, alice.pk, "block")
        response = client_for(alice).post(reverse("games:rematch", args=[game.pk]))
        assert response.status_code == 403
        assert "does not take invitations from you" in response.content.decode()
        assert rematches.standing(game) is None

    def test_the_api_answers_with_the_code(self, alice, bob):
        game = finished_nim(alice, bob)
        talk.shield(bob, alice.pk, "block")
        response = api_client_for(alice).post(f"/api/games/{game.pk}/rematch/")
        assert response.status_code == 403
        assert response.json()["code"] == "blocked"

    def test_the_hand_over_mail_skips_a_creator_who_blocked_the_player(self, alice, bob):
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        talk.shield(alice, bob.pk, "block")
        notifications.handover(game, game.seats.get(user=bob))
        assert set(Notification.objects.filter(kind="handover").values_list("user", flat=True)) == {
            bob.pk
        }


class TestTheRematchNotification:
    def test_the_other_person_is_mailed_once_in_their_language(self, clock, alice, bob):
        Player.objects.filter(user=bob).update(language="de")
        game = finished_nim(alice, bob)
        rematches.accept(game.pk, alice)
        rematches.accept(game.pk, alice)  # offering twice mails nobody twice
        assert rematch_notes(alice) == [] and len(rematch_notes(bob)) == 1
        Notification.objects.exclude(kind="rematch").update(status="skipped")
        tasks.deliver_due()
        (to_bob,) = [m for m in mail.outbox if m.to == [bob.email]]
        assert to_bob.subject == f"Alice bietet eine Revanche für Partie Nr. {game.pk} an"
        assert reverse("games:detail", args=[game.pk]) in to_bob.body

    def test_accepting_an_offer_mails_nobody_again(self, clock, alice, bob, carol):
        game = ended_for_three(alice, bob, carol)
        rematches.accept(game.pk, alice)
        rematches.accept(game.pk, bob)
        assert rematch_notes(alice) == []
        assert len(rematch_notes(bob)) == 1 and len(rematch_notes(carol)) == 1
        assert rematch_notes(carol)[0].context["offered_by"] == "Alice"

    def test_it_waits_for_the_end_of_quiet_hours(self, clock, alice, bob):
        Player.objects.filter(user=bob).update(quiet_start=10, quiet_end=14)
        game = finished_nim(alice, bob)
        rematches.accept(game.pk, alice)
        (note,) = rematch_notes(bob)
        assert note.send_after == T0.replace(hour=14)

    def test_nobody_who_turned_mails_off_gets_it(self, clock, alice, bob):
        Player.objects.filter(user=bob).update(email_mode="off")
        game = finished_nim(alice, bob)
        rematches.accept(game.pk, alice)
        assert rematch_notes(bob) == []

    def test_the_game_page_shows_who_offers_it(self, alice, bob):
        game = finished_nim(alice, bob)
        rematches.accept(game.pk, alice)
        html = client_for(bob).get(reverse("games:detail", args=[game.pk])).content.decode()
        assert "Alice offers a rematch." in html
        assert "Accept the rematch" in html

    def test_a_player_without_mail_address_is_simply_skipped(self, clock, alice):
        nomail = make_user("Nomail")
        type(nomail).objects.filter(pk=nomail.pk).update(email="")
        nomail.refresh_from_db()
        game = finished_nim(alice, nomail)
        rematches.accept(game.pk, alice)
        assert rematch_notes(nomail) == []
