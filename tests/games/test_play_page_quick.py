"""The game page served from the cache before the user is loaded (``games.pagecache``):
without a query while nothing it shows has changed, and never to anyone else."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import pagecache, pollcache, services
from games.models import Game, Player
from tests.games.gamehelpers import client_for, user_at

# Served from the cache: no query at all (the session is read from the cache too).
QUICK_QUERIES = 0
# When the viewer's records are gone from the cache: the view loads the user with the
# player (one query) and serves the page it finds; the game's version is the cache's.
FALLBACK_QUERIES = 1


@pytest.fixture
def page_cache(settings: Any, monkeypatch: Any) -> Any:
    settings.GAME_PAGE_CACHE_SECONDS = 60
    # One minute throughout: a test crossing into the next would see its pages made anew.
    minute = pagecache.current_minute()
    monkeypatch.setattr(pagecache, "current_minute", lambda: minute)
    # As in production with a shared cache: sessions read from it first.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def game(page_cache: Any, two_player_game: Game) -> Game:
    return two_player_game


def url_of(game: Game) -> str:
    return reverse("games:detail", args=[game.pk])


def fetch(client: Client, url: str, **headers: str) -> tuple[str, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def browser(user: Any, game: Game, csrf: str | None = None) -> tuple[Client, str]:
    """A client that has seen the page twice (rendered, then kept): its page as kept.
    ``csrf``: the CSRF cookie of a browser another user used before."""
    client = client_for(user)
    if csrf is not None:
        client.cookies["csrftoken"] = csrf
    fetch(client, url_of(game))  # sets the CSRF cookie the kept page's token belongs to
    page, _ = fetch(client, url_of(game))
    return client, page


def test_a_player_s_page_comes_from_the_cache_without_a_query(game):
    client, page = browser(user_at(game, 0), game)
    again, queries = fetch(client, url_of(game))
    assert again == page
    assert queries == QUICK_QUERIES


def test_two_seats_in_one_browser_each_get_their_own_page_from_the_cache(game):
    # The same CSRF secret for both: only the user in the key keeps their pages apart.
    first, first_page = browser(user_at(game, 0), game)
    second, second_page = browser(user_at(game, 1), game, csrf=first.cookies["csrftoken"].value)
    assert first_page != second_page
    for _ in range(2):
        assert fetch(first, url_of(game)) == (first_page, QUICK_QUERIES)
        assert fetch(second, url_of(game)) == (second_page, QUICK_QUERIES)


def test_a_visitor_in_a_seat_s_browser_gets_the_visitor_s_page(game):
    seated, seat_page = browser(user_at(game, 0), game)
    visitor = Client()
    visitor.cookies["csrftoken"] = seated.cookies["csrftoken"].value
    fetch(visitor, url_of(game))
    visitor_page, queries = fetch(visitor, url_of(game))
    assert visitor_page != seat_page
    assert queries == QUICK_QUERIES  # a visitor without a session is served from the cache
    assert fetch(seated, url_of(game)) == (seat_page, QUICK_QUERIES)


def test_a_move_makes_the_page_afresh(game):
    state = game.engine_state()
    client, before = browser(picker(game), game)
    services.submit_move(game.pk, picker(game), {"type": "pick", "card": state.pool[0]})
    after, queries = fetch(client, url_of(game))
    assert after != before and queries > QUICK_QUERIES
    assert fetch(client, url_of(game)) == (after, QUICK_QUERIES)


def test_a_page_of_another_version_is_never_served(game):
    client, _page = browser(user_at(game, 0), game)
    cache.set(pollcache.version_key(game.pk), game.version + 1)  # published, not yet read
    _, queries = fetch(client, url_of(game))
    assert queries > FALLBACK_QUERIES  # rendered


def test_the_language_switch_changes_the_page_at_once(game):
    client, english = browser(user_at(game, 0), game)
    client.post(reverse("set_language"), {"language": "de", "next": url_of(game)})
    german, queries = fetch(client, url_of(game))
    assert german != english and '<html lang="de"' in german
    assert queries > QUICK_QUERIES
    response = client.get(url_of(game))
    assert response.content.decode() == german and response["Content-Language"] == "de"


def test_a_new_time_zone_in_the_profile_makes_the_page_afresh(game):
    user = user_at(game, 0)
    client, _ = browser(user, game)
    player = Player.objects.get(user=user)
    player.time_zone = "Asia/Tokyo"
    player.save()
    _, queries = fetch(client, url_of(game))
    assert queries > FALLBACK_QUERIES
    assert fetch(client, url_of(game))[1] == QUICK_QUERIES


def picker(game: Game) -> Any:
    """The player the game waits for: their page has their cards to pick from."""
    return user_at(game, game.engine_state().awaiting[0])


def seated_page(page: str, game: Game) -> bool:
    """Whether a page is a signed-in seat's: the pick form with its cards, a way out."""
    return f"/games/{game.pk}/pick/" in page and "/accounts/logout/" in page


