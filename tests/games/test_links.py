"""Addresses reversed once per process (``games.links``, ``{% link %}``): the same answer
as ``reverse`` and ``{% url %}``, for the URL configuration and script prefix in force."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.template import Context, Template
from django.urls import include, path, reverse, set_script_prefix, set_urlconf

from games import links


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
