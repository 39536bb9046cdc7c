"""The game state: immutable values, serialisable to plain JSON.

A ``GameState`` holds everything needed to continue a game, secrets included (deck
order, the generator state, turns not yet revealed). Never send it to a player: use
``games.evergreen.rules.view.player_view``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .moves import Turn, move_from_json


class Phase(StrEnum):
    DRAFT = "draft"
    ACTION = "action"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class SeasonScore:
    """What one seat scored during one season."""

    season: int
    light: int = 0
    forest: int = 0
    bud: int = 0

    @property
    def total(self) -> int:
        return self.light + self.forest + self.bud


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's planet and tracks."""

    board: tuple[int, ...]
    powers: tuple[int, ...]  # track positions, in ``POWERS`` order; 0 = start
    score: int
    setup_points: int
    seasons: tuple[SeasonScore, ...]  # one entry per season started
    fertility: int = 0  # final Fertility points (after the last season)
    card: str | None = None  # the card picked this round
    season_cards: tuple[str, ...] = ()  # cards in front of the player this season
    turn: Turn | None = None  # submitted this round, not yet revealed


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game, as tournaments and ratings read it."""

    scores: tuple[int, ...]
    ranking: tuple[int, ...]  # seats, best first, ties broken by turn order
    winner: int
    title: str | None = None  # solo mode only

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "winner": self.winner,
            "title": self.title,
        }


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about a game in progress. Drafter ``n`` in solo mode is the A.I."""

    edition: str
    seats: tuple[SeatState, ...]
    solo: bool
    phase: Phase
    season: int
    round: int
    sun: str
    deck: tuple[str, ...]  # secret; the top card is the last element
    discard: tuple[str, ...]
    pool: tuple[str, ...]  # left to right; the leftmost card is nearest the deck
    fertility_zone: tuple[tuple[tuple[str, bool], ...], ...]  # per biome: (card, face up)
    first: int  # drafter who is first player this round
    next_first: int  # holder of the First Player token for the next round
    token_card: str | None  # the pool card carrying the First Player token
    picks_done: int  # picks made this round
    ai_cards: tuple[str, ...]  # solo: cards the A.I. took this season
    supply: tuple[int, int]  # Bushes, Lakes left in the shared supply
    rng: int  # secret generator state
    submitted: tuple[int, ...]  # seats in the order their turns arrived this round
    outcome: Outcome | None = None

    @property
    def drafters(self) -> int:
        return len(self.seats) + 1 if self.solo else len(self.seats)

    @property
    def ai(self) -> int | None:
        """The A.I. drafter's index in solo mode."""
        return len(self.seats) if self.solo else None

    def turn_order(self, first: int | None = None) -> tuple[int, ...]:
        """Drafters in turn order, starting from ``first`` (default: this round's first)."""
        start = self.first if first is None else first
        return tuple((start + k) % self.drafters for k in range(self.drafters))

    @property
    def to_pick(self) -> int | None:
        """The drafter whose pick it is, or None outside the Draft."""
        if self.phase is not Phase.DRAFT:
            return None
        return (self.first + self.picks_done) % self.drafters

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Seats that must act now: the picker, or every seat still to submit a turn."""
        if self.phase is Phase.DRAFT:
            picker = self.to_pick
            return () if picker is None or picker == self.ai else (picker,)
        if self.phase is Phase.ACTION:
            return tuple(
                i for i, s in enumerate(self.seats) if s.card is not None and s.turn is None
            )
        return ()

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER


# --- JSON ---------------------------------------------------------------------------

FORMAT_VERSION = 1


def _seat_to_json(seat: SeatState) -> dict[str, Any]:
    return {
        "board": list(seat.board),
        "powers": list(seat.powers),
        "score": seat.score,
        "setup_points": seat.setup_points,
        "seasons": [[s.season, s.light, s.forest, s.bud] for s in seat.seasons],
        "fertility": seat.fertility,
        "card": seat.card,
        "season_cards": list(seat.season_cards),
        "turn": seat.turn.to_json() if seat.turn else None,
    }


def _seat_from_json(data: dict[str, Any]) -> SeatState:
    turn = move_from_json(data["turn"]) if data["turn"] is not None else None
    if turn is not None and not isinstance(turn, Turn):
        raise ValueError("a seat's pending move must be a turn")
    return SeatState(
        board=tuple(int(v) for v in data["board"]),
        powers=tuple(int(v) for v in data["powers"]),
        score=int(data["score"]),
        setup_points=int(data["setup_points"]),
        seasons=tuple(SeasonScore(*map(int, s)) for s in data["seasons"]),
        fertility=int(data["fertility"]),
        card=data["card"],
        season_cards=tuple(data["season_cards"]),
        turn=turn,
    )


def state_to_json(state: GameState) -> dict[str, Any]:
    """The whole state (secrets included) as plain JSON, for the database snapshot."""
    return {
        "format": FORMAT_VERSION,
        "edition": state.edition,
        "seats": [_seat_to_json(s) for s in state.seats],
        "solo": state.solo,
        "phase": state.phase.value,
        "season": state.season,
        "round": state.round,
        "sun": state.sun,
        "deck": list(state.deck),
        "discard": list(state.discard),
        "pool": list(state.pool),
        "fertility_zone": [[[c, up] for c, up in stack] for stack in state.fertility_zone],
        "first": state.first,
        "next_first": state.next_first,
        "token_card": state.token_card,
        "picks_done": state.picks_done,
        "ai_cards": list(state.ai_cards),
        "supply": list(state.supply),
        "rng": str(state.rng),
        "submitted": list(state.submitted),
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def state_from_json(data: dict[str, Any]) -> GameState:
    """Read back ``state_to_json``'s output; raises ``InvalidState`` if it is malformed."""
    from games.enginekit.errors import InvalidState

    if not isinstance(data, dict):
        raise InvalidState("A game state must be a JSON object.")
    try:
        if data.get("format") != FORMAT_VERSION:
            raise InvalidState(f"Unsupported state format {data.get('format')!r}.")
        outcome = data["outcome"]
        bush, lake = data["supply"]
        return GameState(
            edition=str(data["edition"]),
            seats=tuple(_seat_from_json(s) for s in data["seats"]),
            solo=bool(data["solo"]),
            phase=Phase(data["phase"]),
            season=int(data["season"]),
            round=int(data["round"]),
            sun=str(data["sun"]),
            deck=tuple(data["deck"]),
            discard=tuple(data["discard"]),
            pool=tuple(data["pool"]),
            fertility_zone=tuple(
                tuple((str(c), bool(up)) for c, up in stack) for stack in data["fertility_zone"]
            ),
            first=int(data["first"]),
            next_first=int(data["next_first"]),
            token_card=data["token_card"],
            picks_done=int(data["picks_done"]),
            ai_cards=tuple(data["ai_cards"]),
            supply=(int(bush), int(lake)),
            rng=int(data["rng"]),
            submitted=tuple(int(s) for s in data["submitted"]),
            outcome=None
            if outcome is None
            else Outcome(
                tuple(outcome["scores"]),
                tuple(outcome["ranking"]),
                int(outcome["winner"]),
                outcome["title"],
            ),
        )
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidState(f"The game state cannot be read: {exc}") from exc
