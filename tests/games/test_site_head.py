"""Every page's head beyond its title (``{% site_head %}``), drawn once per language and
origin: each page still has its own title and address, in its reader's language, with
the pictures' addresses on the host it was asked from."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse


def meta(path: str, language: str = "en", host: str = "testserver") -> dict[str, str]:
    """The head's meta properties and names, by name."""
    html = Client().get(path, HTTP_ACCEPT_LANGUAGE=language, HTTP_HOST=host).content.decode()
    head = html.split("</head>")[0]
    return dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', head))


def test_each_page_has_its_own_title_and_address(db):
    for _ in range(2):  # the second time as kept
        home, rules = meta(reverse("games:home")), meta(reverse("games:rules"))
        assert home["og:url"] == "http://testserver/" and home["og:title"] != rules["og:title"]
        assert rules["og:url"] == "http://testserver" + reverse("games:rules")


def test_the_head_is_in_the_readers_language(db):
    for _ in range(2):
        german, english = meta(reverse("games:home"), "de"), meta(reverse("games:home"))
        assert german["og:locale"] == "de" and english["og:locale"] == "en"
        assert german["description"] != english["description"]
        assert german["og:image:alt"] != english["og:image:alt"]


def test_the_pictures_are_on_the_host_the_page_was_asked_from(db):
    for _ in range(2):
        assert meta("/", host="localhost")["og:image"].startswith("http://localhost/")
        assert meta("/")["og:image"].startswith("http://testserver/")
        assert meta("/", host="localhost")["og:url"] == "http://localhost/"
