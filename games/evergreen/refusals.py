"""The engine's refusals in the player's language.

``games.evergreen.rules`` raises errors with a stable ``code``, an English ``message`` and
``params`` (plain identifiers: rows, columns, piece, biome and Power keys). A person
must read them in their own language, so every code has sentences here, chosen by the
params the error carries: the most specific sentence whose placeholders are all given
wins, and each code ends with a sentence that needs none. Programs keep reading the
English ``code``; the API's ``message`` is this translated sentence.

``message(exc)`` is what every place that shows a refusal to a person calls: the pages,
the API and the admin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.kinds import Refusal

from . import words
from .rules import RulesError

# (placeholders the sentence needs, the sentence), most specific first.
Sentences = tuple[tuple[frozenset[str], Promise], ...]


def _one(text: Promise, *needs: str) -> tuple[frozenset[str], Promise]:
    return frozenset(needs), text


REFUSALS: dict[str, Sentences] = {
    # Reading a move (InvalidMove)
    "bad_move": (_one(_("A move is a pick or a turn, written as a JSON object.")),),
    "bad_seat": (_one(_("A move must name its seat with a whole number.")),),
    "bad_card": (_one(_('A pick must name its card, for example "snow/sprout".')),),
    "unknown_action": (_one(_("Declare one of the Actions A, B, C or D.")),),
    "bad_effect": (
        _one(
            _("“%(effect)s” is not an Action effect: an Action plants Sprouts or grows."),
            "effect",
        ),
        _one(
            _('Each Action effect is written {"plant": [row, column]} or {"grow": [row, column]}.')
        ),
    ),
    "bad_space": (_one(_("A space is a pair of whole numbers: [row, column].")),),
    "bad_power": (
        _one(
            _(
                "The Power part of the turn cannot be read: give the Power of your card, "
                "its timing and its targets."
            )
        ),
    ),
    "bad_timing": (_one(_("A Power is used either before or after the Action.")),),
    # The game flow
    "bad_player_count": (_one(_("Evergreen is played by 1 to 4 players.")),),
    "bad_sun": (_one(_("The Sun starts at N, E, S or W.")),),
    "game_over": (_one(_("The game is over: no more moves.")),),
    "unknown_seat": (
        _one(_("There is no seat %(seat)s in this game."), "seat"),
        _one(_("There is no such seat in this game.")),
    ),
    "wrong_phase": (
        _one(_("Cards are picked during the Draft; now every player plans a turn."), "pick"),
        _one(_("Turns are played after the Draft: wait until every card is picked.")),
    ),
    "not_your_turn": (_one(_("It is not your pick: wait for the players before you.")),),
    "card_not_in_pool": (
        _one(_("The card %(card)s is not in the drafting pool."), "card"),
        _one(_("This card is not in the drafting pool.")),
    ),
    "no_card": (_one(_("You have no card this round, so you have no turn.")),),
    "turn_already_submitted": (_one(_("You have already played your turn this round.")),),
    # A turn on the planet
    "effect_not_allowed": (
        _one(_("Action %(action)s has no “%(effect)s” effect."), "action", "effect"),
        _one(_("The Action you chose has no such effect.")),
    ),
    "too_many_effects": (
        _one(
            _(
                "Your %(power)s Power is at level %(level)s after the upgrade: it applies "
                "at most %(level)s times, not %(count)s."
            ),
            "power",
            "level",
            "count",
        ),
        _one(_("A Lake grows at most 2 adjacent spaces."), "lake_row"),
        _one(_("Too many effects: Action %(action)s allows no more."), "action"),
        _one(_("Too many effects for this Action or Power.")),
    ),
    "same_space_twice": (
        _one(_("A Lake's two growths must be in different spaces."), "lake_row"),
        _one(_("Action %(action)s must use a different space for each effect."), "action"),
        _one(_("Each effect must use a different space.")),
    ),
    "wrong_biome": (
        _one(
            _(
                "Your card is %(suit)s: this Action's effects must be in the %(suit)s biome, "
                "and row %(row)s, column %(col)s is %(biome)s."
            ),
            "suit",
            "row",
            "col",
            "biome",
        ),
        _one(_("This Action works only in the biome of your card.")),
    ),
    "off_planet": (
        _one(_("The space at row %(row)s, column %(col)s is off the planet."), "row", "col"),
        _one(_("This space is not on the planet.")),
    ),
    "crevice": (
        _one(
            _(
                "The space at row %(row)s, column %(col)s is a crevice: nothing can ever be placed there."
            ),
            "row",
            "col",
        ),
        _one(_("This space is a crevice: nothing can ever be placed there.")),
    ),
    "occupied": (
        _one(
            _(
                "You cannot place a %(piece)s at row %(row)s, column %(col)s: it already holds a %(held)s."
            ),
            "row",
            "col",
            "held",
            "piece",
        ),
        _one(_("This space is taken: pieces are placed on empty spaces.")),
    ),
    "nothing_to_grow": (
        _one(
            _("There is nothing to grow at row %(row)s, column %(col)s: plant a Sprout first."),
            "row",
            "col",
        ),
        _one(_("There is nothing to grow there: plant a Sprout first.")),
    ),
    "big_tree_cannot_grow": (
        _one(
            _("The Big Tree at row %(row)s, column %(col)s cannot grow any further."),
            "row",
            "col",
        ),
        _one(_("A Big Tree cannot grow any further.")),
    ),
    "cannot_grow_piece": (
        _one(
            _(
                "A %(held)s at row %(row)s, column %(col)s does not grow; only Sprouts and Small Trees do."
            ),
            "row",
            "col",
            "held",
        ),
        _one(_("Only Sprouts and Small Trees grow.")),
    ),
    "sprout_to_big_tree": (
        _one(
            _(
                "The Sprout at row %(row)s, column %(col)s cannot grow straight into a Big Tree: "
                "it must become a Small Tree first."
            ),
            "row",
            "col",
        ),
        _one(_("A Sprout cannot become a Big Tree at once: it must become a Small Tree first.")),
    ),
    "needs_sprout": (
        _one(
            _(
                "Small Tree Growth needs a Sprout, but row %(row)s, column %(col)s holds a %(held)s."
            ),
            "row",
            "col",
            "held",
        ),
        _one(_("Small Tree Growth needs a Sprout.")),
    ),
    "wrong_power": (
        _one(_("The Power of your card is %(card_power)s, not %(power)s."), "card_power", "power"),
        _one(_("You may use only the Power of the card you picked.")),
    ),
    "power_needs_effect": (
        _one(_("A Power you activate must be applied at least once; leave it out instead.")),
    ),
    "bud_takes_no_target": (_one(_("Bud takes no target: it simply scores points.")),),
    "bush_supply_empty": (
        _one(
            _("Only %(left)s Bush(es) left in the supply; you asked for %(asked)s."),
            "left",
            "asked",
        ),
        _one(_("There are not enough Bushes left in the supply.")),
    ),
    "lake_supply_empty": (
        _one(
            _("Only %(left)s Lake(s) left in the supply; you asked for %(asked)s."),
            "left",
            "asked",
        ),
        _one(_("There are not enough Lakes left in the supply.")),
    ),
    "lake_not_adjacent": (
        _one(
            _(
                "The space at row %(row)s, column %(col)s is not orthogonally adjacent to the "
                "Lake at row %(lake_row)s, column %(lake_col)s."
            ),
            "row",
            "col",
            "lake_row",
            "lake_col",
        ),
        _one(_("A Lake grows only the spaces right next to it.")),
    ),
}

# A code the table does not know (a new engine refusal before its translation).
FALLBACK = _("This move is not allowed.")


def _words(params: Mapping[str, object]) -> dict[str, Any]:
    """The params as the sentence shows them: keys of pieces, biomes, Powers turned into
    their names in the active language."""
    names: dict[str, Any] = dict(params)
    for key in ("piece", "held"):
        if isinstance(names.get(key), str):
            names[key] = words.PIECE_NAMES.get(str(names[key]), _("empty space"))
    for key in ("suit", "biome"):
        if isinstance(names.get(key), str):
            names[key] = words.BIOME_NAMES.get(str(names[key]), names[key])
    for key in ("power", "card_power"):
        if isinstance(names.get(key), str):
            names[key] = words.POWER_NAMES.get(str(names[key]), names[key])
    if isinstance(names.get("effect"), str) and names["effect"] in words.ACTION_EFFECT_NAMES:
        names["effect"] = words.ACTION_EFFECT_NAMES[str(names["effect"])]
    if isinstance(names.get("card"), str):
        names["card"] = words.card_name(str(names["card"]))
    if names.get("move") == "pick":
        names["pick"] = "pick"
    return {k: str(v) for k, v in names.items()}


def sentence(code: str, params: Mapping[str, object] | None = None) -> str:
    """The refusal ``code`` with ``params`` as a sentence in the active language."""
    given = _words(params or {})
    for needs, text in REFUSALS.get(code, ()):
        if needs <= given.keys():
            return str(text) % given if needs else str(text)
    return str(FALLBACK)


def message(exc: Exception) -> str:
    """What a person reads for a refused move or step.

    An engine error is translated by its code (every code the engine raises is in
    ``REFUSALS``; a test reads the engine's source to make sure). Errors raised by the web
    layer (a ``ServiceError``, a turn builder's step errors) already speak the player's
    language and keep their own message.
    """
    if isinstance(exc, RulesError) and exc.code in REFUSALS:
        return sentence(exc.code, exc.params)
    return str(getattr(exc, "message", exc))


# Engine refusals that mean "not now" rather than "never": answered 409.
CONFLICT_CODES = frozenset(
    {"not_your_turn", "wrong_phase", "turn_already_submitted", "no_card", "game_over"}
)


def refused(exc: RulesError) -> Refusal:
    """The engine's error as the platform's ``Refusal``, in the player's language."""
    return Refusal(exc.code, message(exc), conflict=exc.code in CONFLICT_CODES)
