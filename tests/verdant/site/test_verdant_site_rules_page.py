"""The Verdant rules page in the four languages of the site."""

from __future__ import annotations

import pytest
from django.test import Client

HEADINGS = {
    "en": ("How to play Verdant", "The game in brief"),
    "de": ("So spielt man Verdant", "Das Spiel in Kürze"),
    "fr": ("Comment jouer à Verdant", "Le jeu en bref"),
    "ru": ("Как играть в Verdant", "Коротко об игре"),  # noqa: RUF001
}


@pytest.mark.parametrize("language", list(HEADINGS))
def test_the_rules_read_in_the_visitors_language(db, language):
    page = Client(headers={"accept-language": language}).get("/rules/verdant/")
    text = page.content.decode()
    assert page.status_code == 200
    title, overview = HEADINGS[language]
    assert title in text and overview in text
    if language != "en":
        assert "The game in brief" not in text and "Green thumb actions" not in text
    assert "100" in text  # the solo titles' table, from the edition


def test_the_game_page_links_to_the_rules(verdant_game, alice):
    from tests.verdant.site.verdant_site_helpers import client_for

    page = client_for(alice).get(f"/games/{verdant_game.pk}/").content.decode()
    assert 'href="/rules/verdant/"' in page
