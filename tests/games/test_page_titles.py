"""Each page has its own title, and a shared link shows it (``og:title``): a game's name
and players, a club's name, an event's, a replay's, a player's, escaped."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

from django.urls import reverse

from games.models import Player
from tests.games.gamehelpers import client_for
from tests.tournaments.tourhelpers import event_with
from tournaments import services as clubs


def head(user: Any, url: str, language: str = "en") -> tuple[str, str]:
    """The page's <title> and og:title, unescaped."""
    html = client_for(user).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    title = re.search(r"<title>(.*?)</title>", html, re.S)
    og = re.search(r'<meta property="og:title" content="([^"]*)">', html)
    assert title and og, url
    return html_lib.unescape(title.group(1)), html_lib.unescape(og.group(1))


class TestTitles:
    def test_a_game_page_names_the_game_and_its_players(self, two_player_game, carol):
        title, og = head(carol, reverse("games:detail", args=[two_player_game.pk]))
        assert og == f"Game #{two_player_game.pk}: Alice, Bob"
        assert title == f"{og} · Evergreen"

    def test_names_are_escaped_once(self, two_player_game, carol):
        Player.objects.filter(user__username="bob").update(display_name='Bob "<b>" & co')
        html = client_for(carol).get(reverse("games:detail", args=[two_player_game.pk]))
        text = html.content.decode()
        assert "<b>" not in text.split("</head>")[0]
        assert "Bob &quot;&lt;b&gt;&quot; &amp; co" in text.split("</head>")[0]

    def test_club_event_replay_and_player_pages_have_their_own(self, two_player_game, alice, bob):
        club = clubs.create_club(alice, "Pine Club")
        event = event_with(alice, [alice, bob], club=club, name="Spring Open", rounds=2)
        pages = {
            reverse("tournaments:club", args=[club.slug]): "Pine Club",
            reverse("tournaments:event", args=[club.slug, event.slug]): "Spring Open · Pine Club",
            reverse(
                "games:replay", args=[two_player_game.pk]
            ): f"Replay of Game #{two_player_game.pk}",
            reverse("tournaments:player", args=[bob.pk]): "Bob",
        }
        seen = set()
        for url, expected in pages.items():
            _title, og = head(alice, url)
            assert og == expected, url
            seen.add(og)
        _title, home = head(alice, reverse("games:lobby"))
        assert home not in seen and len(seen) == len(pages)

    def test_a_page_in_another_language_shares_its_title_in_it(self, db):
        title, og = head(None, reverse("games:lobby"), language="fr")
        assert (title, og) == ("Salon · Evergreen", "Salon")
