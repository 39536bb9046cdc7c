"""The panel of the turn being built (``games.evergreen.turnbuilder``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .cards import CardInfo
from .planets import Planet
from .turnbuilder import Step, TurnBuilder
from .words import ACTION_TEXT, EFFECT_NAMES, POWER_NAMES, space_text

# --- The turn being built --------------------------------------------------------------------


@dataclass(frozen=True)
class TurnPanel:
    steps: str  # the encoded steps, for the hidden field
    card: CardInfo
    action: str | None
    timing: str | None
    block: str | None
    level: int  # times the Power may be applied this round
    applied: int  # times it has been applied so far
    summary: list[str]
    prompt: str
    can_next: bool
    next_label: str
    can_undo: bool
    can_submit: bool
    light: int  # Light points of the previewed planet with the Sun now
    forest: int  # its biggest Forest
    targets: int  # spaces that may be clicked now
    placed_nothing: bool  # no effect applied yet: submitting plays the turn without any

    @property
    def actions(self) -> list[tuple[str, str]]:
        return [(letter, str(text)) for letter, text in ACTION_TEXT.items()]

    @property
    def power_name(self) -> str:
        return self.card.power_name

    @property
    def season_points(self) -> int:
        return self.light + self.forest


def _step_text(step: Step, power: str) -> str:
    if isinstance(step, tuple):
        kind, space = step
        return _("%(effect)s at %(where)s") % {
            "effect": EFFECT_NAMES[kind],
            "where": space_text(space),
        }
    if step in ACTION_TEXT:
        return _("Action %(letter)s: %(text)s") % {"letter": step, "text": ACTION_TEXT[step]}
    if step == "before":
        return _("%(power)s before the Action") % {"power": POWER_NAMES[power]}
    if step == "after":
        return _("%(power)s after the Action") % {"power": POWER_NAMES[power]}
    if step == "none":
        return _("Power not used this round")
    if step == "next":
        return _("Then:")
    return step


def turn_panel(builder: TurnBuilder, card: CardInfo, level: int, preview: Planet) -> TurnPanel:
    """What the turn panel shows for a ``turnbuilder.TurnBuilder``."""
    block = builder.block
    applied = builder.applications
    if builder.action is None:
        prompt = _("Choose your Action for this round.")
    elif builder.timing is None:
        prompt = _("Use your Power (%(power)s) before or after the Action, or not at all?") % {
            "power": card.power_name
        }
    elif block == "action":
        prompt = (
            _("Click a highlighted space to apply your Action.")
            if preview.targets
            else _("Your Action can do nothing more.")
        )
    elif card.power == "bud":
        prompt = ngettext(
            "Bud: you score %(level)s point.", "Bud: you score %(level)s points.", level
        ) % {"level": level}
    elif card.power == "lake" and preview.targets:
        prompt = _(
            "Place a Lake on a highlighted empty space, then grow up to 2 spaces beside it "
            "(%(done)s of %(level)s Lakes)."
        ) % {"done": applied, "level": level}
    elif not preview.targets:
        # Nothing is left to apply: no "(1 of 1)" asking for a click that cannot come.
        prompt = _("%(power)s can do nothing more this round.") % {"power": card.power_name}
    else:
        prompt = _("Click a highlighted space to apply %(power)s (%(done)s of %(level)s).") % {
            "power": card.power_name,
            "done": applied,
            "level": level,
        }
    if block == "action" and builder.can_go_next:
        next_label = _("Done with the Action: continue with the Power")
    else:
        next_label = _("Done with the Power: continue with the Action")
    return TurnPanel(
        steps=builder.encode(),
        card=card,
        action=builder.action,
        timing=builder.timing,
        block=block,
        level=level,
        applied=applied,
        # "next" only moves on to the other block: a boundary, not a step of the turn.
        summary=[_step_text(s, card.power) for s in builder.steps if s != "next"],
        prompt=prompt,
        can_next=builder.can_go_next,
        next_label=next_label,
        can_undo=bool(builder.steps),
        can_submit=block is not None,
        placed_nothing=not any(isinstance(s, tuple) for s in builder.steps),
        light=preview.light,
        forest=preview.forest,
        targets=preview.targets,
    )
