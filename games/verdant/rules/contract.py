"""The edition's score contract: one finished home described in JSON, scored.

``score_document`` reads ``{"home": {"r,c": card}, "verdancy": {"r,c": n},
"completed": ["r,c"], "pots": [...], "items": {"r,c": kind}, "green_thumbs": n,
"goals": [...], "variant": "standard"}`` (r 0-2 from the top, c 0-4 from the left)
and returns the score sheet from ``scoring.score_home``. Anything else raises
``ContractError`` with a message a person can act on.
"""

from __future__ import annotations

import re
from typing import Any

from .edition import POT_KINDS, Edition, load_edition
from .home import NEIGHBOURS, SIZE, Home, card_kind, index
from .scoring import Score, score_home
from .state import VARIANTS

FIELDS = ("home", "verdancy", "completed", "pots", "items", "green_thumbs", "goals", "variant")
_KEY = re.compile(r"^(\d+),(\d+)$")


class ContractError(ValueError):
    """Input the score contract refuses; the message is printed as is."""


def _cell(key: Any, ed: Edition, what: str) -> int:
    match = _KEY.match(key) if isinstance(key, str) else None
    if not match:
        raise ContractError(f'{what} key {key!r} is not "row,column" (e.g. "0,3")')
    row, col = int(match.group(1)), int(match.group(2))
    if not (row < ed.rows and col < ed.columns):
        raise ContractError(f"{what} cell {key} is outside the {ed.columns}x{ed.rows} home")
    i = index((row, col))
    assert i is not None
    return i


def _natural(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ContractError(f"{what} must be a non-negative integer, not {value!r}")
    return value


def _object(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ContractError(f'"{name}" must be an object keyed by "row,column"')
    return value


def _list(data: dict[str, Any], name: str) -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise ContractError(f'"{name}" must be a list')
    return value


def _home_cards(data: dict[str, Any], ed: Edition) -> list[str | None]:
    raw = data.get("home")
    if not isinstance(raw, dict):
        raise ContractError('"home" must be an object such as {"0,0": "P100", "0,1": "R203"}')
    cards: list[str | None] = [None] * SIZE
    for key, card in raw.items():
        i = _cell(key, ed, "home")
        if card not in ed.plants and card not in ed.rooms:
            raise ContractError(f"unknown card {card!r} at {key}")
        if card in cards:
            raise ContractError(f"card {card} appears twice")
        cards[i] = card
    if len(raw) != ed.rows * ed.columns:
        raise ContractError(
            f"the home must fill all {ed.rows * ed.columns} cells of the {ed.columns}x{ed.rows} "
            f"grid; it has {len(raw)} cards"
        )
    for i, card in enumerate(cards):
        for _, j in NEIGHBOURS[i]:
            other = cards[j]
            if card is not None and other is not None and card_kind(card) == card_kind(other):
                raise ContractError(
                    f"two {card_kind(card)}s side by side ({card} and {other}): "
                    "plants and rooms must alternate"
                )
    return cards


def score_document(data: Any, edition: Edition | None = None) -> Score:
    """Score one finished home given in the contract's JSON; raises ``ContractError``."""
    ed = edition or load_edition()
    if not isinstance(data, dict):
        raise ContractError('the input must be a JSON object such as {"home": {...}}')
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise ContractError(f"unknown field(s) {', '.join(unknown)}; use {', '.join(FIELDS)}")
    variant = data.get("variant", "standard")
    if variant not in VARIANTS:
        raise ContractError(f'"variant" must be one of {", ".join(VARIANTS)}, not {variant!r}')
    family = variant == "family"
    cards = _home_cards(data, ed)
    completed = [False] * SIZE
    for key in _list(data, "completed"):
        i = _cell(key, ed, "completed")
        card = cards[i]
        if card not in ed.plants:
            raise ContractError(f"completed cell {key} holds no plant")
        if completed[i]:
            raise ContractError(f"completed cell {key} is given twice")
        completed[i] = True
    verdancy = [0] * SIZE
    for key, value in _object(data, "verdancy").items():
        i = _cell(key, ed, "verdancy")
        amount = _natural(value, f"verdancy at {key}")
        card = cards[i]
        if card not in ed.plants:
            raise ContractError(f"verdancy at {key}: there is no plant there")
        assert card is not None
        if amount and (completed[i] or family):
            raise ContractError(
                f"verdancy at {key}: "
                + ("the family variant has no verdancy" if family else "the plant is completed")
            )
        if amount >= ed.plants[card].verdancy:
            raise ContractError(
                f"verdancy at {key} is {amount}: a plant that reaches its requirement "
                f"({ed.plants[card].verdancy}) is completed"
            )
        verdancy[i] = amount
    pots = _list(data, "pots")
    for pot in pots:
        if pot not in POT_KINDS:
            raise ContractError(f"unknown pot {pot!r}; use {', '.join(POT_KINDS)}")
    if len(pots) > sum(completed):
        raise ContractError(f"{len(pots)} pots for {sum(completed)} completed plants")
    pot_cells: list[str | None] = [None] * SIZE
    for i, pot in zip([i for i in range(SIZE) if completed[i]], pots, strict=False):
        pot_cells[i] = pot
    items: list[str | None] = [None] * SIZE
    for key, kind in _object(data, "items").items():
        i = _cell(key, ed, "items")
        if kind not in ed.items:
            raise ContractError(f"unknown furniture or pet {kind!r} at {key}")
        if cards[i] not in ed.rooms:
            raise ContractError(f"item at {key}: items go on rooms only")
        items[i] = kind
    thumbs = _natural(data.get("green_thumbs", 0), '"green_thumbs"')
    goals = _list(data, "goals")
    for goal in goals:
        if goal not in ed.goals:
            raise ContractError(f"unknown goal card {goal!r}; use {', '.join(ed.goals)}")
    if len(set(goals)) != len(goals):
        raise ContractError("a goal card is given twice")
    home = Home(tuple(cards), tuple(verdancy), tuple(completed), tuple(pot_cells), tuple(items))
    return score_home(home, ed, family=family, goals=tuple(goals), thumbs=thumbs)
