"""What one seat may see of a game: the only door through which state leaves the engine.

Never in a view: the order of the plant deck, the room deck or the bag (only their
sizes), the generator state, and another player's start placement before every player
has chosen theirs. Everything else in Verdant is public.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .edition import POT_KINDS
from .engine import edition_of, score_seat
from .state import GameState, Phase, home_to_json


def _counts(items: tuple[str, ...], order: tuple[str, ...]) -> dict[str, int]:
    counted = Counter(items)
    return {kind: counted[kind] for kind in order}


def player_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` sees it (``None``: a spectator), as plain JSON.

    Raises ``ValueError`` for a seat that is not in the game.
    """
    if seat is not None and not 0 <= seat < len(state.seats):
        raise ValueError(f"no seat {seat} in this game")
    ed = edition_of(state)
    revealed = state.phase is not Phase.START
    seats = []
    for index, s in enumerate(state.seats):
        show_side = revealed or index == seat
        seats.append(
            {
                "seat": index,
                "thumbs": s.thumbs,
                "storage": s.storage,
                "turns": s.turns,
                "start": {
                    "plant": s.start_plant,
                    "room": s.start_room,
                    "chosen": s.start_side is not None,
                    "side": s.start_side if show_side else None,
                },
                "home": home_to_json(s.home),
                "score": score_seat(state, index).to_json(),
            }
        )
    columns = []
    for k in range(ed.market_columns):
        columns.append(
            {
                "column": k,
                "plant": state.market_plants[k],
                "plant_thumbs": state.thumbs_plants[k],
                "token": state.market_tokens[k],
                "room": state.market_rooms[k],
                "room_thumbs": state.thumbs_rooms[k],
                "pot": state.market_pots[k] if state.market_pots else None,
            }
        )
    return {
        "game": "verdant",
        "edition": state.edition,
        "variant": state.variant,
        "goals": [
            {"id": g, "name": ed.goals[g].name, "text": ed.goals[g].text} for g in state.goals
        ],
        "viewer": seat,
        "phase": state.phase.value,
        "solo": state.solo,
        "round": min(state.round, ed.turns_per_player),
        "turns_per_player": ed.turns_per_player,
        "first_player": state.first,
        "to_play": state.to_play,
        "awaiting": list(state.awaiting),
        "market": columns,
        "plant_deck_count": len(state.plant_deck),
        "room_deck_count": len(state.room_deck),
        "bag_count": len(state.bag),
        "pot_supply": _counts(state.pot_stack, POT_KINDS),
        "next_pot": state.pot_stack[-1] if state.pot_stack else None,
        "pot_discard": _counts(state.pot_discard, POT_KINDS),
        "card_discard": list(state.card_discard),
        "box": sorted(state.box),
        "seats": seats,
        "outcome": state.outcome.to_json() if state.outcome else None,
    }
