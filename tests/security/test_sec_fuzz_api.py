"""Fuzzing the API's writes: bodies, content types and headers of any shape.

Every answer is a JSON ``{"code", "message"}`` refusal with a known status, or a success;
never a 500. A refusal leaves the game exactly as it was. Each example runs in a
savepoint rolled back afterwards, so the games stay in their phase.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games.models import Game
from tests.games.gamehelpers import api_client_for
from tests.security.sechelpers import (
    draft_game,
    fingerprint,
    finished_game,
    fixed_seed,
    hidden_pick_game,
    solo_game,
    turn_submitted_game,
)
from tests.security.strategies import deeply_nested, near_misses, payloads

pytestmark = pytest.mark.django_db

CODE = re.compile(r"^[a-z][a-z0-9_]*$")
REFUSALS = {400, 401, 403, 404, 405, 409, 413, 415, 429}
FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
# What a WSGI server hands Django as a header value: latin-1 text without line breaks.
header_values = st.one_of(
    st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=120),
    st.sampled_from(['"7"', 'W/"3"', "*", "-1", "1e3", "0x10", "99999999999999999999999", ""]),
)
raw_bodies = st.one_of(
    st.binary(max_size=64),
    st.text(max_size=64).map(str.encode),
    st.sampled_from(
        [
            b"",
            b"{",
            b"null",
            b"[]",
            b'"pick"',
            b"1e999999",
            b"NaN",
            b'{"card": Infinity}',
            b'{"action": "D", "effects": [{"plant": [NaN, 1]}]}',
            b'{"card": "\\ud800"}',
            b"\xff\xfe{}",
            ("[" * 100_000 + "]" * 100_000).encode(),
            ('{"a":' * 50_000 + "1" + "}" * 50_000).encode(),
        ]
    ),
)
content_types = st.sampled_from(
    [
        "application/json",
        "application/json; charset=latin-1",
        "application/json; charset=nonsense",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=xx",
        "text/plain",
        "application/xml",
    ]
)


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any) -> dict[str, Game]:
    fixed_seed(monkeypatch)
    return {
        "draft": draft_game(alice, bob),
        "hidden_pick": hidden_pick_game(alice, bob),
        "turn_submitted": turn_submitted_game(alice, bob),
        "solo": solo_game(alice),
        "finished": finished_game(alice, bob),
    }


@pytest.fixture
def clients(alice: Any, bob: Any, carol: Any) -> dict[str, APIClient]:
    found = {
        "alice": api_client_for(alice),
        "bob": api_client_for(bob),
        "carol": api_client_for(carol),
        "anonymous": APIClient(),
    }
    for client in found.values():
        client.raise_request_exception = False
    return found


def check(response: Any, game_id: int, before: Any) -> None:
    """Never a 500; a refusal is a readable JSON error and changed nothing."""
    assert response.status_code < 500, response.content[:500]
    if response.status_code >= 400:
        assert response.status_code in REFUSALS, response.status_code
        body = response.json()
        assert CODE.match(body["code"]), body
        assert isinstance(body["message"], str) and body["message"].strip(), body
        assert fingerprint(game_id) == before


def send(client: APIClient, method: str, url: str, game: Game, **kwargs: Any) -> Any:
    before = fingerprint(game.pk)
    with transaction.atomic():
        response = getattr(client, method)(url, **kwargs)
        check(response, game.pk, before)
        transaction.set_rollback(True)
    return response


def url(name: str, game: Game) -> str:
    return reverse(f"api:{name}", args=[game.pk])


WRITES = ["pick", "turn", "ranking", "join"]
GAMES = ["draft", "hidden_pick", "turn_submitted", "solo", "finished"]
WHO = ["alice", "bob", "carol", "anonymous"]


@FUZZ
@given(
    body=payloads,
    endpoint=st.sampled_from(WRITES),
    which=st.sampled_from(GAMES),
    who=st.sampled_from(WHO),
    key=st.none() | header_values,
    if_match=st.none() | header_values,
)
def test_json_bodies_of_any_shape_are_answered_without_a_500_or_a_change(
    games: dict[str, Game],
    clients: dict[str, APIClient],
    body: Any,
    endpoint: str,
    which: str,
    who: str,
    key: Any,
    if_match: Any,
) -> None:
    headers = {}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    if if_match is not None:
        headers["HTTP_IF_MATCH"] = if_match
    game = games[which]
    send(
        clients[who],
        "post",
        url(endpoint, game),
        game,
        data=json.dumps(body),
        content_type="application/json",
        **headers,
    )


@FUZZ
@given(
    body=raw_bodies,
    content_type=content_types,
    endpoint=st.sampled_from([*WRITES, "games", "vacation", "token"]),
    who=st.sampled_from(WHO),
)
def test_raw_bodies_and_content_types_are_refused_cleanly(
    games: dict[str, Game],
    clients: dict[str, APIClient],
    body: bytes,
    content_type: str,
    endpoint: str,
    who: str,
) -> None:
    game = games["turn_submitted"]
    target = (
        reverse(f"api:{endpoint}")
        if endpoint in ("games", "vacation", "token")
        else url(endpoint, game)
    )
    send(clients[who], "post", target, game, data=body, content_type=content_type)


@FUZZ
@given(data=st.data(), which=st.sampled_from(["draft", "hidden_pick", "turn_submitted", "solo"]))
def test_near_misses_through_the_api_are_refused_with_the_engines_words_or_played(
    games: dict[str, Game], clients: dict[str, APIClient], data: st.DataObject, which: str
) -> None:
    game = games[which]
    state = game.engine_state()
    seat = data.draw(st.sampled_from(state.awaiting or (0,)))
    move = data.draw(near_misses(state, seat))
    kind = move.pop("type")
    move.pop("seat", None)
    who = data.draw(st.sampled_from(["alice" if seat == 0 else "bob", "carol"]))
    response = send(
        clients[who],
        "post",
        url(kind if kind in ("pick", "turn") else "turn", game),
        game,
        data=move,
        format="json",
    )
    if who == "carol":
        assert response.status_code == 403
        assert response.json()["code"] == "not_a_player"


@FUZZ
@given(
    effect=st.text(max_size=12) | st.sampled_from(["plant", "grow", "lake_grow", "lake", "bud"]),
    partial=st.none() | st.text(max_size=40) | payloads.map(json.dumps),
    lake=st.none()
    | st.text(max_size=12)
    | st.sampled_from(["3,3", "(1,2)", "9999999999999,1", "1,2,3", ","]),
    which=st.sampled_from(GAMES),
    who=st.sampled_from(WHO),
)
def test_target_queries_of_any_shape_are_answered_without_a_500(
    games: dict[str, Game],
    clients: dict[str, APIClient],
    effect: str,
    partial: Any,
    lake: Any,
    which: str,
    who: str,
) -> None:
    params = {"effect": effect}
    if partial is not None:
        params["partial"] = partial
    if lake is not None:
        params["lake"] = lake
    game = games[which]
    response = send(clients[who], "get", url("targets", game), game, data=params)
    if response.status_code == 200:
        assert all(len(space) == 2 for space in response.json())


def test_a_json_document_nested_too_deep_is_a_400_not_a_500(
    games: dict[str, Game], clients: dict[str, APIClient]
) -> None:
    game = games["draft"]
    body = json.dumps({"card": deeply_nested(50)}).replace("[0, 0]", "[" * 20_000 + "]" * 20_000)
    response = send(
        clients["alice"],
        "post",
        url("pick", game),
        game,
        data=body,
        content_type="application/json",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "parse_error"


def test_a_partial_turn_nested_too_deep_is_a_400_not_a_500(
    games: dict[str, Game], clients: dict[str, APIClient]
) -> None:
    game = games["turn_submitted"]
    partial = "[" * 3000 + "]" * 3000
    response = send(
        clients["alice"],
        "get",
        url("targets", game),
        game,
        data={"effect": "plant", "partial": partial},
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_partial"
