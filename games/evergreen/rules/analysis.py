"""A seat's decisions reviewed by the strong player: what it would have done instead and
how many points that was worth, by its own evaluation (``strong``).

A pick is valued by the best turn the picked card allows this round (so a pick is judged
apart from the turn played with it); a turn by the board, Bud points and tracks it leaves
(``Evaluator``: expected points from the decision to the end of the game). Both sides of
a review are valued by the same evaluator, so the difference is what the choice cost.

Only what the deciding seat saw is used: ``blind`` replaces the deck's order and the
generator by values made from the seat's view alone before anything is valued, and the
strong player reads others' unrevealed turns only through ``public_supply``. So two games
that look the same to the seat get the same review.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .determinize import unseen_cards
from .engine import edition_of, fertility_values
from .moves import Move, Pick, Turn
from .state import GameState, Phase
from .strong import LEVELS, StrongBot, strong_bot
from .turns import execute_turn


@dataclass(frozen=True, slots=True)
class Review:
    """One decision: the move played and the strong player's best, each with its value."""

    kind: str  # "pick" or "turn"
    season: int
    round: int
    played: Move
    best: Move
    played_points: float  # expected points to the end of the game after the move played
    best_points: float  # ... after the strong player's move

    @property
    def loss(self) -> int:
        """Whole points the move played gave away (0 when it was as good as the best)."""
        return max(0, round(self.best_points - self.played_points))


def blind(state: GameState) -> GameState:
    """``state`` with its secrets (deck order, generator) replaced by public values.

    The deck becomes the cards nobody has seen, in the edition's order, and the generator
    state 0: what is left is what every seat sees, plus the seats' own hidden turns.
    """
    return replace(state, deck=unseen_cards(state, edition_of(state)), rng=0)


def _bot(level: str) -> StrongBot:
    if level not in LEVELS:
        raise ValueError(f"no strong player's level {level!r}")
    return strong_bot(level)(0)


def _review_pick(bot: StrongBot, state: GameState, pick: Pick) -> Review:
    values = bot.pick_values(state, pick.seat)
    best = max(values, key=lambda card: values[card])  # ties: the leftmost, as it plays
    played = values.get(pick.card, values[best])
    if played >= values[best]:
        best = pick.card
    return Review(
        "pick", state.season, state.round, pick, Pick(pick.seat, best), played, values[best]
    )


def _review_turn(bot: StrongBot, state: GameState, turn: Turn) -> Review:
    seat = state.seats[turn.seat]
    assert seat.card is not None
    ed = edition_of(state)
    plan = bot.turn_plan(state, turn.seat)
    evaluator = bot.evaluator(state, turn.seat, fertility_values(state, ed))
    board, powers, bud = execute_turn(ed, seat.board, seat.powers, ed.cards[seat.card], turn, None)
    played = evaluator.value(board) + bud + evaluator.track_value(powers)
    best: Move = plan.turn(turn.seat)
    best_points = plan.value
    if played >= best_points:  # the search keeps a few turns only: it may miss the one played
        best, best_points = turn, played
    return Review("turn", state.season, state.round, turn, best, played, best_points)


def review(state: GameState, move: Move, level: str = "strong") -> Review:
    """The strong player's review of ``move`` made in ``state`` (the state just before it).

    Raises ``ValueError`` for an unknown level or a move that is no decision of ``state``.
    """
    bot = _bot(level)
    seen = blind(state)
    if isinstance(move, Pick) and state.phase is Phase.DRAFT:
        return _review_pick(bot, seen, move)
    if isinstance(move, Turn) and state.phase is Phase.ACTION:
        return _review_turn(bot, seen, move)
    raise ValueError("this move is no decision of this state")


def suggestion(state: GameState, seat: int, level: str = "strong") -> Move:
    """What the strong player would do now for ``seat`` (from the seat's view only).

    Raises ``ValueError`` for an unknown level, or when ``seat`` has no decision to make.
    """
    if seat not in state.awaiting:
        raise ValueError("this seat has no decision to make now")
    return _bot(level).choose(blind(state), seat)


__all__ = ["Review", "blind", "review", "suggestion"]
