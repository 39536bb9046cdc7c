"""The game page's chat panel drawn once per process for all it shows (games.drawings):
each page carries its own CSRF token, whatever changes what the panel shows draws it
again, and what is drawn for one reader is never another's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from conversations import services
from games import drawings
from games.models import Game
from tests.games.gamehelpers import client_for


def chat(html: str) -> str:
    found = re.search(r'<section id="chat-game".*?</section>', html, re.S)
    assert found, "no chat panel"
    return found.group(0)


def chat_of(user: Any, game: Game) -> str:
    return chat(client_for(user).get(reverse("games:detail", args=[game.pk])).content.decode())


def tokens(html: str) -> set[str]:
    return set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]*)"', html))


def test_the_panel_is_drawn_once_for_pages_that_show_the_same(game, alice, monkeypatch):
    chat_of(alice, game)
    drawn: list[str] = []
    monkeypatch.setattr(drawings, "_kept", {}, raising=True)
    real = drawings.kept

    def counted(key: str, draw: Any, token: str, fills: Any = None) -> Any:
        def draw_and_count(hole: str) -> str:
            html = draw(hole)
            if 'id="chat-game"' in html:  # the page's other drawings are not the chat
                drawn.append(key)
            return html

        return real(key, draw_and_count, token, fills)

    monkeypatch.setattr(drawings, "kept", counted)
    first, second = chat_of(alice, game), chat_of(alice, game)
    assert len(drawn) == 1
    assert tokens(first) != tokens(second)  # each page its own token, never the hole
    assert drawings.TOKEN_HOLE not in first + second


def test_a_kept_panel_is_the_panel_drawn_afresh(game, alice, bob):
    services.post_to_game(bob, game, "Hello Alice")
    services.post_to_game(alice, game, "Hello Bob")
    chat_of(alice, game)
    kept = chat_of(alice, game)
    drawings._forget()
    fresh = chat_of(alice, game)
    same_token = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "TOKEN", kept)
    assert same_token == re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "TOKEN", fresh)


def test_a_new_message_is_shown_at_once(game, alice, bob):
    chat_of(alice, game)
    services.post_to_game(bob, game, "Your move!")
    assert "Your move!" in chat_of(alice, game)


def test_my_message_offers_its_changes_to_me_only(game, alice, bob):
    services.post_to_game(alice, game, "mine to change")
    assert "Change or delete your message" in chat_of(alice, game)
    assert "Change or delete your message" not in chat_of(bob, game)
    assert "Report" in chat_of(bob, game) and "Report" not in chat_of(alice, game)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_panel_is_drawn_in_each_readers_language(game, language):
    url = reverse("games:detail", args=[game.pk])
    html = client_for(None).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    only_players = {
        "en": "Only the players of this game can read its chat.",
        "fr": "Seuls les joueurs de cette partie peuvent lire sa discussion.",
    }
    assert only_players[language] in chat(html)


def test_a_message_sent_from_a_kept_panel_is_posted(game, alice, bob):
    chat_of(bob, game)  # the panel kept, with another session's page
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(bob)
    panel = chat(browser.get(reverse("games:detail", args=[game.pk])).content.decode())
    form = re.search(
        r'<form class="chat-form" method="post" action="([^"]*)".*?</form>', panel, re.S
    )
    assert form
    (token,) = tokens(form.group(0))
    answer = browser.post(form.group(1), {"csrfmiddlewaretoken": token, "text": "sent"})
    assert answer.status_code in (302, 303), answer.status_code
    assert "sent" in chat_of(alice, game)
