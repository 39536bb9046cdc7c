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

import re
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from challenges import services as challenge_services
from conversations import services as chat
from evergreen.wsgi import application
from games import ratings, services
from games.analysis import services as analysis
from games.models import Game
from tests.challenges.challengehelpers import finish
from tests.games.gamehelpers import make_user
from tests.security.sechelpers import (
    Clubs,
    draft_game,
    finished_game,
    fixed_seed,
    hidden_pick_game,
    open_game,
    solo_game,
    turn_submitted_game,
)
from tournaments import services as tournaments

# slow: thousands of generated API requests
pytestmark = [pytest.mark.django_db, pytest.mark.slow]
EXAMPLES = settings(
    max_examples=20, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


ONLY_THE_GAME = {
    "GET /api/games/{id}/analysis/",
    "POST /api/games/{id}/analysis/",
    "POST /api/games/{id}/hint/",
}


class Targets:
    """The real values to put in paths (by the path's prefix and parameter), and the token."""

    def __init__(self, token: str, values: dict[str, dict[str, list[Any]]]) -> None:
        self.token = token
        self.values = values

    def for_path(self, path: str) -> dict[str, list[Any]] | None:
        for prefix, values in self.values.items():
            if path.startswith(prefix):
                return values
        return None


@pytest.fixture
def targets(monkeypatch: pytest.MonkeyPatch, db: Any) -> Targets:
    fixed_seed(monkeypatch)
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    finished = finished_game(alice, bob)
    analysis.request_analysis(finished.pk, alice)  # made at once (eager): GET answers it
    # Played as a rated game: alice and bob have a rating and a history.
    Game.objects.filter(pk=finished.pk).update(rated=True)
    assert ratings.rate_game(finished.pk)
    games = [
        open_game(alice),
        draft_game(alice, bob),
        hidden_pick_game(alice, bob),
        turn_submitted_game(bob, alice),  # alice in seat 1 has submitted; bob has not
        turn_submitted_game(alice, bob),  # alice in seat 0 still has her turn to play
        solo_game(alice),
        finished,
        draft_game(bob, carol),  # alice has no seat
        services.create_game(alice, kind="verdant", players=1),  # Verdant's own choices
    ]
    # Events as Alice meets them: one she plays (running: round 1 seated), one open for
    # registration, a draft of her club and another club's draft (not found for her).
    clubs = Clubs(make_user("oscar"), make_user("olga"), alice, bob, make_user("erin"))
    open_event = tournaments.create_event(
        clubs.club, clubs.club.created_by, name="Summer Open", rounds=1
    )
    tournaments.open_registration(open_event, clubs.club.created_by)
    events = [clubs.event.pk, open_event.pk, clubs.draft.pk, clubs.other_event.pk, 10**9]
    # Alice has played today's Verdant challenge to its end: its leaderboard is hers to read.
    entry, _created = challenge_services.start(alice, "verdant")
    finish(entry.game, alice)
    # Messages to edit or delete: alice's own, bob's (not hers to change), and none.
    mine = chat.post_to_game(alice, games[1], "Good luck!")
    theirs = chat.post_to_game(bob, games[1], "You too!")
    token, _ = Token.objects.get_or_create(user=alice)
    return Targets(
        token.key,
        {
            "/api/games/{id}": {"id": [game.pk for game in games] + [10**9]},
            "/api/events/{id}": {"id": events, "number": [1, 2, 0, 10**6]},
            "/api/clubs/{slug}": {
                "slug": [clubs.club.slug, clubs.other_club.slug, "no-such"],
                "channel": ["announce", "discuss", "no-such"],  # a club's conversations
            },
            "/api/ratings/{id}": {"id": [alice.pk, bob.pk, carol.pk, 10**9]},
            "/api/challenges/{kind}": {"kind": ["evergreen", "verdant", "no-such"]},
            "/api/messages/{id}": {"id": [mine.pk, theirs.pk, 10**9]},
        },
    )


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


def cases(operation: Any, mode: GenerationMode, targets: Targets) -> st.SearchStrategy[Any]:
    if "{" not in operation.path:
        return operation.as_strategy(mode)  # type: ignore[no-any-return]
    values = targets.for_path(operation.path)
    assert values is not None, f"give {operation.path} real path values in targets()"
    names = re.findall(r"{(\w+)}", operation.path)
    assert set(names) <= set(values), (operation.path, names)
    chosen = st.fixed_dictionaries({name: st.sampled_from(values[name]) for name in names})
    return chosen.flatmap(lambda found: operation.as_strategy(mode, path_parameters=found))


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_api_keeps_to_its_schema(
    targets: Targets, mode: GenerationMode, same_connection: Any
) -> None:
    headers = {"Authorization": f"Token {targets.token}"}
    found = operations()
    assert len(found) >= 24  # every operation of the schema, new ones included
    skipped: list[str] = []
    answered: dict[str, set[int]] = {}
    for operation in found:

        @given(case=cases(operation, mode, targets))
        @EXAMPLES
        def check(case: Any) -> None:
            response = case.call_and_validate(
                headers=headers, excluded_checks=[positive_data_acceptance]
            )
            answered.setdefault(case.operation.label, set()).add(response.status_code)

        try:
            check()
        except Unsatisfiable:
            # Nothing of this operation can be made invalid once its path is a real game
            # (a GET with the id alone): only the positive run applies to it.
            assert mode is GenerationMode.NEGATIVE, operation.label
            skipped.append(operation.label)
    # Besides the ones that take nothing but the game's id (the analysis, the hint), at
    # most half of the operations have nothing to make invalid.
    rest = [label for label in skipped if label not in ONLY_THE_GAME]
    assert len(rest) <= (len(found) - len(ONLY_THE_GAME)) // 2, skipped
    if mode is GenerationMode.POSITIVE:
        # The real values did their work: every read answered with a body at least once,
        # and so did registering for the open event and withdrawing from Alice's.
        worked = [label for label, codes in answered.items() if 200 in codes]
        for operation in found:
            if operation.method.upper() == "GET" or "/api/events/" in operation.path:
                assert operation.label in worked, (operation.label, answered.get(operation.label))
