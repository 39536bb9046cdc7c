"""The Verdant turn builder: from the choices so far (``turnform.Draft``), the next
question and only the answers the rules allow, with the score the turn would give.

Stages: ``select`` (a card + token pair, with green thumb action B when it can be paid),
``cell`` (a legal cell for the card), ``item`` (where to put or use each item of the turn:
the drafted token, then the stored one), ``thumb`` (green thumb action C on a plant, while
green thumbs last), ``finish`` (what to keep in storage, and the submit). Every answer is
checked by the engine itself (``rules.apply`` of the turn so far).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from . import refusals, rules, words
from .rules.home import index
from .rules.targets import home_plant_targets, room_targets, rooms
from .turnform import Draft, cell_code, parse


@dataclass
class Question:
    stage: str
    draft: Draft
    prompt: str = ""
    options: list[dict[str, Any]] = field(default_factory=list)  # value, label, cell
    item: str | None = None
    storable: list[dict[str, str]] = field(default_factory=list)
    preview: int | None = None
    now: int = 0
    error: str | None = None
    thumbs: int = 0

    @property
    def paid_options(self) -> list[dict[str, Any]]:
        """The selections with green thumb action B (shown apart, folded)."""
        return [o for o in self.options if o.get("free")]


def _turn(seat: int, draft: Draft) -> rules.Turn:
    assert draft.take is not None and draft.at is not None
    return rules.Turn(
        seat,
        draft.take,
        draft.column,
        draft.token,
        draft.at,
        draft.free,
        tuple(rules.Step(step, item, cells) for step, item, cells in draft.steps),
        None,
    )


def _selection_options(state: rules.GameState, seat: int) -> list[dict[str, Any]]:
    ed = rules.load_edition(state.edition)
    options = []
    same = rules.legal_selections(state, seat, ed)
    paid = [s for s in rules.legal_selections(state, seat, ed, free=True) if s.column != s.token]
    for choice, free in [(s, False) for s in same] + [(s, True) for s in paid]:
        row = state.market_plants if choice.take == "plant" else state.market_rooms
        label = _("%(card)s and %(item)s") % {
            "card": words.card(ed, row[choice.column]),
            "item": words.item_with_article(state.market_tokens[choice.token]),
        }
        code = f"{choice.take}-{choice.column}-{choice.token}" + ("-b" if free else "")
        options.append({"value": code, "label": label, "free": free, "column": choice.column})
    return options


def _items(state: rules.GameState, seat: int, draft: Draft) -> list[str]:
    found = [state.market_tokens[draft.token], state.seats[seat].storage]
    return [item for item in found if item is not None]


def _unused(state: rules.GameState, seat: int, draft: Draft) -> list[str]:
    left = Counter(_items(state, seat, draft))
    left.subtract(Counter(draft.used()))
    return [item for item, count in left.items() for _ in range(max(count, 0))]


def _thumbs_left(state: rules.GameState, seat: int, draft: Draft) -> int:
    row = state.thumbs_plants if draft.take == "plant" else state.thumbs_rooms
    spent = (2 if draft.free else 0) + 2 * draft.thumb_steps()
    return state.seats[seat].thumbs + row[draft.column] - spent


def _cells(
    draft: Draft, part: str, cells: list[tuple[int, int]], ed: Any, home: Any
) -> list[dict[str, Any]]:
    options = []
    for cell in cells:
        i = index(cell)
        card = home.cards[i] if i is not None else None
        name = words.card(ed, card) if card else _("empty cell")
        options.append(
            {
                "value": draft.then(f"{part}{cell_code(cell)}"),
                "label": f"{name} ({cell[0]}, {cell[1]})",
                "cell": cell,
            }
        )
    return options


def _more_for_the_trowel(
    draft: Draft, home: Any, ed: Any, family: bool
) -> list[dict[str, Any]] | None:
    """After the hand trowel's plant(s), up to 3: the other plants it may also reach."""
    last = draft.parts[-1] if len(draft.parts) > 2 else ""
    if family or not last.startswith("use.trowel."):
        return None
    cells = last.removeprefix("use.trowel.").split("+")
    if len(cells) >= 3:
        return None
    chosen = {tuple(int(x) for x in c.split("_")) for c in cells}
    others = [p for p in home_plant_targets(home) if p not in chosen]
    if not others:
        return None
    head = Draft(parts=draft.parts[:-1])
    options = _cells(head, f"{last}+", others, ed, home)
    options.append({"value": draft.then("done"), "label": _("No"), "cell": None})
    return options


