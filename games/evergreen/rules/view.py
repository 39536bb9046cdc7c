"""What one seat may see of a game: the only door through which state leaves the engine.

Never in a view: the deck order, the generator state, another seat's turn before the
round is revealed (nor what that turn scored). The count left in the shared Bush and
Lake supply is public at every moment, as at the table (the edition says so): it shrinks
as turns are submitted, before they are revealed.
"""

from __future__ import annotations

from typing import Any

from .edition import POWERS
from .engine import edition_of, fertility_values
from .pieces import PIECE_NAMES
from .planet import BIOMES, next_sun
from .state import GameState, SeatState


def _board_json(seat: SeatState, cols: int) -> dict[str, str]:
    return {
        f"{i // cols},{i % cols}": PIECE_NAMES[piece] for i, piece in enumerate(seat.board) if piece
    }


def player_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` sees it (``None``: a spectator), as plain JSON.

    Raises ``ValueError`` for a seat that is not in the game.
    """
    if seat is not None and not 0 <= seat < len(state.seats):
        raise ValueError(f"no seat {seat} in this game")
    ed = edition_of(state)
    planet = ed.planet
    bushes, lakes = state.supply
    seats = []
    for index, s in enumerate(state.seats):
        own = index == seat
        seats.append(
            {
                "seat": index,
                "score": s.score,
                "setup_points": s.setup_points,
                "seasons": [
                    {"season": x.season, "light": x.light, "forest": x.forest, "bud": x.bud}
                    for x in s.seasons
                ],
                "fertility": s.fertility,
                "powers": {p: s.powers[k] for k, p in enumerate(POWERS)},
                "power_levels": {p: ed.power_value(p, s.powers[k]) for k, p in enumerate(POWERS)},
                "board": _board_json(s, planet.cols),
                "card": s.card,
                "season_cards": list(s.season_cards),
                "submitted": s.turn is not None,
                "turn": s.turn.to_json() if own and s.turn is not None else None,
            }
        )
    return {
        "edition": state.edition,
        "viewer": seat,
        "phase": state.phase.value,
        "season": state.season,
        "round": state.round,
        "rounds_in_season": ed.season_rounds[state.season - 1],
        "sun": state.sun,
        "next_sun": next_sun(state.sun) if state.season < ed.seasons else None,
        "solo": state.solo,
        "first_player": state.first,
        "next_first_player": state.next_first,
        "to_pick": state.to_pick,
        "awaiting": list(state.awaiting),
        "pool": list(state.pool),
        "token_card": state.token_card,
        "deck_count": len(state.deck),
        "discard": list(state.discard),
        "fertility_zone": {
            biome: [{"card": c, "face_up": up} for c, up in stack]
            for biome, stack in zip(BIOMES, state.fertility_zone, strict=True)
        },
        "fertility": fertility_values(state, ed),
        "supply": {"bush": bushes, "lake": lakes},
        "ai_cards": list(state.ai_cards),
        "seats": seats,
        "outcome": state.outcome.to_json() if state.outcome else None,
    }
