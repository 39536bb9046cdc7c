"""On a 360 px phone no page scrolls sideways, in any language: the game page in the
Action phase (the Power tracks' long names in German and Russian once widened it), the
event page and the replay."""

from __future__ import annotations

import pytest

from tests.e2e.e2ehelpers import IDLE, Shots, no_horizontal_scroll
from tests.e2e.pagehelpers import acting_with, game_of, logged_in
from tests.games.gamehelpers import make_user, play_until
from tests.i18n.i18nworld import speak
from tests.tournaments.tourpageshelpers import club_of, event_of, started

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PHONE_WIDTH = 360
PHONE = {
    "viewport": {"width": PHONE_WIDTH, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


LANGUAGES = ("en", "de", "fr", "ru")


def test_e2e_no_page_scrolls_sideways_on_a_phone_in_any_language(new_context, site) -> None:
    # One test for the four languages: the games and the event are made once (each
    # language's own test made them again, and started its own browser), and Alice's
    # language is changed between the rounds of pages. Every language is checked before
    # the test fails, naming each page that was too wide.
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    # A Bud card: its track, the longest, then also says "this round: up to …", the
    # widest row of the Power tracks.
    action = acting_with(game_of(alice, bob), "bud")
    over = play_until(game_of(alice, bob), lambda state: False)
    event = started(event_of(club_of(alice, "Oak", bob, carol), alice, alice, bob, carol), alice)
    page = logged_in(new_context, site, alice, **PHONE)
    pages = {
        "action": action.get_absolute_url(),
        "turn-builder": action.get_absolute_url(),
        "event": event.get_absolute_url(),
        "replay": f"/games/{over.pk}/replay/?move=20",
    }
    too_wide = []
    for language in LANGUAGES:
        speak(alice, language)
        shots = Shots(f"phone-{language}")
        for name, path in pages.items():
            page.goto(path)
            if name == "turn-builder":  # the builder at its widest: the timing's choices
                page.tap("#act-B")
                page.wait_for_function(IDLE)
            assert page.locator("html").get_attribute("lang") == language, name
            width, viewport = no_horizontal_scroll(page)
            assert viewport == PHONE_WIDTH
            if width > viewport:
                too_wide.append(f"{name} ({language}) is {width}px wide on a {viewport}px phone")
            shots.take(page, name)
    assert not too_wide, "\n".join(too_wide)
