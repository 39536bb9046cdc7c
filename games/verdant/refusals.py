"""Verdant's refusals in the player's language.

The engine raises ``RulesError`` with a stable ``code``, an English ``message`` and
``params`` (row, col, column, item, thumbs ...). A person reads the sentence here for the
code: the first sentence whose placeholders the error gives. Programs keep the code.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from . import words
from .rules import RulesError

CELL = ("row", "col")

# code -> (placeholders needed, sentence), most specific first; the last needs none.
REFUSALS: dict[str, tuple[tuple[tuple[str, ...], Promise], ...]] = {
    # Reading a move
    "bad_move": (((), _("A move is a start placement, a wipe or a turn, as a JSON object.")),),
    "bad_seat": (((), _("A move must name its seat with a whole number.")),),
    "bad_side": (((), _("The starting plant goes above, below, left or right of the room.")),),
    "bad_columns": (((), _("Market columns are whole numbers from 0 to 3.")),),
    "bad_take": (((), _("A turn takes a plant card or a room card.")),),
    "bad_cell": (((), _("A cell is a pair of whole numbers: [row, column].")),),
    "bad_step": (((), _("A step places an item, uses a nurture token or spends green thumbs.")),),
    "bad_store": (((), _("Storage holds the name of one item, or nothing.")),),
    # The game flow
    "bad_player_count": (((), _("Verdant is played by 1 to 5 players.")),),
    "bad_variant": (((), _("The variant is standard or family.")),),
    "bad_goals": (((), _("Goal cards are on or off.")),),
    "game_over": (((), _("The game is over: no more moves.")),),
    "unknown_seat": (((), _("There is no such seat in this game.")),),
    "wrong_phase": (
        (("start",), _("The start placements are over.")),
        ((), _("Turns begin once every player has placed their starting plant.")),
    ),
    "start_already_chosen": (((), _("You have already chosen your start placement.")),),
    "not_your_turn": (((), _("It is not your turn.")),),
    # A turn
    "not_in_family": (((), _("The family variant has no green thumb actions.")),),
    "not_enough_thumbs": (
        (("thumbs",), _("A green thumb action costs 2 green thumbs; you have %(thumbs)s.")),
        ((), _("A green thumb action costs 2 green thumbs.")),
    ),
    "bad_wipe": (((), _("Clearing the market sets aside 1 to 4 different tokens.")),),
    "empty_slot": (((), _("That market place is empty.")),),
    "no_such_column": (((), _("The market has four columns.")),),
    "different_columns": (
        ((), _("Take a card and a token from the same column, or pay 2 green thumbs.")),
    ),
    "outside_home": (((), _("A home is at most 5 cards wide and 3 cards tall.")),),
    "cell_taken": (((), _("A card already lies there.")),),
    "not_adjacent": (((), _("A new card must touch a card of your home.")),),
    "same_kind_adjacent": (((), _("Plants and rooms alternate: no plant next to a plant.")),),
    "not_a_plant": (((), _("There is no plant of yours there.")),),
    "plant_completed": (((), _("That plant is completed: it takes no more verdancy.")),),
    "not_a_room": (((), _("There is no room of yours there.")),),
    "room_occupied": (((), _("That room already holds a furniture or pet token.")),),
    "bad_targets": (((), _("That item cannot be used on those cells.")),),
    "unknown_item": (((), _("There is no such item.")),),
    "wrong_item_use": (
        ((), _("Furniture and pets go on a room; nurture tokens are used on plants.")),
    ),
    "item_not_available": (
        (
            ("item",),
            _("You have no %(item)s this turn (only the token you took and your stored one)."),
        ),
        ((), _("You have only the token you took and your stored one this turn.")),
    ),
    # Records and states
    "not_a_record": (((), _("This is not a Verdant game record.")),),
    "bad_record": (((), _("The game record is incomplete or malformed.")),),
    "record_illegal_move": (((), _("A move of the record is illegal.")),),
    "invalid_state": (((), _("The saved game cannot be read.")),),
    "unknown_edition": (((), _("This edition of Verdant is unknown.")),),
    "invalid_edition": (((), _("The edition of Verdant is malformed.")),),
}
CELL_SUFFIX = _("(row %(row)s, column %(col)s from your starting room)")
CELL_CODES = frozenset(
    {
        "cell_taken",
        "not_adjacent",
        "same_kind_adjacent",
        "outside_home",
        "not_a_plant",
        "plant_completed",
        "not_a_room",
        "room_occupied",
    }
)


def _values(params: dict[str, Any]) -> dict[str, Any]:
    values = dict(params)
    if "item" in values:
        values["item"] = words.item(str(values["item"]))
    if values.get("move") == "start":
        values["start"] = True
    return values


def message(exc: RulesError) -> str:
    """The sentence for ``exc`` in the active language."""
    values = _values(exc.params)
    for needs, sentence in REFUSALS.get(exc.code, ()):
        if all(name in values for name in needs):
            text = str(sentence) % {k: values[k] for k in needs} if needs else str(sentence)
            if exc.code in CELL_CODES and all(k in values for k in CELL):
                text += " " + str(CELL_SUFFIX) % {k: values[k] for k in CELL}
            return text
    return exc.message
