"""Schemathesis against the published OpenAPI schema (``/api/schema/``), in process.

Every operation gets generated requests (from the schema's examples, its coverage of
edge values and Hypothesis fuzzing, both valid and invalid inputs) sent to the Django
WSGI application as Alice, a real player with a token. The game in the path is one of
her real games in turn (open, her pick, a hidden pick, a submitted turn, solo, finished,
a game she is not in, one that does not exist), so the endpoints do their real work
rather than answering 404. Schemathesis' default checks apply: no 500, status codes,
content types, headers and bodies as documented, invalid input refused; all but
``positive_data_acceptance``: a request that fits the schema may still be refused with
400, since the schema cannot say which card is in the pool or which space is legal
(the engine's refusals are the API's 400s), nor rules across fields (computer seats
fewer than players).
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from gamehelpers import make_user
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance
from sechelpers import (
    draft_game,
    finished_game,
    fixed_seed,
    hidden_pick_game,
    open_game,
    solo_game,
    turn_submitted_game,
)

from evergreen.wsgi import application

pytestmark = pytest.mark.django_db
EXAMPLES = settings(
    max_examples=20, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


class Targets:
    """The real game ids to put in paths, and the token to send."""

    def __init__(self, token: str, game_ids: list[int]) -> None:
        self.token = token
        self.game_ids = game_ids


@pytest.fixture
def targets(monkeypatch: pytest.MonkeyPatch, db: Any) -> Targets:
    fixed_seed(monkeypatch)
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    games = [
        open_game(alice),
        draft_game(alice, bob),
        hidden_pick_game(alice, bob),
        turn_submitted_game(bob, alice),  # alice in seat 1 has submitted; bob has not
        turn_submitted_game(alice, bob),  # alice in seat 0 still has her turn to play
        solo_game(alice),
        finished_game(alice, bob),
        draft_game(bob, carol),  # alice has no seat
    ]
    token, _ = Token.objects.get_or_create(user=alice)
    return Targets(token.key, [game.pk for game in games] + [10**9])


@pytest.fixture
def same_connection() -> Any:
    """Keep the test's database connection across requests, as Django's test client does:
    the WSGI handler would otherwise close it after each response."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def operations() -> list[Any]:
    loaded = schemathesis.openapi.from_wsgi("/api/schema/", application)
    return [result.ok() for result in loaded.get_all_operations()]


def cases(operation: Any, mode: GenerationMode, game_ids: list[int]) -> st.SearchStrategy[Any]:
    if "{id}" not in operation.path:
        return operation.as_strategy(mode)  # type: ignore[no-any-return]
    return st.sampled_from(game_ids).flatmap(
        lambda pk: operation.as_strategy(mode, path_parameters={"id": pk})
    )


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_keeps_to_its_schema(
    targets: Targets, mode: GenerationMode, same_connection: Any
) -> None:
    headers = {"Authorization": f"Token {targets.token}"}
    found = operations()
    assert len(found) >= 13  # every operation of the schema, new ones included
    skipped: list[str] = []
    for operation in found:

        @given(case=cases(operation, mode, targets.game_ids))
        @EXAMPLES
        def check(case: Any) -> None:
            case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance])

        try:
            check()
        except Unsatisfiable:
            # Nothing of this operation can be made invalid once its path is a real game
            # (a GET with the id alone): only the positive run applies to it.
            assert mode is GenerationMode.NEGATIVE, operation.label
            skipped.append(operation.label)
    assert len(skipped) <= len(found) // 2, skipped
