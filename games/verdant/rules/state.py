"""The game state: immutable values, serialisable to plain JSON.

A ``GameState`` holds everything needed to continue a game, secrets included (the order
of both decks and of the bag, the generator state, start placements not yet revealed).
Never send it to a player: use ``games.verdant.rules.view.player_view``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.enginekit.errors import InvalidState

from .home import SIZE, Home, index, position

VARIANTS = ("standard", "family")


class Phase(StrEnum):
    START = "start"  # every player chooses a start placement, hidden until all have
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's home, green thumbs, storage and starting cards."""

    home: Home
    thumbs: int
    start_plant: str
    start_room: str
    start_side: str | None = None  # secret until every player has chosen
    storage: str | None = None
    turns: int = 0


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game, as tournaments and ratings read it."""

    scores: tuple[int, ...]
    ranking: tuple[int, ...]  # seats, best first: score, then green thumbs, then turn order
    winners: tuple[int, ...]  # more than one when the tie-break leaves a shared victory
    title: str | None = None  # solo mode only (None below the lowest title)

    @property
    def winner(self) -> int:
        return self.ranking[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "winners": list(self.winners),
            "winner": self.winner,
            "title": self.title,
        }


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything about a game in progress. Market slots are indexed 0 (nearest the decks) to 3."""

    edition: str
    variant: str
    goals: tuple[str, ...]
    seats: tuple[SeatState, ...]
    phase: Phase
    first: int  # the starting player
    turn: int  # turns played so far, by everyone
    plant_deck: tuple[str, ...]  # secret; the top card is the last element
    room_deck: tuple[str, ...]  # secret
    bag: tuple[str, ...]  # secret; the next token drawn is the last element
    market_plants: tuple[str | None, ...]
    market_tokens: tuple[str | None, ...]
    market_rooms: tuple[str | None, ...]
    thumbs_plants: tuple[int, ...]  # green thumbs lying on each market plant
    thumbs_rooms: tuple[int, ...]
    market_pots: tuple[str | None, ...]  # solo: the pot above each column; () otherwise
    pot_stack: tuple[str, ...]  # the pot supply, best on top (the last element)
    pot_discard: tuple[str, ...]  # solo: pots discarded from the 4th column
    card_discard: tuple[str, ...]  # solo: cards discarded from the 4th column
    box: tuple[str, ...]  # tokens out of the game: used nurture, unkept items, solo discards
    rng: int  # secret generator state
    outcome: Outcome | None = None

    @property
    def solo(self) -> bool:
        return len(self.seats) == 1

    @property
    def family(self) -> bool:
        return self.variant == "family"

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is, or None outside the play phase."""
        if self.phase is not Phase.PLAY:
            return None
        return (self.first + self.turn) % len(self.seats)

    @property
    def awaiting(self) -> tuple[int, ...]:
        """Seats that must act now: all still to choose a start, or the player to play."""
        if self.phase is Phase.START:
            return tuple(i for i, s in enumerate(self.seats) if s.start_side is None)
        if self.phase is Phase.PLAY:
            return ((self.first + self.turn) % len(self.seats),)
        return ()

    @property
    def round(self) -> int:
        """The round being played, 1-13 (every player has one turn a round)."""
        return self.turn // len(self.seats) + 1

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def turn_order(self) -> tuple[int, ...]:
        n = len(self.seats)
        return tuple((self.first + k) % n for k in range(n))


# --- JSON ---------------------------------------------------------------------------

FORMAT_VERSION = 1


def home_to_json(home: Home) -> dict[str, dict[str, Any]]:
    """The home's cards by relative ``"r,c"`` key (the starting room is at 0,0)."""
    cells = {}
    for i in home.occupied:
        row, col = position(i)
        cells[f"{row},{col}"] = {
            "card": home.cards[i],
            "verdancy": home.verdancy[i],
            "completed": home.completed[i],
            "pot": home.pots[i],
            "item": home.items[i],
        }
    return cells


