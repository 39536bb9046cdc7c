"""The game page's log shows its newest rounds; the earlier ones come when asked for, in
place of the link that asks, as the viewer may read them (``games.story.ROUNDS_SHOWN``)."""

from __future__ import annotations

import re
from typing import Any

from django.urls import reverse

from games.models import Game
from games.story import ROUNDS_SHOWN
from tests.games.gamehelpers import client_for, play_until

HTMX = {"HX-Request": "true"}


def titles(html: str) -> list[tuple[str, bool]]:
    """Each round's title in the order shown, and whether it is open."""
    found = re.findall(r'<details class="story-round"( open)?>\s*<summary>([^<]+)', html)
    return [(title, bool(is_open)) for is_open, title in found]


def page(user: Any, game: Game) -> str:
    return client_for(user).get(reverse("games:detail", args=[game.pk])).content.decode()


def earlier(user: Any, game: Game, rounds: int | str) -> Any:
    url = reverse("games:earlier_rounds", args=[game.pk])
    return client_for(user).get(f"{url}?rounds={rounds}", headers=HTMX)


def fifth_round(game: Game) -> Game:
    return play_until(game, lambda s: (s.season, s.round) == (1, 5))


def test_the_page_shows_the_newest_rounds_and_links_to_the_earlier_ones(two_player_game, alice):
    html = page(alice, fifth_round(two_player_game))
    assert ROUNDS_SHOWN == 3
    assert [t for t, _ in titles(html)] == ["Spring, round 5", "Spring, round 4", "Spring, round 3"]
    link = re.search(
        r'<p class="story-earlier"><a href="([^"]+)" hx-get="([^"]+)"[^>]*>([^<]+)', html
    )
    assert link, "no link to the earlier rounds"
    href, fetch, words = link.groups()
    assert href == reverse("games:replay", args=[two_player_game.pk])  # without JavaScript
    assert fetch == reverse("games:earlier_rounds", args=[two_player_game.pk]) + "?rounds=2"
    assert words == "Show the 2 earlier rounds"


def test_the_earlier_rounds_come_newest_first_and_closed(two_player_game, alice):
    game = fifth_round(two_player_game)
    answer = earlier(alice, game, 2)
    assert answer.status_code == 200
    assert titles(answer.content.decode()) == [
        ("Spring, round 2", False),
        ("Spring, round 1", False),
    ]


def test_the_page_and_its_earlier_rounds_are_the_whole_log_of_the_replay(two_player_game, bob):
    game = fifth_round(two_player_game)
    shown = page(bob, game)
    more = earlier(bob, game, re.search(r"\?rounds=(\d+)", shown).group(1)).content.decode()
    replay = client_for(bob).get(reverse("games:replay", args=[game.pk])).content.decode()
    whole = [t for t, _ in titles(replay) if t.startswith("Spring")]
    assert [t for t, _ in titles(shown) + titles(more)] == whole


def test_rounds_played_since_the_page_was_drawn_are_not_fetched_twice(two_player_game, alice):
    game = fifth_round(two_player_game)
    asked = re.search(r"\?rounds=(\d+)", page(alice, game)).group(1)
    game = play_until(game, lambda s: s.season == 2)  # more rounds since
    assert [t for t, _ in titles(earlier(alice, game, asked).content.decode())] == [
        "Spring, round 2",
        "Spring, round 1",
    ]


def test_a_short_log_has_no_link(two_player_game, alice):
    game = play_until(two_player_game, lambda s: (s.season, s.round) == (1, 3))
    html = page(alice, game)
    assert len(titles(html)) == 3
    assert "story-earlier" not in html


def test_a_spectator_gets_the_rounds_as_the_replay_shows_them_to_a_spectator(
    two_player_game, carol
):
    game = fifth_round(two_player_game)
    more = earlier(carol, game, 2).content.decode()
    replay = client_for(carol).get(reverse("games:replay", args=[game.pk])).content.decode()
    for title in ("Spring, round 2", "Spring, round 1"):
        replayed = _round(replay, title).removesuffix(" See the end of this round")
        assert _round(more, title) == replayed


def _round(html: str, title: str) -> str:
    """The words of one round of a log, without its markup."""
    found = re.search(rf"<summary>{title}</summary>(.*?)</details>", html, re.S)
    assert found, title
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_a_bad_count_asks_for_nothing_and_too_many_gives_all_but_the_rounds_shown(
    two_player_game, alice
):
    game = fifth_round(two_player_game)
    assert earlier(alice, game, "x").content == b""
    assert earlier(alice, game, -3).content == b""
    assert len(titles(earlier(alice, game, 999).content.decode())) == 4


def test_without_htmx_the_address_opens_the_replay(two_player_game, alice):
    url = reverse("games:earlier_rounds", args=[two_player_game.pk]) + "?rounds=2"
    answer = client_for(alice).get(url)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("games:replay", args=[two_player_game.pk])


def test_no_such_game_is_a_404(alice):
    url = reverse("games:earlier_rounds", args=[10**9]) + "?rounds=2"
    assert client_for(alice).get(url, headers=HTMX).status_code == 404
