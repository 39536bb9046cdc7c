"""Fuzzing the play forms of the pages (pick, ranking, turn steps, turn submission, poll,
replay): any field values give a page (or a redirect), never a 500, and a refused write
leaves the game as it was. Each example runs in a savepoint rolled back afterwards."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from tests.games.gamehelpers import client_for
from tests.security.sechelpers import (
    draft_game,
    fingerprint,
    fixed_seed,
    solo_game,
    turn_submitted_game,
)

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
# Form fields arrive as text; NUL is refused by Django's form parsing like any other value.
field = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            "A",
            "D",
            "after",
            "before",
            "none",
            "plant:3,3",
            "A|after|plant:3,3",
            "|" * 500,
            "snow/sprout",
            "-1",
            "99999999999999999999",
            "1",
            "0",
            "\x00",
        ]
    ),
    st.lists(
        st.sampled_from(
            [
                "A",
                "B",
                "C",
                "D",
                "before",
                "after",
                "none",
                "plant:3,3",
                "grow:2,3",
                "sprout:1,1",
                "lake:3,3",
                "undo",
                "x:y",
            ]
        ),
        max_size=8,
    ).map("|".join),
)
FIELDS = ["card", "version", "key", "steps", "step", "clear", "rank_snow/sprout"]
WRITES = ["pick", "ranking", "turn", "submit_turn"]


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any) -> dict[str, Game]:
    fixed_seed(monkeypatch)
    return {
        "draft": draft_game(alice, bob),
        "turn_submitted": turn_submitted_game(alice, bob),
        "solo": solo_game(alice),
    }


@pytest.fixture
def clients(alice: Any, bob: Any, carol: Any) -> dict[str, Client]:
    found = {"alice": client_for(alice), "bob": client_for(bob), "carol": client_for(carol)}
    found["anonymous"] = Client()
    for client in found.values():
        client.raise_request_exception = False
    return found


@FUZZ
@given(
    form=st.dictionaries(st.sampled_from(FIELDS), field, max_size=5),
    view=st.sampled_from(WRITES),
    which=st.sampled_from(["draft", "turn_submitted", "solo"]),
    who=st.sampled_from(["alice", "bob", "carol", "anonymous"]),
    htmx=st.booleans(),
)
def test_play_forms_with_any_fields_answer_without_a_500_or_a_silent_change(
    games: dict[str, Game],
    clients: dict[str, Client],
    form: dict[str, str],
    view: str,
    which: str,
    who: str,
    htmx: bool,
) -> None:
    game = games[which]
    before = fingerprint(game.pk)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    with transaction.atomic():
        response = clients[who].post(reverse(f"games:{view}", args=[game.pk]), form, **headers)
        assert response.status_code in (200, 302, 303, 400, 403, 409), response.status_code
        if response.status_code not in (200, 302, 303) or view == "turn":
            assert fingerprint(game.pk) == before  # a step of a turn stores nothing
        if response.status_code in (400, 409):
            assert (
                'class="error' in response.content.decode() or b'role="alert"' in response.content
            )
        transaction.set_rollback(True)


@FUZZ
@given(
    params=st.dictionaries(
        st.sampled_from(["turn", "focus", "version", "move"]), field, max_size=4
    ),
    view=st.sampled_from(["detail", "poll", "replay", "record"]),
    htmx=st.booleans(),
)
def test_page_queries_with_any_parameters_answer_without_a_500(
    games: dict[str, Game],
    clients: dict[str, Client],
    params: dict[str, str],
    view: str,
    htmx: bool,
) -> None:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    for who in ("alice", "carol"):
        response = clients[who].get(
            reverse(f"games:{view}", args=[games["turn_submitted"].pk]), params, **headers
        )
        assert response.status_code in (200, 204, 303), (who, response.status_code)
