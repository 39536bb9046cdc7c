"""Changing and deleting one's own message: editing within the window (15 minutes),
deleting at any time ("message deleted" stays in its place), with the limits of a new
message, on the page (htmx and without JavaScript) and in the API; reports keep the text
they were about for the staff; the panels' poll sees the change; mails leave deleted
messages out."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.sites import site
from django.urls import reverse

from conversations import editing, mailchat, reading, services
from conversations.admin import ReportAdmin
from conversations.models import EDIT_WINDOW_MINUTES, Message, Report
from games.services import ServiceError
from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for, client_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
MESSAGE_PATH = "/api/messages/{id}/"


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


def written_ago(message: Message, minutes: float) -> Message:
    Message.objects.filter(pk=message.pk).update(
        created_at=message.created_at - timedelta(minutes=minutes)
    )
    message.refresh_from_db()
    return message


def place_key(game: Any) -> str:
    return f"game:{game.pk}"


class TestTheServices:
    def test_the_author_changes_a_message_within_the_window(self, game, alice):
        message = written_ago(services.post_to_game(alice, game, "gl hv"), EDIT_WINDOW_MINUTES - 1)
        changed = editing.edit(alice, message, "  gl hf  ")
        assert (changed.text, changed.edited_at is not None, changed.revision) == ("gl hf", True, 1)

    def test_after_the_window_the_message_stays_as_it_is(self, game, alice):
        message = written_ago(services.post_to_game(alice, game, "gl hv"), EDIT_WINDOW_MINUTES)
        with pytest.raises(ServiceError) as closed:
            editing.edit(alice, message, "gl hf")
        assert (closed.value.code, closed.value.status) == ("edit_window_closed", 409)
        assert "15 minutes" in closed.value.message
        message.refresh_from_db()
        assert message.text == "gl hv" and message.edited_at is None

    def test_nobody_else_changes_or_deletes_it(self, game, alice, bob, superuser):
        message = services.post_to_game(alice, game, "mine")
        for other in (bob, superuser):
            for action in (
                lambda u: editing.edit(u, message, "theirs"),
                lambda u: editing.delete(u, message),
            ):
                with pytest.raises(ServiceError) as refused:
                    action(other)
                assert (refused.value.code, refused.value.status) == ("not_your_message", 403)
        message.refresh_from_db()
        assert message.text == "mine" and not message.deleted

    def test_an_edit_has_the_limits_of_a_new_message(self, game, alice):
        message = services.post_to_game(alice, game, "short")
        with pytest.raises(ServiceError) as empty:
            editing.edit(alice, message, "   ")
        with pytest.raises(ServiceError) as long:
            editing.edit(alice, message, "x" * 1001)
        assert (empty.value.code, long.value.code) == ("message_empty", "message_too_long")

    def test_a_hidden_message_cannot_be_changed(self, game, alice, superuser):
        message = services.post_to_game(alice, game, "rude")
        services.hide(superuser, message)
        with pytest.raises(ServiceError) as refused:
            editing.edit(alice, message, "polite")
        assert refused.value.code == "message_hidden"

    def test_deleting_works_at_any_time_and_once(self, game, alice):
        message = written_ago(services.post_to_game(alice, game, "oops"), 60 * 24 * 30)
        deleted = editing.delete(alice, message)
        assert deleted.deleted and deleted.text == ""
        with pytest.raises(ServiceError) as again:
            editing.delete(alice, message)
        assert again.value.code == "message_deleted"
        with pytest.raises(ServiceError):
            editing.edit(alice, message, "back")

    def test_a_report_keeps_the_text_it_was_about(self, game, alice, bob, superuser):
        message = services.post_to_game(alice, game, "something rude")
        report = services.report(bob, message, "rude")
        editing.edit(alice, message, "something nice")
        editing.delete(alice, message)
        report.refresh_from_db()
        assert report.text == "something rude"
        shown = ReportAdmin(Report, site).message_text(report)
        assert shown.startswith("something rude") and "deleted by its author" in shown

    def test_a_deleted_message_cannot_be_reported(self, game, alice, bob):
        message = editing.delete(alice, services.post_to_game(alice, game, "gone"))
        with pytest.raises(ServiceError) as refused:
            services.report(bob, message)
        assert refused.value.code == "message_deleted"

    def test_the_poll_stamp_changes_with_an_edit_and_a_deletion(self, game, alice):
        message = services.post_to_game(alice, game, "one")
        stamps = [reading.stamp(reading.game_messages(game.pk))]
        editing.edit(alice, message, "two")
        stamps.append(reading.stamp(reading.game_messages(game.pk)))
        editing.delete(alice, message)
        stamps.append(reading.stamp(reading.game_messages(game.pk)))
        assert len(set(stamps)) == 3

    def test_mails_leave_deleted_messages_out(self, game, alice, bob):
        editing.delete(bob, services.post_to_game(bob, game, "never mind"))
        services.post_to_game(bob, game, "good luck")
        assert [line["text"] for line in mailchat.unread(alice, [game.pk])[game.pk]] == [
            "good luck"
        ]


class TestThePanel:
    def test_the_author_gets_the_forms_others_do_not(self, game, alice, bob):
        message = services.post_to_game(alice, game, "hello")
        url = reverse("conversations:game_chat", args=[game.pk])
        mine = client_for(alice).get(url, **HTMX).content.decode()
        assert reverse("conversations:edit", args=[message.pk]) in mine
        assert reverse("conversations:delete", args=[message.pk]) in mine
        theirs = client_for(bob).get(url, **HTMX).content.decode()
        assert reverse("conversations:edit", args=[message.pk]) not in theirs

    def test_editing_by_htmx_answers_the_panel_with_the_new_text(self, game, alice):
        message = services.post_to_game(alice, game, "gl hv")
        answer = client_for(alice).post(
            reverse("conversations:edit", args=[message.pk]),
            {"new_text": "gl <b>hf</b>", "place": place_key(game)},
            **HTMX,
        )
        html = answer.content.decode()
        assert answer.status_code == 200
        assert "gl &lt;b&gt;hf&lt;/b&gt;" in html and "edited" in html

    def test_an_edit_too_late_is_refused_with_its_reason(self, game, alice):
        message = written_ago(services.post_to_game(alice, game, "gl hv"), 16)
        answer = client_for(alice).post(
            reverse("conversations:edit", args=[message.pk]),
            {"new_text": "gl hf", "place": place_key(game)},
            **HTMX,
        )
        assert answer.status_code == 409
        assert "can be changed for 15 minutes" in answer.content.decode()
        html = client_for(alice).get(reverse("conversations:game_chat", args=[game.pk]), **HTMX)
        assert reverse("conversations:edit", args=[message.pk]) not in html.content.decode()

    def test_deleting_without_javascript_leaves_message_deleted(self, game, alice, bob):
        message = services.post_to_game(alice, game, "oops")
        answer = client_for(alice).post(
            reverse("conversations:delete", args=[message.pk]), {"place": place_key(game)}
        )
        assert answer.status_code == 303
        html = client_for(bob).get(reverse("games:detail", args=[game.pk])).content.decode()
        assert "message deleted" in html and "oops" not in html


class TestTheApi:
    def test_the_author_patches_and_deletes(self, game, alice, bob, schema):
        message = services.post_to_game(alice, game, "gl hv")
        url = MESSAGE_PATH.format(id=message.pk)
        patched = api_client_for(alice).patch(url, {"text": "gl hf"}, format="json")
        assert patched.status_code == 200
        schema.check(MESSAGE_PATH, "patch", 200, patched.json())
        assert (patched.json()["text"], patched.json()["edited"]) == ("gl hf", True)
        deleted = api_client_for(alice).delete(url)
        assert deleted.status_code == 200
        schema.check(MESSAGE_PATH, "delete", 200, deleted.json())
        assert (deleted.json()["text"], deleted.json()["deleted"]) == ("", True)
        listed = api_client_for(bob).get(f"/api/games/{game.pk}/messages/").json()["messages"]
        assert [(m["text"], m["deleted"]) for m in listed] == [("", True)]

    def test_the_refusals_have_their_codes(self, game, alice, bob, carol):
        message = services.post_to_game(alice, game, "hello")
        url = MESSAGE_PATH.format(id=message.pk)
        other = api_client_for(bob).patch(url, {"text": "x"}, format="json")
        assert (other.status_code, other.json()["code"]) == (403, "not_your_message")
        empty = api_client_for(alice).patch(url, {"text": ""}, format="json")
        assert (empty.status_code, empty.json()["code"]) == (400, "message_empty")
        outsider = api_client_for(carol).delete(url)  # the chat is private: no such message
        assert (outsider.status_code, outsider.json()["code"]) == (404, "no_such_message")
        missing = api_client_for(alice).delete(MESSAGE_PATH.format(id=message.pk + 999))
        assert missing.status_code == 404

    def test_the_endpoint_is_in_the_schema(self, schema):
        operations = schema.document["paths"][MESSAGE_PATH]
        assert set(operations) == {"patch", "delete"}
        assert {"403", "404", "409"} <= set(operations["patch"]["responses"])
