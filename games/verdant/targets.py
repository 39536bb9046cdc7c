"""What a Verdant player may choose now, for the API's targets endpoint, the page's turn
builder and the smallest move made for a player out of time.

Every answer comes from the engine's own ``rules.targets``; nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from games.kinds import Refusal

from . import rules
from .rules.targets import home_plant_targets, room_targets, rooms


def selections(state: rules.GameState, seat: int, *, free: bool) -> list[rules.Selection]:
    return rules.legal_selections(state, seat, rules.load_edition(state.edition), free=free)


def cells(state: rules.GameState, seat: int, take: str) -> list[tuple[int, int]]:
    return rules.legal_cells(state, seat, take, rules.load_edition(state.edition))


def answer(state: rules.GameState, seat: int, question: Mapping[str, Any]) -> Any:
    """``{"ask": "selections", "free": bool}``: card + token pairs; ``{"ask": "cells",
    "take": "plant"|"room"}``: where that card may go; ``{"ask": "actions"}``: the green
    thumb actions ``seat`` can pay for; ``{"ask": "plants"}``/``{"ask": "rooms"}``: the
    plants that may take verdancy, the rooms free for an item."""
    ask = question.get("ask")
    ed = rules.load_edition(state.edition)
    home = state.seats[seat].home
    if ask == "selections":
        free = question.get("free") in (True, "true", "1")
        return [s._asdict() for s in selections(state, seat, free=free)]
    if ask == "cells":
        take = question.get("take")
        if take not in ("plant", "room"):
            raise Refusal("bad_take", _("A turn takes a plant card or a room card."))
        return [list(p) for p in cells(state, seat, str(take))]
    if ask == "actions":
        return list(rules.green_thumb_actions(state, seat, ed))
    if ask == "plants":
        return [list(p) for p in home_plant_targets(home)]
    if ask == "rooms":
        return [list(p) for p in room_targets(home.cards, home.items)]
    if ask == "all_rooms":
        return [list(p) for p in rooms(home.cards)]
    raise Refusal(
        "bad_question",
        _("Ask for selections, cells, actions, plants or rooms."),
    )


def smallest_move(state: rules.GameState, seat: int) -> rules.Move | None:
    """The move made for a player out of time under the "minimal" policy: the starting
    plant above the room; else the first card + token pair on offer, on its first legal
    cell, with no item used or stored. None if there is none (the caller asks a bot)."""
    if state.phase is rules.Phase.START:
        return rules.Start(seat, "top")
    for choice in selections(state, seat, free=False):
        places = cells(state, seat, choice.take)
        if places:
            return rules.Turn(seat, choice.take, choice.column, choice.token, places[0])
    return None
