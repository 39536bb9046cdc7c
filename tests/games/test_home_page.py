"""The home page shows the game (a finished demo game, cards drawn as cards), says what
sets the site apart, and starts a solo game in one click; every page has a favicon, a
title and a preview for shared links."""

from __future__ import annotations

import re

from django.urls import reverse
from django.utils import translation

from games.models import Game
from tests.games.gamehelpers import client_for


def home_html(user=None, language: str = "en") -> str:
    client = client_for(user)
    response = client.get(reverse("games:home"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


class TestTheShowcase:
    def test_it_draws_the_winners_planet_of_a_finished_demo_game(self, db):
        html = home_html()
        assert 'class="board"' in html
        assert "Mira: 137 points" in html and "Tomas: 103 points" in html
        assert 'id="tile-snow"' in html  # the drawings the planet uses are on the page

    def test_the_demo_game_is_the_same_for_every_visitor(self, db, alice):
        planet = re.compile(r'<svg class="board".*?</svg>', re.S)
        assert planet.search(home_html()).group(0) == planet.search(home_html(alice)).group(0)

    def test_it_shows_cards_drawn_in_the_readers_language(self, db):
        html = home_html(language="de")
        assert html.count('class="card-svg"') == 4
        assert ">Schnee</text>" in html
        assert "Spross pflanzen" in html

    def test_it_names_what_sets_the_site_apart(self, db):
        html = home_html()
        for words in ("Standing orders for the Draft", "Recap mails", "Clubs and leagues"):
            assert words in html


class TestTrySolo:
    def test_a_visitor_is_asked_to_sign_up_and_comes_back_to_the_solo_game(self, db):
        html = home_html()
        signup = reverse("account_signup") + "?next=" + reverse("games:try_solo")
        assert f'id="try-solo" href="{signup}"' in html
        response = client_for(None).get(reverse("games:try_solo"))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("account_login"))

    def test_one_click_starts_a_solo_game_and_opens_it(self, alice):
        assert 'id="try-solo"' in home_html(alice)
        response = client_for(alice).post(reverse("games:try_solo"))
        game = Game.objects.get()
        assert response.status_code == 302
        assert response["Location"] == game.get_absolute_url()
        assert game.solo and game.status == Game.Status.ACTIVE
        assert game.seats.get().user == alice

    def test_opening_the_address_starts_nothing_until_the_click(self, alice):
        response = client_for(alice).get(reverse("games:try_solo"))
        assert response.status_code == 200
        assert 'id="try-solo"' in response.content.decode()
        assert not Game.objects.exists()


class TestTheHead:
    def test_every_page_has_its_title_a_favicon_and_a_preview_for_shared_links(self, alice):
        client = client_for(alice)
        for name in ("games:home", "games:lobby", "games:rules", "tournaments:clubs"):
            html = client.get(reverse(name)).content.decode()
            title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
            assert title.strip() and title.strip() != "Evergreen · Evergreen", name
            assert 'rel="icon" href="/static/img/favicon.svg"' in html
            assert 'rel="icon" href="/static/img/favicon-32.png"' in html
            assert (
                'property="og:image" content="http://testserver/static/img/og-preview.png"' in html
            )
            assert 'name="twitter:card" content="summary_large_image"' in html
            assert re.search(r'<meta name="description" content="[^"]{40,}">', html)

    def test_the_preview_is_in_the_readers_language(self, db):
        with translation.override("fr"):
            html = home_html(language="fr")
        assert '<meta property="og:locale" content="fr">' in html
        # the home page's own title, in the reader's language
        assert 'property="og:title" content="Jouer à Evergreen par correspondance"' in html
