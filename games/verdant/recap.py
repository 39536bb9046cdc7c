"""Verdant's moves in words: the replay's lines, the recap of "your move" mails.

A move alone does not say what was taken (the market changes), so the words come from
``rules.move_facts`` of the states around each move, rebuilt from the record. Nothing here
tells a start placement before every player has chosen one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import rules, words
from .rules.edition import Edition


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else "?"


def sentence(ed: Edition, facts: dict[str, Any], names: Sequence[str]) -> str:
    """One move's facts as a sentence: "Rowan took Monstera and a Cat, completed Aloe
    Vera: concrete pot"."""
    name = _name(names, int(facts["seat"]))
    if facts["type"] == "start":
        return _("%(name)s chose where their starting plant grows.") % {"name": name}
    if facts["type"] == "wipe":
        count = len(facts["returned"])
        return ngettext(
            "%(name)s cleared %(count)s market token for 2 green thumbs.",
            "%(name)s cleared %(count)s market tokens for 2 green thumbs.",
            count,
        ) % {"name": name, "count": count}
    text = _("%(name)s took %(card)s and %(item)s") % {
        "name": name,
        "card": words.card(ed, facts["card"]),
        "item": words.item_with_article(facts["token"]),
    }
    for done in facts["completed"]:
        text += _(", completed %(plant)s: %(pot)s") % {
            "plant": words.card(ed, done["card"]),
            "pot": words.pot(done["pot"]) if done["pot"] else _("no pot left"),
        }
    return text + "."


def facts_of(record: rules.GameRecord) -> list[dict[str, Any]]:
    """The facts of every move of ``record`` (moves the site accepted)."""
    states = record.states(checked=False)
    before = next(states)
    found = []
    for move, after in zip(record.moves, states, strict=True):
        found.append(rules.move_facts(before, move, after))
        before = after
    return found


def lines(record: rules.GameRecord, names: Sequence[str]) -> list[str]:
    ed = rules.load_edition(record.edition)
    return [sentence(ed, facts, names) for facts in facts_of(record)]


def since_last_move(record: rules.GameRecord, seat: int, names: Sequence[str]) -> list[str]:
    """What the others did since ``seat`` last moved (everything, if it never has)."""
    said = lines(record, names)
    last = max((k for k, move in enumerate(record.moves) if move.seat == seat), default=-1)
    return said[last + 1 :]


def standing(state: rules.GameState, seat: int, names: Sequence[str]) -> str:
    """Where the game stands for ``seat``: the round and the scores."""
    ed = rules.load_edition(state.edition)
    scores = ", ".join(
        f"{_name(names, k)} {rules.score_seat(state, k).total}" for k in range(len(state.seats))
    )
    return _("Round %(round)s of %(rounds)s. Scores now: %(scores)s.") % {
        "round": min(state.round, ed.turns_per_player),
        "rounds": ed.turns_per_player,
        "scores": scores,
    }
