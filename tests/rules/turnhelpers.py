"""Building turns and reading what they did: shared by the tests of turns and rulings."""

from __future__ import annotations

from games.evergreen.rules import Effect, Phase, Pick, Turn, apply
from games.evergreen.rules.edition import POWERS
from tests.rules.builders import PLANET, action_state, pieces_of, submit_all


def plant(*spaces):
    return tuple(Effect("plant", s) for s in spaces)


def grow(*spaces):
    return tuple(Effect("grow", s) for s in spaces)


def played(state, turn):
    """Seat ``turn.seat``'s board (as pieces) and tracks once the round is revealed."""
    after = submit_all(state, {turn.seat: turn})
    seat = after.seats[turn.seat]
    return pieces_of(PLANET, seat.board), dict(zip(POWERS, seat.powers, strict=True)), after


def one_seat(card, pieces=None, tracks=None, **kwargs):
    """Seat 0 holds ``card`` (seat 1 holds a Wild card); seat 0's planet has ``pieces``."""
    return action_state(
        {0: card, 1: "wild/bud"},
        boards={0: pieces or {}},
        tracks={0: tracks or {}},
        **kwargs,
    )


def reveal(state, turn):
    """The state once ``turn`` and a pass from every other seat are revealed."""
    return submit_all(state, {turn.seat: turn})


def board_after(state, turn):
    return pieces_of(PLANET, reveal(state, turn).seats[turn.seat].board)


def track(state, seat, power):
    return state.seats[seat].powers[POWERS.index(power)]


def run_until(state, done):
    """Play (leftmost card, pass) until ``done(state)``."""
    while not done(state):
        seat = state.awaiting[0]
        if state.phase is Phase.DRAFT:
            state = apply(state, Pick(seat, state.pool[0]))
        else:
            state = apply(state, Turn(seat, "D"))
    return state
