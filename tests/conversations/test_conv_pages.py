"""The pages: the chat on the game page and its polling, the forms of each message,
escaping, the club's announcements and discussion, the event page's links, the game's
creation setting, and reports in the admin (staff see all, organizers their club's)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from conversations import services
from conversations.models import GameChat, Message, Report, Shield
from games.models import Game
from tests.games.gamehelpers import client_for
from tests.tournaments.tourhelpers import event_with
from tournaments import services as clubs

HTMX = {"HTTP_HX_REQUEST": "true"}


def page(user: Any, game: Game) -> str:
    return client_for(user).get(reverse("games:detail", args=[game.pk])).content.decode()


def chat_url(game: Game, query: str = "") -> str:
    return reverse("conversations:game_chat", args=[game.pk]) + query


class TestTheGamePage:
    def test_it_shows_the_chat_and_polls_it_with_its_stamp(self, game, alice, bob):
        services.post_to_game(bob, game, "Hello Alice")
        html = page(alice, game)
        assert 'id="chat-game"' in html
        assert "Hello Alice" in html
        assert f'hx-get="{chat_url(game)}?stamp=' in html
        assert 'name="text"' in html

    def test_everything_written_is_escaped(self, game, alice, bob):
        services.post_to_game(bob, game, '<script>alert("x")</script> & <b>bold</b>')
        html = page(alice, game)
        assert "<script>alert" not in html and "<b>bold</b>" not in html
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold" in html

    def test_a_spectator_reads_only_when_allowed_and_never_gets_the_form(self, game, bob, carol):
        services.post_to_game(bob, game, "secret plans")
        html = page(carol, game)
        assert "secret plans" not in html
        assert "Only the players of this game can read its chat." in html
        services.set_spectators_read(game, True)
        html = page(carol, game)
        assert "secret plans" in html and 'name="text"' not in html

    def test_a_poll_answers_204_while_nothing_changed_and_the_messages_once_it_did(
        self, game, alice, bob
    ):
        client = client_for(alice)
        stamp = client.get(chat_url(game), **HTMX).context["stamp"]
        assert client.get(chat_url(game, f"?stamp={stamp}"), **HTMX).status_code == 204
        services.post_to_game(bob, game, "Your move!")
        answer = client.get(chat_url(game, f"?stamp={stamp}"), **HTMX)
        assert answer.status_code == 200
        assert "Your move!" in answer.content.decode()
        assert 'name="text"' not in answer.content.decode()  # what is being typed stays

    def test_a_message_sent_with_htmx_comes_back_in_the_panel(self, game, alice):
        url = reverse("conversations:game_post", args=[game.pk])
        answer = client_for(alice).post(url, {"text": "gl hf"}, **HTMX)
        assert answer.status_code == 200
        assert "gl hf" in answer.content.decode()

    def test_without_javascript_a_message_leads_to_the_chat_page(self, game, alice):
        client = client_for(alice)
        url = reverse("conversations:game_post", args=[game.pk])
        answer = client.post(url, {"text": "plain form"})
        assert answer.status_code == 303
        assert answer["Location"] == chat_url(game)
        assert "plain form" in client.get(chat_url(game)).content.decode()

    def test_a_refused_message_says_why_and_keeps_nothing(self, game, alice, carol):
        url = reverse("conversations:game_post", args=[game.pk])
        answer = client_for(alice).post(url, {"text": "x" * 1001}, **HTMX)
        assert answer.status_code == 400
        assert 'data-code="message_too_long"' in answer.content.decode()
        answer = client_for(carol).post(url, {"text": "hi"}, **HTMX)
        assert answer.status_code == 403
        assert not Message.objects.exists()

    def test_the_times_are_in_the_readers_zone(self, game, alice, bob):
        bob.player.time_zone = "Asia/Tokyo"
        bob.player.save(update_fields=["time_zone"])
        services.post_to_game(alice, game, "hi")
        assert "Times in Asia/Tokyo." in page(bob, game)


class TestTheMessageForms:
    def test_report_block_and_unblock_from_the_page(self, game, alice, bob):
        message = services.post_to_game(bob, game, "spam spam")
        client = client_for(alice)
        place = {"place": f"game:{game.pk}"}
        answer = client.post(
            reverse("conversations:report", args=[message.pk]),
            {**place, "reason": "spam"},
            **HTMX,
        )
        assert "Thank you: the report reached" in answer.content.decode()
        assert Report.objects.filter(message=message, reporter=alice, reason="spam").exists()
        answer = client.post(
            reverse("conversations:shield", args=[bob.pk]), {**place, "kind": "block"}, **HTMX
        )
        html = answer.content.decode()
        assert "spam spam" not in html and "Unblock Bob" in html
        client.post(reverse("conversations:shield", args=[bob.pk]), {**place, "kind": ""}, **HTMX)
        assert not Shield.objects.exists()
        assert "spam spam" in page(alice, game)

    def test_only_moderators_see_the_hide_button(self, game, alice, bob, superuser):
        services.post_to_game(bob, game, "hm")
        assert "Hide from everyone" not in page(alice, game)
        assert "Hide from everyone" in page(superuser, game)

    def test_the_new_message_mail_is_chosen_in_the_panel(self, game, alice):
        client_for(alice).post(
            reverse("conversations:mail"), {"place": f"game:{game.pk}", "new_messages": "1"}
        )
        assert alice.chat_mail.new_messages
        assert "Stop mailing me new messages" in page(alice, game)


class TestTheGamesCreation:
    def test_the_creator_chooses_whether_spectators_read_the_chat(self, alice):
        client = client_for(alice)
        form = {
            "kind": "evergreen",
            "players": 2,
            "computer_seats": 0,
            "bot": "random",
            "sun_start": "N",
            "timeout_policy": "bot",
        }
        client.post(reverse("games:create"), {**form, "chat_spectators": "on"})
        client.post(reverse("games:create"), form)
        allowed = list(
            GameChat.objects.order_by("game_id").values_list("spectators_read", flat=True)
        )
        assert allowed == [True, False]


class TestClubs:
    def test_the_club_page_shows_the_latest_announcements_and_links_to_the_talk(
        self, club, alice, carol
    ):
        services.post_to_club(alice, club, "announce", "Season 2 starts <Monday>")
        html = client_for(carol).get(club.get_absolute_url()).content.decode()
        assert "Season 2 starts &lt;Monday&gt;" in html
        assert reverse("conversations:club_talk", args=[club.slug]) in html

    def test_the_event_page_links_to_the_clubs_conversations(self, club, alice):
        event = event_with(alice, [], club=club, rounds=1)
        html = client_for(None).get(event.get_absolute_url()).content.decode()
        assert reverse("conversations:club_talk", args=[club.slug]) + "#chat-discuss" in html

    def test_members_discuss_and_outsiders_read_only_the_announcements(
        self, club, alice, bob, carol
    ):
        services.post_to_club(alice, club, "announce", "Welcome!")
        services.post_to_club(bob, club, "discuss", "Friendly tonight?")
        talk = reverse("conversations:club_talk", args=[club.slug])
        outsider = client_for(carol).get(talk).content.decode()
        assert "Welcome!" in outsider and "Friendly tonight?" not in outsider
        member = client_for(bob).get(talk).content.decode()
        assert "Friendly tonight?" in member
        assert "Write an announcement" not in member
        assert "Write an announcement" in client_for(alice).get(talk).content.decode()


class TestTheAdmin:
    def reports_page(self, user: Any) -> Any:
        return client_for(user).get(reverse("admin:conversations_report_changelist"))

    def test_staff_see_every_report_and_organizers_only_their_clubs(
        self, club, game, alice, bob, carol, superuser
    ):
        services.report(bob, services.post_to_club(alice, club, "discuss", "club words"))
        services.report(alice, services.post_to_game(bob, game, "game words"))
        other = clubs.create_club(carol, "Oak Club")
        clubs.join_club(other, bob)
        services.report(bob, services.post_to_club(carol, other, "discuss", "oak words"))
        everything = self.reports_page(superuser).content.decode()
        assert all(w in everything for w in ("club words", "game words", "oak words"))
        alice.refresh_from_db()  # an organizer is staff (tournaments.access)
        mine = self.reports_page(alice).content.decode()
        assert "club words" in mine
        assert "game words" not in mine and "oak words" not in mine

    def test_a_player_who_organizes_nothing_has_no_reports_page(self, bob):
        bob.is_staff = True
        bob.save(update_fields=["is_staff"])
        assert self.reports_page(bob).status_code == 403

    def test_an_organizer_hides_a_reported_message_from_the_admin(self, club, alice, bob):
        message = services.post_to_club(bob, club, "discuss", "rude")
        report = services.report(alice, message)
        answer = client_for(alice).post(
            reverse("admin:conversations_report_changelist"),
            {"action": "hide_messages", "_selected_action": [report.pk]},
        )
        assert answer.status_code == 302
        message.refresh_from_db()
        assert message.hidden and message.hidden_by == alice
