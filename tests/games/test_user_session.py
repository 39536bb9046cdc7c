"""A signed-in request's session and its user read in one round trip
(``games.usersession``): the browser holds a hint of whom it is signed in as, set once a
request loaded its user and dropped on signing out; a hint naming someone else, or
nothing sensible, never signs anyone in as them and is put right."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from games.models import Game
from games.usersession import HINT_COOKIE
from tests.games.cachecalls import counted
from tests.games.gamehelpers import client_for, marks_gone, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("kept_users", "kept_parts")]


@pytest.fixture(autouse=True)
def sessions_in_the_cache(settings: Any) -> None:
    """Sessions read from the cache first, as in production with Redis."""
    settings.SESSION_ENGINE = "games.usersession"


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The keys of each read of the cache from now on, one list a round trip."""
    return counted(monkeypatch, "get", "get_many")


def my_games(client: Client) -> Any:
    response = client.get(reverse("games:my_games"))
    assert response.status_code == 200
    return response


def test_a_signed_in_page_leaves_the_hint_of_its_user(alice: Any) -> None:
    client = client_for(alice)
    my_games(client)
    hint = client.cookies[HINT_COOKIE]
    assert hint.value == str(alice.pk) and hint["httponly"]


def test_with_the_hint_the_session_and_its_user_come_in_one_round_trip(
    action_game: Game, round_trips: list[list[str]]
) -> None:
    alice = user_at(action_game, 0)
    client = client_for(alice)
    marks_gone()  # the saves of alice (signing in): her rows may be kept again
    client.get(reverse("games:detail", args=[action_game.pk]))  # the hint; alice kept
    round_trips.clear()
    response = client.get(reverse("games:detail", args=[action_game.pk]))
    assert response.wsgi_request.user == alice
    with_user = [keys for keys in round_trips if f"user-rows:{alice.pk}" in keys]
    assert len(with_user) == 1
    assert any(key.startswith("django.contrib.sessions") for key in with_user[0])


def test_a_hint_naming_someone_else_is_never_taken_for_them_and_is_put_right(
    alice: Any, bob: Any
) -> None:
    client = client_for(alice)
    marks_gone()
    my_games(client)
    client.cookies[HINT_COOKIE] = str(bob.pk)
    response = my_games(client)
    assert response.wsgi_request.user == alice
    assert client.cookies[HINT_COOKIE].value == str(alice.pk)


def test_a_hint_that_names_no_one_is_ignored(alice: Any) -> None:
    client = client_for(alice)
    client.cookies[HINT_COOKIE] = "'; DROP TABLE"
    assert my_games(client).wsgi_request.user == alice
    assert client.cookies[HINT_COOKIE].value == str(alice.pk)


def test_signing_out_drops_the_hint(alice: Any) -> None:
    client = client_for(alice)
    my_games(client)
    client.post(reverse("account_logout"))
    assert client.cookies[HINT_COOKIE].value == ""  # expired by the response
    response = client.get(reverse("games:home"))
    assert not response.wsgi_request.user.is_authenticated


def test_a_view_finds_the_request_s_user_itself_not_a_stand_in_for_it(alice: Any) -> None:
    # The lazy object Django puts in request.user is replaced once the user is loaded:
    # the game page reads it about a hundred times.
    signed_in = my_games(client_for(alice)).wsgi_request.user
    visitor = Client().get(reverse("games:home")).wsgi_request.user
    assert type(signed_in) is get_user_model() and signed_in == alice
    assert type(visitor) is AnonymousUser


def test_without_sessions_in_the_cache_no_hint_is_left(alice: Any, settings: Any) -> None:
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"  # the embedded default
    client = client_for(alice)
    my_games(client)
    assert HINT_COOKIE not in client.cookies
