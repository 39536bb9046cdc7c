"""Entries that never change under their key kept in the process as well as in Redis
(``games.nearcache``): a game page drawn again by the same process asks Redis nothing for
the game's rows and the parts kept for its version, yet after a move it shows the move;
each reader gets a copy of its own; a game made again under an old number and version
finds nothing of the old one; the memory is bounded."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import fragments, nearcache, rowcache
from games.models import Game
from tests.games.gamehelpers import client_for, submit

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("kept_users", "kept_parts", "kept_rows"),
]


@pytest.fixture
def asked_of_redis(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every key read from the shared cache, in order."""
    asked: list[str] = []
    get, get_many = cache.get, cache.get_many

    def counted_get(key: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(key)
        return get(key, *args, **kwargs)

    def counted_get_many(keys: Any, *args: Any, **kwargs: Any) -> Any:
        asked.extend(keys)
        return get_many(keys, *args, **kwargs)

    monkeypatch.setattr(cache, "get", counted_get)
    monkeypatch.setattr(cache, "get_many", counted_get_many)
    yield asked


def page(user: Any, game: Game) -> str:
    response = client_for(user).get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def drawn(html: str) -> str:
    """The page without what each drawing has of its own (its CSRF token, its forms' key)."""
    html = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", html)
    return re.sub(r"[0-9a-f]{32}", "KEY", html)


def kept_for_a_version(keys: list[str]) -> list[str]:
    """The keys of the rows and of the parts kept for a version of a game."""
    return [key for key in keys if key.startswith(("game-rows:", "game-part:"))]


def test_a_page_drawn_again_reads_its_rows_and_parts_from_the_process(
    two_player_game, carol, asked_of_redis
):
    first = page(carol, two_player_game)
    assert kept_for_a_version(asked_of_redis), "the first page looks in Redis"
    asked_of_redis.clear()
    assert drawn(page(carol, two_player_game)) == drawn(first)
    assert kept_for_a_version(asked_of_redis) == []


def test_after_a_move_the_page_drawn_again_shows_the_move(two_player_game, alice, bob, carol):
    game = two_player_game
    before = page(carol, game)
    state = game.engine_state()
    picker = (alice, bob)[state.to_pick]
    submit(game.pk, picker, {"type": "pick", "card": state.pool[0]})
    after = page(carol, game)
    assert after.count('class="pool-card') == before.count('class="pool-card') - 1
    version = Game.objects.get(pk=game.pk).version
    assert f'data-version="{version}"' in after


def test_each_reader_gets_rows_of_its_own(two_player_game):
    rowcache.read(two_player_game.pk)  # kept
    changed = rowcache.read(two_player_game.pk)
    changed.state = {"changed": True}
    changed.seats_in_order()[0].position = 99
    again = rowcache.read(two_player_game.pk)
    assert again.state == Game.objects.get(pk=two_player_game.pk).state
    assert [seat.position for seat in again.seats_in_order()] == [0, 1]


def test_rows_found_kept_come_with_their_play_state_worked_out(two_player_game, monkeypatch):
    expected = fragments.play_state(Game.objects.get(pk=two_player_game.pk))
    rowcache.read(two_player_game.pk)  # kept, with its play state

    def no_digest(*args: Any, **kwargs: Any) -> str:
        raise AssertionError("the play state was worked out again")

    monkeypatch.setattr(fragments.json, "dumps", no_digest)
    assert fragments.play_state(rowcache.read(two_player_game.pk)) == expected


def test_a_new_snapshot_has_a_new_play_state(two_player_game):
    game = Game.objects.get(pk=two_player_game.pk)
    before = fragments.play_state(game)
    game.state = {**game.state, "round": 99}
    assert fragments.play_state(game) != before


def test_a_game_made_again_under_an_old_number_finds_nothing_of_the_old_one(two_player_game):
    game = Game.objects.get(pk=two_player_game.pk)
    old = fragments.key(game, "scores", 0, ["Alice", "Bob"])
    game.invite_code = "another-game"  # the same number and version, another game
    assert fragments.key(game, "scores", 0, ["Alice", "Bob"]) != old


def test_the_process_forgets_everything_past_its_bound(monkeypatch):
    monkeypatch.setattr(nearcache, "MOST_BYTES", 2000)
    nearcache.forget_all()
    nearcache.keep("near-test:a", "a" * 900, 60)
    nearcache.keep("near-test:b", "b" * 900, 60)
    cache.delete_many(["near-test:a", "near-test:b"])
    assert nearcache.find("near-test:a") == "a" * 900  # held by the process alone
    nearcache.keep("near-test:c", "c" * 900, 60)  # past the bound: all forgotten first
    cache.delete("near-test:c")
    assert nearcache.find("near-test:a") is None
    assert nearcache.find("near-test:c") == "c" * 900


def test_a_changed_setting_forgets_what_the_process_kept(settings):
    nearcache.keep("near-test:d", "kept", 60)
    cache.delete("near-test:d")
    settings.GAME_FRAGMENT_CACHE_SECONDS = 10
    assert nearcache.find("near-test:d") is None
