"""Fuzzing ``games.services.submit_move``: any payload is either played exactly as the
engine would play it, or refused with a stable code and message and nothing changed.

Each example runs in a savepoint rolled back afterwards, so the games stay in their
phase for the next example; a refusal is checked against a fingerprint of the game
(version, status, snapshot, Move rows, seats, Fertility Zone rows) taken before it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services
from games.evergreen import rules
from games.models import Game
from tests.security.sechelpers import (
    draft_game,
    fingerprint,
    finished_game,
    fixed_seed,
    hidden_pick_game,
    open_game,
    solo_game,
    turn_submitted_game,
)
from tests.security.strategies import near_misses, payloads

pytestmark = pytest.mark.django_db

CODE = re.compile(r"^[a-z][a-z0-9_]*$")
FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
keys = st.one_of(st.none(), st.text(max_size=90), st.sampled_from(["k", "k" * 80, " "]))
versions = st.one_of(st.none(), st.integers(-(2**63), 2**63), st.sampled_from([0, 1, 5]))


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch, alice: Any, bob: Any, carol: Any) -> dict[str, Game]:
    fixed_seed(monkeypatch)
    return {
        "draft": draft_game(alice, bob),
        "hidden_pick": hidden_pick_game(alice, bob),
        "turn_submitted": turn_submitted_game(alice, bob),
        "solo": solo_game(alice),
        "finished": finished_game(alice, bob),
        "open": open_game(alice),
    }


class Outcome:
    def __init__(self, code: str | None, message: str | None, status: int | None) -> None:
        self.code, self.message, self.status = code, message, status


def attempt(game: Game, user: Any, move: Any, key: str | None, version: int | None) -> Outcome:
    """Submit in a savepoint that is always rolled back; check a refusal changed nothing."""
    before = fingerprint(game.pk)
    with transaction.atomic():
        try:
            result = services.submit_move(
                game.pk, user, move, idempotency_key=key, expected_version=version
            )
        except services.ServiceError as exc:
            assert fingerprint(game.pk) == before
            assert CODE.match(exc.code), exc.code
            assert isinstance(exc.message, str) and exc.message.strip(), exc.code
            assert exc.status in (400, 403, 409)
            return Outcome(exc.code, exc.message, exc.status)
        else:
            _check_accepted(game, user, move, result)
            transaction.set_rollback(True)
    assert fingerprint(game.pk) == before
    return Outcome(None, None, None)


def _check_accepted(game: Game, user: Any, move: Any, result: services.SubmitResult) -> None:
    """An accepted payload is a legal move of the user's own seat, recorded as played."""
    before = Game.objects.get(pk=game.pk)  # inside the savepoint: already the new state
    seat = next(s.position for s in game.seats.all() if s.user_id == user.pk)
    parsed = rules.move_from_json({**move, "seat": seat}) if isinstance(move, dict) else move
    assert result.move.seat == seat
    assert result.move.payload == parsed.to_json()
    assert before.version > game.version


def check_everyone(game: Game, users: list[Any], move: Any, key: Any, version: Any) -> None:
    for user in users:
        first = attempt(game, user, move, key, version)
        if first.code is not None:  # the same refusal, word for word, every time
            again = attempt(game, user, move, key, version)
            assert (again.code, again.message, again.status) == (
                first.code,
                first.message,
                first.status,
            )


@pytest.mark.slow  # a fuzzer
@FUZZ
@given(
    move=payloads,
    key=keys,
    version=versions,
    which=st.sampled_from(["draft", "hidden_pick", "turn_submitted", "solo", "finished", "open"]),
)
def test_any_payload_is_played_as_the_engine_says_or_refused_leaving_the_game_alone(
    games: dict[str, Game],
    alice: Any,
    bob: Any,
    carol: Any,
    move: Any,
    key: Any,
    version: Any,
    which: str,
) -> None:
    users = [alice, bob, carol, AnonymousUser()]
    check_everyone(games[which], users, move, key, version)


@pytest.mark.slow  # a fuzzer
@FUZZ
@given(data=st.data(), which=st.sampled_from(["draft", "hidden_pick", "turn_submitted", "solo"]))
def test_near_misses_of_legal_moves_are_refused_or_legal(
    games: dict[str, Game], alice: Any, bob: Any, carol: Any, data: st.DataObject, which: str
) -> None:
    game = games[which]
    state = game.engine_state()
    awaiting = state.awaiting or (0,)
    seat = data.draw(st.sampled_from(awaiting))
    move = data.draw(near_misses(state, seat))
    users = {0: alice, 1: bob}
    check_everyone(game, [users.get(seat, alice), carol], move, None, None)


@pytest.mark.slow  # a fuzzer
@FUZZ
@given(data=st.data())
def test_a_legal_move_with_garbage_keys_and_versions_is_played_once_or_refused(
    games: dict[str, Game], alice: Any, bob: Any, data: st.DataObject
) -> None:
    game = games["turn_submitted"]
    state = game.engine_state()
    move = data.draw(near_misses(state, 0).filter(lambda m: m["type"] == "turn"))
    key = data.draw(keys)
    version = data.draw(versions)
    outcome = attempt(game, alice, move, key, version)
    # Bob's turn, the last change, is hidden from Alice: a page from just before it still
    # shows her the game as it is, so her move is judged on its own there; any other
    # version that is not the game's is stale.
    hidden_since = game.moves.get(seat=1, kind="turn").result_version - 1
    if version is not None and version != game.version:
        if hidden_since <= version < game.version:
            assert outcome.code != "stale_version"
        else:
            assert outcome.code == "stale_version"


def test_the_fuzzers_do_reach_acceptance(games: dict[str, Game], alice: Any, bob: Any) -> None:
    """Not every payload is refused: a legal one goes through (and is rolled back)."""
    from tests.security.strategies import legal_move

    game = games["turn_submitted"]
    move = legal_move(game.engine_state(), 0, 1)
    assert attempt(game, alice, move, "fresh", game.version).code is None
    assert attempt(game, bob, move, None, None).code == "turn_already_submitted"


def test_an_invitation_code_in_any_alphabet_is_refused_not_a_crash(alice: Any, carol: Any) -> None:
    game = services.create_game(alice, players=2)
    with pytest.raises(services.NotAPlayer) as refused:
        services.join_game(game.pk, carol, invite_code="ünïcode-🌲")
    assert refused.value.code == "bad_invite"
    assert fingerprint(game.pk)[4] == 0


@pytest.mark.parametrize("key", ["\x00", "a\x00b", "k" * 81])
def test_a_key_the_database_cannot_store_is_refused_not_a_crash(
    games: dict[str, Game], alice: Any, key: str
) -> None:
    from tests.security.strategies import legal_move

    game = games["turn_submitted"]
    move = legal_move(game.engine_state(), 0, 1)
    assert attempt(game, alice, move, key, None).code == "bad_idempotency_key"
    with pytest.raises(services.ServiceError):
        services.earlier_move(game.pk, alice, key)