def test_after_logging_out_the_browser_gets_a_visitor_s_page(game):
    client, seat_page = browser(picker(game), game)
    assert seated_page(seat_page, game)
    client.post(reverse("account_logout"))
    page, _ = fetch(client, url_of(game))
    assert not seated_page(page, game) and "/accounts/logout/" not in page


def test_a_password_changed_elsewhere_ends_the_old_session_s_cached_page(game):
    user = picker(game)
    client, seat_page = browser(user, game)
    user.set_password("a new secret")
    user.save()
    page, _ = fetch(client, url_of(game))
    assert seated_page(seat_page, game) and not seated_page(page, game)
    assert client.session.get("_auth_user_id") is None  # Django logged the session out


def test_a_deactivated_user_no_longer_gets_their_cached_page(game):
    user = picker(game)
    client, seat_page = browser(user, game)
    user.is_active = False
    user.save()  # as the admin saves it
    page, _ = fetch(client, url_of(game))
    assert seated_page(seat_page, game) and not seated_page(page, game)


def test_without_the_viewer_s_records_the_view_serves_the_kept_page(game):
    user = user_at(game, 0)
    client, page = browser(user, game)
    cache.delete_many([pagecache.auth_key(user.pk), pagecache.preferences_key(user.pk)])
    assert fetch(client, url_of(game)) == (page, FALLBACK_QUERIES)
    assert fetch(client, url_of(game)) == (page, QUICK_QUERIES)  # the view put them back


def test_the_htmx_region_and_the_whole_page_are_kept_apart(game):
    client, page = browser(user_at(game, 0), game)
    fetch(client, url_of(game), HX_Request="true")
    region, queries = fetch(client, url_of(game), HX_Request="true")
    assert region != page and queries == QUICK_QUERIES
    assert "<html" not in region


def test_a_page_from_the_cache_has_the_headers_of_a_rendered_one(game):
    client = client_for(user_at(game, 0))
    client.get(url_of(game))
    rendered = client.get(url_of(game))
    with CaptureQueriesContext(connection) as queries:
        kept = client.get(url_of(game))
    assert len(queries) == QUICK_QUERIES
    assert kept.content == rendered.content
    names = {name for name in rendered.headers if name not in ("Expires", "Set-Cookie")}
    assert names == {name for name in kept.headers if name not in ("Expires", "Set-Cookie")}
    for name in names - {"Vary"}:
        assert kept[name] == rendered[name], name
    assert set(kept["Vary"].split(", ")) == set(rendered["Vary"].split(", "))  # any order
    assert {"Content-Security-Policy", "X-Frame-Options", "Vary", "Cache-Control"} <= names


def test_a_page_is_kept_for_the_minute_it_was_rendered_in(game, monkeypatch):
    client, _page = browser(user_at(game, 0), game)
    monkeypatch.setattr(pagecache, "current_minute", lambda: 0)  # the countdowns moved on
    _, queries = fetch(client, url_of(game))
    assert queries > FALLBACK_QUERIES  # rendered


def test_a_page_asked_with_other_parameters_is_kept_apart(game):
    client, page = browser(user_at(game, 0), game)
    focused_url = f"{url_of(game)}?focus=1"
    fetch(client, focused_url)
    _focused, queries = fetch(client, focused_url)
    assert queries == QUICK_QUERIES
    assert fetch(client, url_of(game)) == (page, QUICK_QUERIES)


def test_a_visitor_s_language_cookie_chooses_the_kept_page(game):
    visitor = Client()
    visitor.cookies["django_language"] = "de"
    fetch(visitor, url_of(game))  # the CSRF cookie
    fetch(visitor, url_of(game))  # rendered and kept
    german, queries = fetch(visitor, url_of(game))
    assert '<html lang="de"' in german and queries == QUICK_QUERIES
    visitor.cookies["django_language"] = "fr"
    french, queries = fetch(visitor, url_of(game))
    assert '<html lang="fr"' in french and queries > QUICK_QUERIES


def test_a_signed_in_spectator_gets_their_own_page_never_a_seat_s(game, carol):
    seated, seat_page = browser(picker(game), game)
    spectator, spectator_page = browser(carol, game, csrf=seated.cookies["csrftoken"].value)
    assert seated_page(seat_page, game) and not seated_page(spectator_page, game)
    assert "/accounts/logout/" in spectator_page
    assert fetch(spectator, url_of(game)) == (spectator_page, QUICK_QUERIES)
    assert fetch(seated, url_of(game)) == (seat_page, QUICK_QUERIES)
