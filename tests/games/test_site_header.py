"""The header's links and language buttons, and Evergreen's legend, drawn once per process
and language (games/templatetags/siteheader.py, games/evergreen/panels.legend_html): each
reader still gets the ones of their language, signed in or not, and the forms around them
carry the request's own CSRF token."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from games.models import Game
from tests.games.gamehelpers import client_for


def header(user: Any, path: str, language: str = "en") -> str:
    html = client_for(user).get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    found = re.search(r'<header class="site-header">.*?</header>', html, re.S)
    assert found, "no site header"
    return found.group(0)


def test_the_links_are_those_of_a_reader_signed_in_or_not(alice):
    home = reverse("games:home")
    for _ in range(2):  # the second time as kept
        signed_in, visitor = header(alice, home), header(None, home)
        assert "My games" in signed_in and "Log out" in signed_in and "Log in" not in signed_in
        assert "Log in" in visitor and "My games" not in visitor and "Log out" not in visitor


def test_the_header_is_in_the_readers_language(db):
    home = reverse("games:home")
    for _ in range(2):
        german, english = header(None, home, "de"), header(None, home)
        assert "Anmelden" in german and "Log in" not in german
        assert "Log in" in english
        assert re.search(r'value="de"[^>]*aria-current="true"', german)
        assert re.search(r'value="en"[^>]*aria-current="true"', english)


def test_each_page_has_its_own_csrf_token_in_the_header(alice):
    tokens = {
        re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', header(alice, "/")).group(1)  # type: ignore[union-attr]
        for _ in range(2)
    }
    assert len(tokens) == 2


def test_the_legend_is_in_the_readers_language(two_player_game: Game):
    url = reverse("games:detail", args=[two_player_game.pk])
    for _ in range(2):
        german = client_for(None).get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        english = client_for(None).get(url).content.decode()
        assert "<summary>Legende</summary>" in german
        assert "<summary>Legend</summary>" in english
