"""The hints a player took are told to everyone who sees the game: the game page, its end,
the replay and the API's game view say "Alice used 2 hints."; a refused hint counts nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from games import drawings, services
from games.analysis import services as analysis
from games.analysis.hints import SeatHints, hints_by_seat, record_hint
from games.models import Game
from tests.games.analysishelpers import play_to_the_end
from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


def duel(alice: Any, bob: Any) -> tuple[Game, Any]:
    """An unrated game of two; the player who decides first."""
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    first = alice if game.engine_state().awaiting == (0,) else bob
    assert game.seats.get(position=game.engine_state().awaiting[0]).user == first
    return game, first


def page(user: Any, name: str, game: Game) -> str:
    return client_for(user).get(reverse(name, args=[game.pk])).content.decode()


def test_hints_taken_are_told_on_the_game_page_to_the_other_player_and_spectators(
    alice: Any, bob: Any, carol: Any
) -> None:
    game, first = duel(alice, bob)
    analysis.hint(game.pk, first)
    analysis.hint(game.pk, first)
    told = f"{game.seats.get(user=first).name} used 2 hints."
    other = bob if first == alice else alice
    for viewer in (other, carol, first):
        assert page(viewer, "games:detail", game).count(told) == 1


def test_with_the_page_s_parts_kept_each_hint_is_told_on_the_next_view(
    alice: Any, bob: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # The counts are kept in the cache for every viewer: each hint given, once
    # committed, must make the next view read them afresh.
    settings.GAME_FRAGMENT_CACHE_SECONDS = 3600
    cache.clear()
    game, first = duel(alice, bob)
    other = bob if first == alice else alice
    name = game.seats.get(user=first).name
    assert "used 1 hint" not in page(other, "games:detail", game)
    for told in (f"{name} used 1 hint.", f"{name} used 2 hints."):
        with django_capture_on_commit_callbacks(execute=True):
            analysis.hint(game.pk, first)
        assert told in page(other, "games:detail", game)
    cache.clear()


def test_the_api_game_view_gives_each_seat_its_hints(
    schema: ResponseSchema, alice: Any, bob: Any, carol: Any
) -> None:
    game, first = duel(alice, bob)
    analysis.hint(game.pk, first)
    position = game.seats.get(user=first).position
    body = api_client_for(carol).get(reverse("api:game", args=[game.pk])).json()
    schema.check("/api/games/{id}/", "get", 200, body)
    assert {seat["position"]: seat["hints_used"] for seat in body["seats"]} == {
        position: 1,
        1 - position: 0,
    }


def test_the_end_of_the_game_and_the_replay_still_tell_them(alice: Any, bob: Any) -> None:
    game, first = duel(alice, bob)
    analysis.hint(game.pk, first)
    play_to_the_end(game)
    told = f"{game.seats.get(user=first).name} used 1 hint."
    detail = page(bob, "games:detail", game)
    assert detail.count(told) == 1  # in the end screen, not again below it
    assert detail.index("The end of the game") < detail.index(told)
    assert told in page(alice, "games:replay", game)


def test_a_refused_hint_counts_nothing(alice: Any, bob: Any) -> None:
    rated = services.create_game(alice, players=2, rated=True)
    services.join_game(rated.pk, bob)
    game, first = duel(alice, bob)
    waiting = bob if first == alice else alice
    for game_id, user, code in (
        (rated.pk, alice, "hint_not_allowed"),
        (game.pk, waiting, "no_decision"),
    ):
        with pytest.raises(services.ServiceError) as refused:
            analysis.hint(game_id, user)
        assert refused.value.code == code
    assert hints_by_seat(rated) == {} and hints_by_seat(game) == {}
    assert 'class="hint-uses' not in page(alice, "games:detail", game)


def test_each_hint_is_counted_for_its_own_seat(alice: Any, bob: Any) -> None:
    game, _first = duel(alice, bob)
    for position in (0, 1, 1, 1):
        record_hint(game, position)
    assert hints_by_seat(game) == {0: 1, 1: 3}


@pytest.mark.parametrize(
    ("language", "one", "many"),
    [
        ("de", "Rowan hat 1 Hinweis genutzt.", "Rowan hat 3 Hinweise genutzt."),
        ("fr", "Rowan a utilisé 1 indice.", "Rowan a utilisé 3 indices."),
        ("ru", "Игрок Rowan использовал 1 подсказку.", "Игрок Rowan использовал 3 подсказки."),
    ],
)
def test_the_line_is_translated(language: str, one: str, many: str) -> None:
    with translation.override(language):
        assert SeatHints(0, "Rowan", 1).text == one
        assert SeatHints(0, "Rowan", 3).text == many


def test_the_api_answer_to_a_move_gives_each_seat_its_hints(alice: Any, bob: Any) -> None:
    # Read with the locked seats, not asked for again after the write.
    game, first = duel(alice, bob)
    analysis.hint(game.pk, first)
    state = game.engine_state()
    position = state.awaiting[0]
    answer = api_client_for(first).post(
        reverse("api:pick", args=[game.pk]), {"card": state.pool[0]}, format="json"
    )
    assert answer.status_code == 200
    assert {seat["position"]: seat["hints_used"] for seat in answer.json()["seats"]} == {
        position: 1,
        1 - position: 0,
    }


def hint_box(html: str) -> str:
    """The hint box and the line of hints taken, the page's own token left out."""
    start, end = html.index('id="hint-box"'), html.index('<section id="chat-game"')
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "TOKEN", html[start:end])


def test_the_hint_box_drawn_once_is_the_box_drawn_afresh_with_each_page_s_token(
    alice: Any, bob: Any
) -> None:
    # The box is drawn once per process for all it shows (games.drawings).
    game, first = duel(alice, bob)
    analysis.hint(game.pk, first)
    name = game.seats.get(user=first).name
    kept = (page(alice, "games:detail", game), page(alice, "games:detail", game))
    tokens = [re.search(r'id="hint-box".*?value="([^"]+)"', html, re.S) for html in kept]
    assert tokens[0] and tokens[1] and tokens[0].group(1) != tokens[1].group(1)
    drawings._forget()
    fresh = page(alice, "games:detail", game)
    assert hint_box(kept[1]) == hint_box(fresh) and f"{name} used 1 hint." in hint_box(fresh)
    analysis.hint(game.pk, first)
    assert f"{name} used 2 hints." in hint_box(page(alice, "games:detail", game))
