"""Moves as immutable values, with one canonical JSON form.

Two kinds of move exist:

* ``Pick(seat, card)`` during the Draft;
* ``Turn(seat, action, effects, power)`` during the Action phase: the declared Action
  ``A``-``D`` with its effects in order, and optionally the card's Power applied wholly
  before or wholly after the Action.

The JSON forms (see ``docs/game-record.md``)::

    {"type": "pick", "seat": 0, "card": "snow/sprout"}
    {"type": "turn", "seat": 1, "action": "C",
     "effects": [{"plant": [2, 3]}, {"grow": [1, 1]}],
     "power": {"power": "lake", "timing": "after",
               "targets": [{"lake": [3, 3], "grow": [[2, 3], [3, 4]]}]}}

``move_from_json`` raises ``InvalidMove`` on anything it cannot read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.enginekit.errors import InvalidMove
from games.enginekit.jsonread import is_int, read_pair

from .edition import POWERS
from .planet import Space

ACTIONS = ("A", "B", "C", "D")
TIMINGS = ("before", "after")
# The effects a turn applies to a space: the one vocabulary of the engine, the turn
# builder, the API and the words of the pages. An Action's: plant a Sprout, Generic
# Growth (with their names in the rulebook); a Power's: each Power that takes a space
# (all but Bud), and a growth beside the Lake just placed.
ACTION_EFFECT_NAMES = {"plant": "Plant Sprout", "grow": "Generic Growth"}
ACTION_EFFECTS = tuple(ACTION_EFFECT_NAMES)
POWER_EFFECTS = (*(power for power in POWERS if power != "bud"), "lake_grow")
EFFECTS = (*ACTION_EFFECTS, *POWER_EFFECTS)


@dataclass(frozen=True, slots=True)
class Pick:
    """Take ``card`` from the drafting pool."""

    seat: int
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "pick", "seat": self.seat, "card": self.card}


@dataclass(frozen=True, slots=True)
class Effect:
    """One Action effect: ``plant`` a Sprout or ``grow`` (Generic Growth) at ``space``."""

    kind: str
    space: Space

    def to_json(self) -> dict[str, list[int]]:
        return {self.kind: list(self.space)}


@dataclass(frozen=True, slots=True)
class LakePlacement:
    """One application of Place Lake: the Lake and up to two adjacent growths."""

    lake: Space
    grow: tuple[Space, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"lake": list(self.lake), "grow": [list(s) for s in self.grow]}


Target = Space | LakePlacement


@dataclass(frozen=True, slots=True)
class PowerUse:
    """The card's Power, applied once per target, wholly ``before`` or ``after`` the Action.

    For ``sprout``/``small``/``big``/``bush`` a target is a space; for ``lake`` it is a
    ``LakePlacement``; ``bud`` takes no target.
    """

    power: str
    timing: str = "after"
    targets: tuple[Target, ...] = ()

    def to_json(self) -> dict[str, Any]:
        targets = [t.to_json() if isinstance(t, LakePlacement) else list(t) for t in self.targets]
        return {"power": self.power, "timing": self.timing, "targets": targets}

    def supply_used(self) -> tuple[int, int]:
        """(Bushes, Lakes) this use takes from the shared supply."""
        if self.power == "bush":
            return len(self.targets), 0
        if self.power == "lake":
            return 0, len(self.targets)
        return 0, 0


@dataclass(frozen=True, slots=True)
class Turn:
    """A seat's whole turn for one round."""

    seat: int
    action: str
    effects: tuple[Effect, ...] = ()
    power: PowerUse | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "turn",
            "seat": self.seat,
            "action": self.action,
            "effects": [e.to_json() for e in self.effects],
            "power": self.power.to_json() if self.power else None,
        }

    def supply_used(self) -> tuple[int, int]:
        return self.power.supply_used() if self.power else (0, 0)


Move = Pick | Turn


def _space(value: Any, what: str) -> Space:
    return read_pair(value, what, "bad_space")


def _seat(data: dict[str, Any]) -> int:
    seat = data.get("seat")
    if not is_int(seat):
        raise InvalidMove("A move needs an integer 'seat'.", "bad_seat")
    return seat


def _power_from_json(data: Any) -> PowerUse:
    if not isinstance(data, dict):
        raise InvalidMove("'power' must be an object or null.", "bad_power")
    power = data.get("power")
    if power not in POWERS:
        raise InvalidMove(f"Unknown Power {power!r}; use one of {', '.join(POWERS)}.", "bad_power")
    timing = data.get("timing", "after")
    if timing not in TIMINGS:
        raise InvalidMove("The Power's 'timing' must be 'before' or 'after'.", "bad_timing")
    raw = data.get("targets", [])
    if not isinstance(raw, list):
        raise InvalidMove("The Power's 'targets' must be a list.", "bad_power")
    targets: list[Target] = []
    for item in raw:
        if power == "lake":
            if not isinstance(item, dict) or "lake" not in item:
                raise InvalidMove(
                    'Each Place Lake target must look like {"lake": [r, c], "grow": [[r, c], ...]}.',
                    "bad_power",
                )
            grow = item.get("grow", [])
            if not isinstance(grow, list):
                raise InvalidMove("A Lake's 'grow' must be a list of spaces.", "bad_power")
            targets.append(
                LakePlacement(
                    _space(item["lake"], "A Lake"),
                    tuple(_space(g, "A Lake growth") for g in grow),
                )
            )
        else:
            targets.append(_space(item, "A Power target"))
    return PowerUse(power, timing, tuple(targets))


def move_from_json(data: Any) -> Move:
    """Read a move from its JSON form; raises ``InvalidMove`` if it is malformed."""
    if not isinstance(data, dict):
        raise InvalidMove("A move must be a JSON object.", "bad_move")
    kind = data.get("type")
    if kind == "pick":
        card = data.get("card")
        if not isinstance(card, str):
            raise InvalidMove("A pick needs a 'card' such as \"snow/sprout\".", "bad_card")
        return Pick(_seat(data), card)
    if kind == "turn":
        action = data.get("action")
        if action not in ACTIONS:
            raise InvalidMove("A turn needs an 'action': one of A, B, C, D.", "unknown_action")
        raw_effects = data.get("effects", [])
        if not isinstance(raw_effects, list):
            raise InvalidMove("'effects' must be a list.", "bad_effect")
        effects = []
        for item in raw_effects:
            if not isinstance(item, dict) or len(item) != 1:
                raise InvalidMove(
                    'Each effect must look like {"plant": [r, c]} or {"grow": [r, c]}.',
                    "bad_effect",
                )
            ((effect_kind, space),) = item.items()
            if effect_kind not in ACTION_EFFECTS:
                raise InvalidMove(
                    f"Unknown effect {effect_kind!r}; use plant or grow.", "bad_effect"
                )
            effects.append(Effect(effect_kind, _space(space, "An effect's space")))
        power_data = data.get("power")
        power = None if power_data is None else _power_from_json(power_data)
        return Turn(_seat(data), action, tuple(effects), power)
    raise InvalidMove("A move's 'type' must be 'pick' or 'turn'.", "bad_move")


def move_to_json(move: Move) -> dict[str, Any]:
    return move.to_json()
