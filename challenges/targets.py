"""The target of a day: the computer player's score on the day's deal.

The game is played out through the kind alone (no rows, no clocks), exactly as the
platform plays computer seats, so a target can be reproduced from the seed. It is
stored once per challenge: a second computation (a retried task, the beat's safety net)
finds it there and plays nothing.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games import kinds
from games.kinds import GameKind, Setup

from .models import DailyChallenge

# A solo game is a few dozen decisions; a kind that never ends is a bug to report, not
# a worker to keep busy for ever.
MAX_DECISIONS = 2000


def play_out(kind: GameKind, setup: Setup, bot: str) -> Any:
    """The final state of a solo game of ``setup`` played by the computer player ``bot``
    (its seeds derived from the game's, as for a computer seat on the site)."""
    state = kind.advance(kind.new_game(setup))
    for number in range(MAX_DECISIONS):
        if kind.is_over(state):
            return state
        if kind.needs_resolution(state):
            state = kind.advance(kind.resolve(state))
            continue
        seat = kind.awaiting(state)[0]
        move = kind.bot_move(bot, state, seat, setup.seed ^ (number * 7919 + seat))
        state = kind.advance(kind.apply(state, move))
    raise RuntimeError(f"{kind.name}: the solo game did not end in {MAX_DECISIONS} decisions")


def compute_target(challenge_id: int) -> bool:
    """Play the day's deal with the challenge's computer player and store its score and
    title, unless they are stored already. Returns whether it stored them."""
    challenge = DailyChallenge.objects.get(pk=challenge_id)
    if challenge.target_at is not None:
        return False
    kind = kinds.get(challenge.kind)
    setup = Setup(1, challenge.seed, dict(challenge.options))
    final = play_out(kind, setup, challenge.target_bot)
    # Only the first of two racing workers writes (both computed the same result).
    stored = DailyChallenge.objects.filter(pk=challenge_id, target_at__isnull=True).update(
        target_score=kind.scores(final)[0],
        target_title=kind.solo_title(final) or "",
        target_at=timezone.now(),
    )
    return stored == 1
