"""Games in every phase for the security tests, and a fingerprint of a game's stored state."""

from __future__ import annotations

from typing import Any

import pytest
from gamehelpers import play_until

from evergreen import rules
from games import services
from games.models import Game


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int = 20240917) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: seed)


def draft_game(alice: Any, bob: Any) -> Game:
    """Alice (seat 0) and Bob (seat 1) in the first Draft, Alice to pick."""
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def hidden_pick_game(alice: Any, bob: Any) -> Game:
    """A Draft in which one seat has picked a card the others cannot see yet.

    (Picks are visible as cards leave the pool; what a seat holds is hidden until the
    Action phase reveals it.)"""
    game = draft_game(alice, bob)
    state = game.engine_state()
    seat = state.awaiting[0]
    user = alice if seat == 0 else bob
    services.submit_move(game.pk, user, rules.Pick(seat, state.pool[0]))
    game.refresh_from_db()
    return game


def turn_submitted_game(alice: Any, bob: Any) -> Game:
    """The Action phase of round 1: Bob has submitted a turn (planting at 3,3), Alice not."""
    game = play_until(draft_game(alice, bob), lambda s: s.phase is rules.Phase.ACTION)
    turn = {"type": "turn", "action": "D", "effects": [{"plant": [3, 3]}], "power": None}
    services.submit_move(game.pk, bob, turn)
    game.refresh_from_db()
    state = game.engine_state()
    assert state.seats[1].turn is not None and state.seats[0].turn is None
    return game


def solo_game(user: Any) -> Game:
    game = services.create_game(user, players=1)
    game.refresh_from_db()
    return game


def finished_game(alice: Any, bob: Any) -> Game:
    return play_until(draft_game(alice, bob), lambda s: s.is_over, limit=2000)


def open_game(user: Any) -> Game:
    return services.create_game(user, players=3)


def fingerprint(game_id: int) -> tuple[Any, ...]:
    """Everything a refused write must leave as it was."""
    from games.models import FertilityCard, Move, Seat

    game = Game.objects.get(pk=game_id)
    return (
        game.version,
        game.status,
        game.moves_count,
        game.state,
        Move.objects.filter(game_id=game_id).count(),
        list(Seat.objects.filter(game_id=game_id).order_by("position").values()),
        list(FertilityCard.objects.filter(game_id=game_id).order_by("pk").values()),
    )
