"""Evergreen's analysis for the platform (``games.kinds.Analyst``): the strong player's
reviews (``rules.analysis``) as JSON, and their words in the reader's language."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.kinds import Analyst, Refusal

from . import rules
from .cards import card_info
from .rules.analysis import review, suggestion
from .rules.planet import Space
from .words import ACTION_EFFECT_NAMES, BIOME_NAMES, POWER_NAMES, season_name, space_text


def _level(budget: str) -> str:
    from .rules.strong import LEVELS

    return budget if budget in LEVELS else "strong"


class EvergreenAnalyst(Analyst):
    def review(self, state: rules.GameState, move: rules.Move, budget: str) -> dict[str, Any]:
        found = review(state, move, _level(budget))
        # The reader sees points to a tenth: the loss is their difference, rounded.
        played, best = round(found.played_points, 1), round(found.best_points, 1)
        return {
            "kind": found.kind,
            "round": f"{found.season}-{found.round}",
            "played": found.played.to_json(),
            "best": found.best.to_json(),
            "played_points": played,
            "best_points": best,
            "loss": max(0, round(best - played)),
        }

    def hint(self, state: rules.GameState, seat: int, budget: str) -> rules.Move:
        try:
            return suggestion(state, seat, _level(budget))
        except ValueError:
            raise Refusal(
                "no_decision", _("You have no decision to make now."), conflict=True
            ) from None

    def comment(self, review: Mapping[str, Any], names: Sequence[str]) -> str:
        edition = rules.load_edition(rules.DEFAULT_EDITION)
        best = describe(edition, rules.move_from_json(review["best"]))
        loss = int(review["loss"])
        if not loss:
            return _("Well played: the strong player would have done the same or no better.")
        return ngettext(
            "%(lost)s: %(best)s would have scored %(loss)s more by the end of the game.",
            "%(lost)s: %(best)s would have scored %(loss)s more by the end of the game.",
            loss,
        ) % {"lost": f"\N{MINUS SIGN}{loss}", "loss": loss, "best": best}

    def describe(self, move: rules.Move) -> str:
        return describe(rules.load_edition(rules.DEFAULT_EDITION), move)

    def round_name(self, key: str) -> str:
        season, _sep, number = key.partition("-")
        return _("%(season)s, round %(round)s") % {
            "season": season_name(int(season)),
            "round": number,
        }


def _where(edition: rules.Edition, space: Space) -> str:
    biome = edition.planet.biomes[edition.planet.index(space)]
    return _("%(space)s in %(biome)s") % {
        "space": space_text(space),
        "biome": BIOME_NAMES.get(str(biome), biome),
    }


def describe(edition: rules.Edition, move: rules.Move) -> str:
    """A pick or a whole turn in words: the card, or the Action's and Power's effects."""
    if isinstance(move, rules.Pick):
        card = card_info(edition, move.card) if move.card in edition.cards else None
        return _("Taking %(card)s") % {"card": card.label if card else move.card}
    parts = [
        _("%(effect)s at %(where)s")
        % {"effect": ACTION_EFFECT_NAMES[effect.kind], "where": _where(edition, effect.space)}
        for effect in move.effects
    ]
    power = move.power
    if power is not None:
        spaces = [t.lake if isinstance(t, rules.LakePlacement) else t for t in power.targets]
        use = str(POWER_NAMES[power.power])
        if spaces:
            use = _("%(power)s at %(where)s") % {
                "power": use,
                "where": ", ".join(_where(edition, space) for space in spaces),
            }
        parts.insert(0 if power.timing == "before" else len(parts), use)
    return _("Action %(action)s: %(effects)s") % {
        "action": move.action,
        "effects": "; ".join(parts) if parts else _("nothing"),
    }
