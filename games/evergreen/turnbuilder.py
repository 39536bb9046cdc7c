"""A turn being built step by step in the browser, before it is submitted.

Nothing is stored on the server: the turn so far travels in a hidden form field (and in
the page address, so a reload keeps it) in the one text form of a turn, its JSON form in
the game record (``rules.move_to_json``), for example::

    {"type": "turn", "seat": 0, "action": "C", "effects": [{"plant": [2, 3]}],
     "power": {"power": "lake", "timing": "after", "targets": [{"lake": [3, 3],
     "grow": [[2, 3]]}]}, "part": 2}

A turn being built may stop short of a whole one: ``"power"`` is absent until the player
says when to use the Power (``null``: not at all), and ``"part": 2`` says the first part
is done (``next``). Every request reads the turn back and has the engine check it again
(``preview_board``), so a tampered or outdated field is refused with the engine's own
message; the engine checks the whole turn once more when it is submitted.

The steps follow the order the turn will be carried out in:

1. the Action (``A``-``D``);
2. when the card's Power is used: ``before`` or ``after`` the Action, or ``none``;
3. the effects of the first part (the Power if ``before``, else the Action), then
   ``next``, then the effects of the second part. All the Power's effects are applied
   together, never split around the Action's.

Inside the builder a step is an Action letter, a timing, ``next``, or an effect applied
to a space: ``(kind, space)`` where ``kind`` is one of ``rules.moves.EFFECTS`` (an Action
effect, or a Power effect: ``lake_grow`` is a growth around the Lake placed last).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from games.evergreen import rules
from games.evergreen.rules import IllegalMove, RulesError
from games.evergreen.rules.moves import (
    ACTION_EFFECTS,
    ACTIONS,
    POWER_EFFECTS,
    LakePlacement,
    Target,
)
from games.evergreen.rules.pieces import EMPTY
from games.evergreen.rules.planet import Space
from games.evergreen.rules.targets import legal_targets, power_level_after_upgrade, preview_board

TIMINGS = ("before", "after", "none")
MAX_STEPS = 24
MAX_TEXT = 2000  # characters of the turn's text: a whole turn needs far fewer
_SPACE_VALUE = re.compile(r"^(\d{1,2}),(\d{1,2})$")


class BuildError(RulesError):
    """Steps that cannot be read or are out of order (a stale or tampered form)."""

    default_code = "bad_turn_steps"


# A step: an Action letter, a timing, "next", or an effect applied to a space.
Step = str | tuple[str, Space]


def parse_space(value: str) -> Space | None:
    """``"2,3"`` → ``(2, 3)``; None when the value is not a space."""
    match = _SPACE_VALUE.match(value.strip())
    return (int(match.group(1)), int(match.group(2))) if match else None


@dataclass(frozen=True)
class TurnBuilder:
    """The steps of one seat's turn so far; ``power`` is the Power on the seat's card."""

    seat: int
    power: str
    steps: tuple[Step, ...] = ()

    # --- The turn's text ----------------------------------------------------------------

    @classmethod
    def decode(cls, seat: int, power: str, text: str | None) -> TurnBuilder:
        """Read the turn so far from a form field (``encode``'s text); raises ``RulesError``
        (``BuildError``, or the engine's ``InvalidMove``) when it makes no sense."""
        text = (text or "").strip()
        builder = cls(seat, power)
        if not text:
            return builder
        if len(text) > MAX_TEXT:
            raise BuildError(_("This turn has too many steps."))
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        part = data.get("part", 1) if isinstance(data, dict) else None
        if not isinstance(data, dict) or data.get("type") != "turn" or part not in (1, 2):
            raise BuildError(_("This step cannot be read: %(step)s") % {"step": text[:40]})
        timed = "power" in data
        # The seat always comes from who is asking, as in games.services.
        turn = rules.move_from_json({**data, "seat": seat, "power": data.get("power")})
        assert isinstance(turn, rules.Turn)  # "type": "turn"
        steps = _steps_of(turn, timed=timed, second=part == 2)
        if len(steps) > MAX_STEPS:
            raise BuildError(_("This turn has too many steps."))
        for step in steps:
            builder = builder.with_step(step)
        return builder

    def encode(self) -> str:
        """The turn so far in its one text form (see the module's docstring)."""
        turn = self.turn()
        if turn is None:
            return ""
        data: dict[str, Any] = rules.move_to_json(turn)
        if self.timing is None:
            del data["power"]
        if "next" in self.steps:
            data["part"] = 2
        return json.dumps(data, separators=(",", ":"))

    @property
    def action(self) -> str | None:
        return str(self.steps[0]) if self.steps else None

    @property
    def timing(self) -> str | None:
        return str(self.steps[1]) if len(self.steps) > 1 else None

    @property
    def blocks(self) -> tuple[str, ...]:
        """The parts of the turn in the order they are carried out."""
        if self.timing == "before":
            return ("power", "action")
        if self.timing == "after":
            return ("action", "power")
        if self.timing == "none":
            return ("action",)
        return ()

    @property
    def block(self) -> str | None:
        """The part being built now: ``"action"``, ``"power"``, or None before it starts."""
        if not self.blocks:
            return None
        return self.blocks[1 if "next" in self.steps else 0]

    @property
    def can_go_next(self) -> bool:
        return len(self.blocks) == 2 and "next" not in self.steps

    def _effect_steps(self) -> list[tuple[str, Space]]:
        return [s for s in self.steps[2:] if isinstance(s, tuple)]

    @property
    def effects(self) -> tuple[rules.Effect, ...]:
        return tuple(
            rules.Effect(kind, space)
            for kind, space in self._effect_steps()
            if kind in ACTION_EFFECTS
        )

    @property
    def targets(self) -> tuple[Target, ...]:
        found: list[Target] = []
        for kind, space in self._effect_steps():
            if kind == "lake":
                found.append(LakePlacement(space))
            elif kind == "lake_grow":
                last = found[-1]
                assert isinstance(last, LakePlacement)
                found[-1] = LakePlacement(last.lake, (*last.grow, space))
            elif kind in POWER_EFFECTS:
                found.append(space)
        return tuple(found)

    @property
    def last_lake(self) -> LakePlacement | None:
        targets = self.targets
        last = targets[-1] if targets else None
        return last if isinstance(last, LakePlacement) else None

    @property
    def uses_power(self) -> bool:
        return self.timing in ("before", "after")

    @property
    def applications(self) -> int:
        """How many times the Power has been applied so far (Lakes count, not growths)."""
        return len(self.targets)

    def turn(self) -> rules.Turn | None:
        """The turn so far (a Power without target yet is kept; the engine skips it)."""
        if self.action is None:
            return None
        power = None
        if self.uses_power:
            power = rules.PowerUse(self.power, str(self.timing), self.targets)
        return rules.Turn(self.seat, self.action, self.effects, power)

    def final_turn(self) -> rules.Turn | None:
        """The turn to submit: a Power chosen but never applied is left out."""
        turn = self.turn()
        if turn is None or turn.power is None:
            return turn
        if not turn.power.targets and self.power != "bud":
            return rules.Turn(turn.seat, turn.action, turn.effects, None)
        return turn

    # --- Adding steps ------------------------------------------------------------------

    def with_step(self, step: Step) -> TurnBuilder:
        """This builder with one more step; raises ``BuildError`` if it is out of order.

        Only the order of steps is checked here; whether the rules allow the effect is
        the engine's business (``check``).
        """
        count = len(self.steps)
        if count == 0:
            if not isinstance(step, str) or step not in ACTIONS:
                raise BuildError(_("Choose an Action first: A, B, C or D."), "choose_action")
        elif count == 1:
            if not isinstance(step, str) or step not in TIMINGS:
                raise BuildError(
                    _("Choose when to use your Power: before or after the Action, or not at all."),
                    "choose_timing",
                )
        elif step == "next":
            if not self.can_go_next:
                raise BuildError(_("There is no further part to this turn."), "no_next_part")
        else:
            if isinstance(step, str):
                raise BuildError(_("This step cannot be read: %(step)s") % {"step": step[:40]})
            kind, _space = step
            if self.block == "action" and kind not in ACTION_EFFECTS:
                raise BuildError(
                    _("You are applying your Action now: plant or grow."), "wrong_part"
                )
            if self.block == "power" and not self._power_may(kind):
                raise BuildError(
                    _("You are applying your Power now; it cannot do that."), "wrong_part"
                )
        if count >= MAX_STEPS:
            raise BuildError(_("This turn has too many steps."))
        return replace(self, steps=(*self.steps, step))

    def _power_may(self, kind: str) -> bool:
        if kind == "lake_grow":
            return self.power == "lake" and self.last_lake is not None
        return kind == self.power

    def undo(self) -> TurnBuilder:
        return replace(self, steps=self.steps[:-1])

    def reset(self) -> TurnBuilder:
        return replace(self, steps=())


def _steps_of(turn: rules.Turn, *, timed: bool, second: bool) -> list[Step]:
    """The steps that build ``turn`` (``decode``), in the order they are carried out."""
    steps: list[Step] = [turn.action]
    if not timed:
        if turn.effects or second:
            raise BuildError(
                _("Choose when to use your Power: before or after the Action, or not at all."),
                "choose_timing",
            )
        return steps
    use = turn.power
    steps.append(use.timing if use is not None else "none")
    action: list[Step] = [(effect.kind, effect.space) for effect in turn.effects]
    applied: list[Step] = []
    for target in use.targets if use is not None else ():
        if isinstance(target, LakePlacement):
            applied += [("lake", target.lake), *(("lake_grow", g) for g in target.grow)]
        elif use is not None:  # another Power than the card's is refused by with_step
            applied.append((use.power, target))
    first, then = (applied, action) if steps[1] == "before" else (action, applied)
    if not second:
        return [*steps, *first, *then]  # anything of the second part is refused
    return [*steps, *first, "next", *then]


# --- With the engine ----------------------------------------------------------------------


def check(state: rules.GameState, builder: TurnBuilder) -> tuple[int, ...]:
    """The seat's board after the turn so far; raises ``IllegalMove`` if the engine refuses it."""
    return preview_board(state, builder.seat, builder.turn())


def spaces_now(state: rules.GameState, builder: TurnBuilder) -> dict[Space, str]:
    """The spaces that may be clicked now, each with the effect a click applies there."""
    block = builder.block
    partial = builder.turn()
    found: dict[Space, str] = {}
    if block == "action":
        for kind in ACTION_EFFECTS:
            for space in legal_targets(state, builder.seat, kind, partial=partial):
                found.setdefault(space, kind)
    elif block == "power" and builder.power != "bud":
        level = power_level(state, builder)
        if builder.power == "lake":
            last = builder.last_lake
            if last is not None and len(last.grow) < 2:
                for space in legal_targets(
                    state, builder.seat, "lake_grow", partial=partial, lake=last.lake
                ):
                    found[space] = "lake_grow"
        if builder.applications < level:
            for space in legal_targets(state, builder.seat, builder.power, partial=partial):
                found.setdefault(space, builder.power)
    return found


def power_level(state: rules.GameState, builder: TurnBuilder) -> int:
    """How many times the Power may be applied this round (its level after the upgrade)."""
    return power_level_after_upgrade(state, builder.seat, builder.power)


def _guess(state: rules.GameState, builder: TurnBuilder, space: Space) -> str:
    """The effect a click on a space that is not highlighted would try (for the engine's reason)."""
    ed = rules.load_edition(state.edition)
    piece = EMPTY
    if ed.planet.on_grid(space):
        piece = check(state, builder)[ed.planet.index(space)]
    if builder.block == "action":
        return "plant" if piece == EMPTY else "grow"
    if builder.power == "lake":
        last = builder.last_lake
        if piece != EMPTY and last is not None:
            return "lake_grow"
        return "lake"
    return builder.power


def click(state: rules.GameState, builder: TurnBuilder, space: Space) -> TurnBuilder:
    """Apply the effect that fits ``space`` now; raises ``IllegalMove`` with the engine's reason."""
    if builder.block is None:
        raise BuildError(_("Choose your Action and when to use your Power first."), "not_ready")
    if builder.block == "power" and builder.power == "bud":
        raise IllegalMove(_("Bud takes no target: it simply scores points."), "bud_takes_no_target")
    options = spaces_now(state, builder)
    kind = options.get(space) or _guess(state, builder, space)
    new = builder.with_step((kind, space))
    check(state, new)
    if space not in options:
        raise IllegalMove(
            _("Row %(row)s, column %(col)s is not available for this effect now.")
            % {"row": space[0], "col": space[1]},
            "not_a_legal_target",
        )
    return new


def step(state: rules.GameState, builder: TurnBuilder, value: str) -> TurnBuilder:
    """Carry out one button of the turn panel: an Action, a timing, a space, next, undo, reset."""
    value = value.strip()
    if value == "undo":
        return builder.undo()
    if value == "reset":
        return builder.reset()
    space = parse_space(value)
    if space is not None:
        return click(state, builder, space)
    new = builder.with_step(value)
    check(state, new)
    return new
