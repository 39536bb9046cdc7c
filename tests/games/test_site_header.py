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


def test_the_language_switch_comes_back_to_the_page_s_own_address_escaped(alice):
    path = '/?next=a&b="<x>"'
    for _ in range(2):  # drawn, then kept: the address is each page's own
        switch = re.search(r'name="next" value="([^"]*)"', header(alice, path))
        assert switch and switch.group(1) == "/?next=a&amp;b=%22%3Cx%3E%22"  # escaped
        assert 'value="/"' in header(alice, "/")


def test_a_kept_header_is_the_header_drawn_afresh(alice):
    from games import drawings

    def without_token(html: str) -> str:
        return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "TOKEN", html)

    for user in (alice, None):
        header(user, "/games/")
        kept = header(user, "/games/")
        drawings._forget()
        assert without_token(kept) == without_token(header(user, "/games/"))
        assert drawings.TOKEN_HOLE not in kept and "page-address-here" not in kept


def test_a_page_carries_one_csrf_token_in_all_its_forms(two_player_game: Game):
    seated = two_player_game.seats.get(position=0).user
    url = reverse("games:detail", args=[two_player_game.pk])
    html = client_for(seated).get(url).content.decode()
    tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
    tokens |= set(re.findall(r'"X-CSRFToken": "([^"]+)"', html))
    assert len(tokens) == 1
