"""Entries of a user's own read in the round trip of a signed-in request's user
(``games.usercache.read_with_user``): the game page's chat finds the reader's mute, block
and mail choices there and asks the cache nothing more for them; a request that changed
one of them reads it again."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from conversations import services as chat
from conversations import shields
from games import usercache
from games.models import Game
from tests.games.gamehelpers import client_for, committed, marks_gone, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("kept_users", "kept_parts")]


@pytest.fixture
def round_trips(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The keys of each ``get_many`` asked of the cache (``games.fragments``'s and
    ``games.usercache``'s) from now on, one list a call."""
    calls: list[list[str]] = []
    get_many = cache.get_many

    def recorded(wanted: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(list(wanted))
        return get_many(wanted, *args, **kwargs)

    monkeypatch.setattr(cache, "get_many", recorded)
    return calls


def page(client: Any, game: Game) -> str:
    return str(client.get(reverse("games:detail", args=[game.pk])).content.decode())


def test_the_page_s_chat_takes_the_reader_s_choices_read_with_the_user(
    action_game: Game, carol: Any, round_trips: list[list[str]]
) -> None:
    alice = user_at(action_game, 0)
    with committed():
        chat.shield(alice, carol.pk, "block")
    client = client_for(alice)
    marks_gone()  # the saves of alice (signing in): her rows may be kept again
    page(client, action_game)  # alice's rows kept, with her session's digest
    round_trips.clear()
    html = page(client, action_game)
    assert "Unblock Carol" in html
    choices = [
        keys for keys in round_trips if any(shields.choices_name(alice.pk) in k for k in keys)
    ]
    assert len(choices) == 1 and any(key.endswith(f"user-rows:{alice.pk}") for key in choices[0])


def test_a_choice_the_request_itself_changed_is_read_again(action_game: Game, carol: Any) -> None:
    alice = user_at(action_game, 0)
    client = client_for(alice)
    marks_gone()
    page(client, action_game)  # alice's rows kept, with her session's digest
    kept = usercache.kept_with_session(alice.pk)
    assert kept is not None
    user, _digest = kept
    assert shields.kept_choices_of(user)[1] == []  # as read with the user: no one blocked
    with committed():
        chat.shield(user, carol.pk, "block")
    assert [b["id"] for b in shields.kept_choices_of(user)[1]] == [carol.pk]