def question(state: rules.GameState, seat: int, text: str | None) -> Question:
    """The next question of the turn ``text`` describes, for ``seat`` whose turn it is,
    each answer with the score the turn would give once it is chosen (``preview``): the
    page shows it as soon as an answer is ticked, with no round trip (the engine scores
    it here, so no rule is written twice)."""
    q = _question(state, seat, text)
    for option in q.options:
        option["preview"] = _preview(state, seat, option["value"])
    return q


def _preview(state: rules.GameState, seat: int, value: str) -> int | None:
    """The score after the turn so far with this answer; None before the card has a cell
    (a card and a token score only once placed) or for an answer the engine refuses."""
    try:
        draft = parse(value)
        if draft.at is None:
            return None
        return rules.score_seat(rules.apply(state, _turn(seat, draft)), seat).total
    except (ValueError, IndexError, rules.RulesError):
        return None


def _question(state: rules.GameState, seat: int, text: str | None) -> Question:
    """The next question of the turn ``text`` describes, for ``seat`` whose turn it is."""
    ed = rules.load_edition(state.edition)
    now = rules.score_seat(state, seat).total
    try:
        draft = parse(text)
        after = rules.apply(state, _turn(seat, draft)) if draft.at is not None else None
    except (ValueError, IndexError):
        draft, after = Draft(), None
        error: str | None = _("That turn cannot be read: start again.")
    except rules.RulesError as exc:
        draft, after, error = Draft(), None, refusals.message(exc)
    else:
        error = None
    if draft.take is None:
        return Question(
            "select",
            draft,
            _("Choose a card and a token."),
            _selection_options(state, seat),
            now=now,
            error=error,
        )
    if draft.at is None:
        cells = rules.legal_cells(state, seat, draft.take, ed)
        q = Question("cell", draft, _("Choose where the card goes."), now=now, error=error)
        q.options = [
            {"value": draft.then(cell_code(c)), "label": f"({c[0]}, {c[1]})", "cell": c}
            for c in cells
        ]
        return q
    assert after is not None
    home = after.seats[seat].home
    preview = rules.score_seat(after, seat).total
    unused = _unused(state, seat, draft)
    handled = len(draft.used())
    pending = (
        _items(state, seat, draft)[handled:] if handled < len(_items(state, seat, draft)) else []
    )
    base: dict[str, Any] = {"draft": draft, "now": now, "preview": preview, "error": error}
    more = _more_for_the_trowel(draft, home, ed, state.family)
    if more is not None:
        return Question(
            "item",
            item="trowel",
            prompt=str(_("Another plant for the hand trowel?")),
            options=more,
            **base,
        )
    if pending:
        item = pending[0]
        q = Question("item", item=item, **base)
        if ed.is_item(item):
            q.prompt = _("Put the %(item)s on a room, or leave it.") % {"item": words.item(item)}
            targets = room_targets(home.cards, home.items)
            q.options = _cells(draft, f"place.{item}.", targets, ed, home)
        else:
            q.prompt = _("Use the %(item)s, or leave it.") % {"item": words.item(item)}
            targets = (
                rooms(home.cards)
                if item == "watering_can" and not state.family
                else home_plant_targets(home)
            )
            q.options = _cells(draft, f"use.{item}.", targets, ed, home)
        q.options.append(
            {"value": draft.then(f"skip.{item}"), "label": _("Leave it"), "cell": None}
        )
        return q
    thumbs = _thumbs_left(state, seat, draft)
    if not draft.ended and not state.family and thumbs >= ed.action_cost:
        targets = home_plant_targets(home)
        if targets:
            q = Question(
                "thumb", prompt=_("Spend 2 green thumbs for +1 verdancy?"), thumbs=thumbs, **base
            )
            q.options = _cells(draft, "thumb.", targets, ed, home)
            q.options.append({"value": draft.then("end"), "label": _("No"), "cell": None})
            return q
    q = Question("finish", prompt=_("Keep one unused item in storage, then end your turn."), **base)
    q.storable = [{"value": item, "label": words.item(item)} for item in dict.fromkeys(unused)]
    return q