def home_from_json(data: dict[str, Any]) -> Home:
    cards: list[str | None] = [None] * SIZE
    verdancy, completed = [0] * SIZE, [False] * SIZE
    pots: list[str | None] = [None] * SIZE
    items: list[str | None] = [None] * SIZE
    for key, cell in data.items():
        row, col = (int(v) for v in key.split(","))
        i = index((row, col))
        if i is None:
            raise ValueError(f"cell {key} is outside any home")
        cards[i] = str(cell["card"])
        verdancy[i] = int(cell["verdancy"])
        completed[i] = bool(cell["completed"])
        pots[i] = cell["pot"]
        items[i] = cell["item"]
    return Home(tuple(cards), tuple(verdancy), tuple(completed), tuple(pots), tuple(items))


def _seat_to_json(seat: SeatState) -> dict[str, Any]:
    return {
        "home": home_to_json(seat.home),
        "thumbs": seat.thumbs,
        "start_plant": seat.start_plant,
        "start_room": seat.start_room,
        "start_side": seat.start_side,
        "storage": seat.storage,
        "turns": seat.turns,
    }


def _seat_from_json(data: dict[str, Any]) -> SeatState:
    return SeatState(
        home=home_from_json(data["home"]),
        thumbs=int(data["thumbs"]),
        start_plant=str(data["start_plant"]),
        start_room=str(data["start_room"]),
        start_side=data["start_side"],
        storage=data["storage"],
        turns=int(data["turns"]),
    )


def state_to_json(state: GameState) -> dict[str, Any]:
    """The whole state (secrets included) as plain JSON, for the database snapshot."""
    return {
        "format": FORMAT_VERSION,
        "game": "verdant",
        "edition": state.edition,
        "variant": state.variant,
        "goals": list(state.goals),
        "seats": [_seat_to_json(s) for s in state.seats],
        "phase": state.phase.value,
        "first": state.first,
        "turn": state.turn,
        "plant_deck": list(state.plant_deck),
        "room_deck": list(state.room_deck),
        "bag": list(state.bag),
        "market_plants": list(state.market_plants),
        "market_tokens": list(state.market_tokens),
        "market_rooms": list(state.market_rooms),
        "thumbs_plants": list(state.thumbs_plants),
        "thumbs_rooms": list(state.thumbs_rooms),
        "market_pots": list(state.market_pots),
        "pot_stack": list(state.pot_stack),
        "pot_discard": list(state.pot_discard),
        "card_discard": list(state.card_discard),
        "box": list(state.box),
        "rng": str(state.rng),
        "outcome": state.outcome.to_json() if state.outcome else None,
    }


def state_from_json(data: Any) -> GameState:
    """Read back ``state_to_json``'s output; raises ``InvalidState`` if it is malformed."""
    if not isinstance(data, dict):
        raise InvalidState("A game state must be a JSON object.")
    try:
        if data.get("format") != FORMAT_VERSION or data.get("game") != "verdant":
            raise InvalidState(f"Unsupported state format {data.get('format')!r}.")
        outcome = data["outcome"]
        return GameState(
            edition=str(data["edition"]),
            variant=str(data["variant"]),
            goals=tuple(str(g) for g in data["goals"]),
            seats=tuple(_seat_from_json(s) for s in data["seats"]),
            phase=Phase(data["phase"]),
            first=int(data["first"]),
            turn=int(data["turn"]),
            plant_deck=tuple(data["plant_deck"]),
            room_deck=tuple(data["room_deck"]),
            bag=tuple(data["bag"]),
            market_plants=tuple(data["market_plants"]),
            market_tokens=tuple(data["market_tokens"]),
            market_rooms=tuple(data["market_rooms"]),
            thumbs_plants=tuple(int(v) for v in data["thumbs_plants"]),
            thumbs_rooms=tuple(int(v) for v in data["thumbs_rooms"]),
            market_pots=tuple(data["market_pots"]),
            pot_stack=tuple(data["pot_stack"]),
            pot_discard=tuple(data["pot_discard"]),
            card_discard=tuple(data["card_discard"]),
            box=tuple(data["box"]),
            rng=int(data["rng"]),
            outcome=None
            if outcome is None
            else Outcome(
                tuple(int(v) for v in outcome["scores"]),
                tuple(int(v) for v in outcome["ranking"]),
                tuple(int(v) for v in outcome["winners"]),
                outcome["title"],
            ),
        )
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InvalidState(f"The game state cannot be read: {exc}") from exc
