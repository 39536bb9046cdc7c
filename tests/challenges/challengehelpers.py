"""Helpers for the daily challenge's tests: a controllable clock and finishing a game
fast by playing the kind's computer player's moves through the services."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from games import kinds
from games.models import Game
from tests.games.gamehelpers import Clock, submit

NOON = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def clock_at(monkeypatch: Any, now: datetime = NOON) -> Clock:
    """``timezone.now`` fixed at ``now`` (noon UTC by default), to be moved by the test."""
    return Clock.installed(monkeypatch, now)


def finish(game: Game, user: Any, *, bot: str = "greedy", stop_before_end: bool = False) -> Game:
    """Play ``user``'s solo game to its end (or to its last decision) with ``bot``'s moves,
    each one through ``services.submit_move`` as a player's would go, committed
    (``gamehelpers.submit``: the round closes after the commit)."""
    kind = kinds.of(game)
    for number in range(2000):
        game.refresh_from_db()
        state = game.engine_state()
        if kind.is_over(state):
            return game
        seat = kind.awaiting(state)[0]
        move = kind.bot_move(bot, state, seat, number)
        if stop_before_end and kind.is_over(kind.advance(_applied(kind, state, move))):
            return game
        submit(game.pk, user, move)
    raise AssertionError("the game did not end")


def _applied(kind: kinds.GameKind, state: Any, move: Any) -> Any:
    state = kind.advance(kind.apply(state, move))
    while kind.needs_resolution(state):
        state = kind.advance(kind.resolve(state))
    return state
