"""Addresses reversed once per process (``games.links``, ``{% link %}``): the same answer
as ``reverse`` and ``{% url %}``, for the URL configuration and script prefix in force;
the static files' addresses likewise (``{% asset %}``: what ``{% static %}`` draws)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.template import Context, Template
from django.urls import include, path, reverse, set_script_prefix, set_urlconf

from games import links, services
from tests.games.gamehelpers import client_for


def _nothing(request: Any) -> HttpResponse:
    return HttpResponse()


# A URL configuration of a request that names its own (``request.urlconf``).
urlpatterns = [path("elsewhere/", include(([path("rules/", _nothing, name="rules")], "games")))]


class TestAnAddressReversedOnce:
    def test_is_the_address_reverse_gives(self) -> None:
        assert links.url("games:rules") == reverse("games:rules")
        assert links.url("games:replay", 7) == reverse("games:replay", args=[7])
        assert links.url("games:replay", 8) == reverse("games:replay", args=[8])

    def test_in_a_template_is_what_the_url_tag_draws(self) -> None:
        drawn = Template(
            "{% load links %}{% link 'games:poll' n %}|{% url 'games:poll' n %}"
            "{% link 'games:rules' as rules %}|{{ rules }}"
        ).render(Context({"n": 12}))
        poll, rules = reverse("games:poll", args=[12]), reverse("games:rules")
        assert drawn == f"{poll}|{poll}|{rules}"

    def test_follows_a_changed_script_prefix(self) -> None:
        assert links.url("games:rules") == "/rules/"
        try:
            set_script_prefix("/site/")
            assert links.url("games:rules") == "/site/rules/"
        finally:
            set_script_prefix("/")
        assert links.url("games:rules") == "/rules/"

    def test_follows_a_request_s_own_url_configuration(self) -> None:
        assert links.url("games:rules") == "/rules/"
        try:
            set_urlconf(__name__)
            assert links.url("games:rules") == "/elsewhere/rules/"
        finally:
            set_urlconf(None)
        assert links.url("games:rules") == "/rules/"


class TestAStaticFileAskedOnce:
    def test_in_a_template_is_what_the_static_tag_draws(self) -> None:
        drawn = Template(
            "{% load static links %}{% asset 'css/site.css' %}|{% static 'css/site.css' %}"
        ).render(Context({}))
        asset, static = drawn.split("|")
        assert asset == static and asset.endswith(".css")

    def test_follows_a_changed_static_url(self, settings: Any) -> None:
        before = links.static_url("css/site.css")
        settings.STATIC_URL = "/assets/"
        assert links.static_url("css/site.css").startswith("/assets/css/site")
        assert before != links.static_url("css/site.css")


class TestTheGameLinks:
    """``{% game_links %}``: the header's links drawn once per process for the game, whether
    it started and whether they are swapped out of band."""

    def test_a_game_waiting_for_players_has_no_replay_and_a_started_one_has(
        self, alice: Any, bob: Any
    ) -> None:
        game = services.create_game(alice, players=2)
        url = reverse("games:detail", args=[game.pk])
        replay = reverse("games:replay", args=[game.pk])
        assert replay not in client_for(alice).get(url).content.decode()
        services.join_game(game.pk, bob)
        assert f'<a href="{replay}">' in client_for(alice).get(url).content.decode()

    def test_the_htmx_region_carries_them_out_of_band(self, two_player_game: Any) -> None:
        game = two_player_game
        url = reverse("games:detail", args=[game.pk])
        page = client_for(None).get(url).content.decode()
        region = client_for(None).get(url, HTTP_HX_REQUEST="true").content.decode()
        assert 'id="game-links" aria-label="This game">' in page
        assert 'id="game-links" aria-label="This game" hx-swap-oob="true">' in region

    def test_are_drawn_in_the_readers_language(self, two_player_game: Any) -> None:
        url = reverse("games:detail", args=[two_player_game.pk])
        german = client_for(None).get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        english = client_for(None).get(url).content.decode()
        assert ">Replay</a>" in english and ">Replay</a>" not in german
