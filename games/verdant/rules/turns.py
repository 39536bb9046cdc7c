"""Carrying out a turn: selection, placement, light, items, nurture, storage, refill.

``play_turn`` checks every part of a ``Turn`` while it carries it out on working copies
(the home as lists, the market as a ``Table``), so a refusal anywhere leaves the state
untouched. The same code serves the unchecked replay path: a record's moves were checked
once when they were accepted.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace

from games.enginekit.errors import IllegalMove

from .edition import Edition
from .home import NEIGHBOURS, Home, Pos, index, is_plant, is_room, light_matches
from .home import placement_error as home_placement_error
from .market import Table
from .moves import Step, Turn, Wipe
from .state import GameState, SeatState


@dataclass
class WorkingHome:
    """A home being changed by one turn; ``completions`` counts plants completed this turn."""

    cards: list[str | None]
    verdancy: list[int]
    completed: list[bool]
    pots: list[str | None]
    items: list[str | None]
    completions: int = 0

    @classmethod
    def of(cls, home: Home) -> WorkingHome:
        return cls(
            list(home.cards),
            list(home.verdancy),
            list(home.completed),
            list(home.pots),
            list(home.items),
        )

    def freeze(self) -> Home:
        return Home(
            tuple(self.cards),
            tuple(self.verdancy),
            tuple(self.completed),
            tuple(self.pots),
            tuple(self.items),
        )

    def grow(self, i: int, amount: int, ed: Edition, table: Table, solo: bool) -> None:
        """Add verdancy; at the requirement the plant completes and is potted (ruling 5)."""
        card = self.cards[i]
        if card is None or self.completed[i]:
            return
        self.verdancy[i] += amount
        if self.verdancy[i] >= ed.plants[card].verdancy:
            self.complete(i, ed, table, solo)

    def complete(self, i: int, ed: Edition, table: Table, solo: bool) -> None:
        self.verdancy[i] = 0
        self.completed[i] = True
        self.pots[i] = table.take_pot(solo, self.completions, ed)
        self.completions += 1


def _own_plant(home: WorkingHome, pos: Pos) -> int:
    """The index of an incomplete plant of this home at ``pos`` (ruling 14), else refuse."""
    i = index(pos)
    if i is None or not is_plant(home.cards[i]):
        raise IllegalMove(
            f"There is no plant of yours at {pos[0]},{pos[1]}.",
            "not_a_plant",
            {"row": pos[0], "col": pos[1]},
        )
    if home.completed[i]:
        raise IllegalMove(
            f"The plant at {pos[0]},{pos[1]} is completed: it takes no more verdancy.",
            "plant_completed",
            {"row": pos[0], "col": pos[1]},
        )
    return i


def _own_room(home: WorkingHome, pos: Pos) -> int:
    i = index(pos)
    if i is None or not is_room(home.cards[i]):
        raise IllegalMove(
            f"There is no room of yours at {pos[0]},{pos[1]}.",
            "not_a_room",
            {"row": pos[0], "col": pos[1]},
        )
    return i


def _spend_thumbs(thumbs: int, ed: Edition, action: str, family: bool) -> int:
    if family:
        raise IllegalMove(
            "The family variant has no green thumbs and no green thumb actions.",
            "not_in_family",
            {"action": action},
        )
    if thumbs < ed.action_cost:
        raise IllegalMove(
            f"Green thumb action {action} costs {ed.action_cost} green thumbs; you have {thumbs}.",
            "not_enough_thumbs",
            {"action": action, "thumbs": thumbs},
        )
    return thumbs - ed.action_cost


def wipe(state: GameState, ed: Edition, move: Wipe) -> GameState:
    """Green thumb action A (ruling 6): refuse, or return the state after it."""
    seat = state.seats[move.seat]
    thumbs = _spend_thumbs(seat.thumbs, ed, "A", state.family)
    columns = move.columns
    if not 1 <= len(columns) <= ed.market_columns or len(set(columns)) != len(columns):
        raise IllegalMove(
            "Action A sets aside 1 to 4 different market tokens.",
            "bad_wipe",
            {"columns": list(columns)},
        )
    for column in columns:
        if not 0 <= column < ed.market_columns or state.market_tokens[column] is None:
            raise IllegalMove(
                f"There is no token in market column {column}.", "empty_slot", {"column": column}
            )
    table = Table.of(state)
    table.wipe(columns)
    seats = list(state.seats)
    seats[move.seat] = replace(seat, thumbs=thumbs)
    return table.into(state, tuple(seats))


def _select(state: GameState, ed: Edition, move: Turn) -> tuple[str, str]:
    """The card and token the selection names (ruling 6), or refuse."""
    for column in (move.column, move.token):
        if not 0 <= column < ed.market_columns:
            raise IllegalMove(
                f"The market has columns 0 to {ed.market_columns - 1}, not {column}.",
                "no_such_column",
                {"column": column},
            )
    if not move.free and move.token != move.column:
        raise IllegalMove(
            "Take a card and a token from the same column (or pay for green thumb action B).",
            "different_columns",
            {"column": move.column, "token": move.token},
        )
    row = state.market_plants if move.take == "plant" else state.market_rooms
    card, token = row[move.column], state.market_tokens[move.token]
    if card is None:
        raise IllegalMove(
            f"No {move.take} in market column {move.column}.", "empty_slot", {"column": move.column}
        )
    if token is None:
        raise IllegalMove(
            f"No token in market column {move.token}.", "empty_slot", {"column": move.token}
        )
    return card, token


def _item_name(kind: str, ed: Edition) -> str:
    return ed.items[kind].name.lower() if ed.is_item(kind) else kind.replace("_", " ")


def _take_item(available: list[str], item: str | None, ed: Edition, group: str) -> str:
    if item is None:
        raise IllegalMove("A step that places or uses an item must name it.", "unknown_item")
    if not (ed.is_item(item) or ed.is_nurture(item)):
        raise IllegalMove(
            f"There is no item called {item[:40]!r}.", "unknown_item", {"item": item[:40]}
        )
    wanted = "nurture" if group == "nurture" else "furniture or pet"
    if (group == "nurture") != ed.is_nurture(item):
        raise IllegalMove(
            f"The {_item_name(item, ed)} is not a {wanted} token: "
            + ("use nurture tokens with 'use'." if ed.is_nurture(item) else "place it on a room."),
            "wrong_item_use",
            {"item": item},
        )
    if item not in available:
        raise IllegalMove(
            f"You have no {_item_name(item, ed)} this turn (only the drafted token and the stored one).",
            "item_not_available",
            {"item": item},
        )
    available.remove(item)
    return item


def _nurture(
    home: WorkingHome,
    item: str,
    at: tuple[Pos, ...],
    ed: Edition,
    table: Table,
    solo: bool,
    family: bool,
) -> None:
    if family:
        if len(at) != 1:
            raise IllegalMove(
                "In the family variant a nurture token completes one plant.", "bad_targets"
            )
        i = _own_plant(home, at[0])
        home.complete(i, ed, table, solo)
        return
    if item == "trowel":
        if not 1 <= len(at) <= 3 or len(set(at)) != len(at):
            raise IllegalMove(
                "The hand trowel adds 1 verdancy to up to 3 different plants.", "bad_targets"
            )
        targets = [_own_plant(home, p) for p in at]
        for i in targets:
            home.grow(i, 1, ed, table, solo)
        return
    if len(at) != 1:
        raise IllegalMove(f"The {item.replace('_', ' ')} names exactly one cell.", "bad_targets")
    if item == "fertilizer":
        home.grow(_own_plant(home, at[0]), 3, ed, table, solo)
        return
    room = _own_room(home, at[0])
    for _, j in NEIGHBOURS[room]:
        if is_plant(home.cards[j]):
            home.grow(j, 1, ed, table, solo)


class TurnInProgress:
    """A turn being carried out: creating it makes the selection and places the card.

    ``step`` carries out one step of step 4 (or action C), ``finish`` stores an item,
    places the green thumb, refills the market and returns the next state. The bots drive
    it too, to try steps before they choose.
    """

    def __init__(self, state: GameState, ed: Edition, move: Turn) -> None:
        seat = state.seats[move.seat]
        self.state, self.ed, self.move, self.seat = state, ed, move, seat
        self.family, self.solo = state.family, state.solo
        thumbs = seat.thumbs
        if move.free:
            thumbs = _spend_thumbs(thumbs, ed, "B", self.family)
        card, token = _select(state, ed, move)
        error = home_placement_error(seat.home.cards, move.take, move.at, ed)
        if error is not None:
            code, message = error
            raise IllegalMove(
                message + " A card that cannot be placed cannot be taken.",
                code,
                {"row": move.at[0], "col": move.at[1]},
            )
        table = Table.of(state)
        if move.take == "plant":
            thumbs += table.thumbs_plants[move.column]
            table.thumbs_plants[move.column] = 0
            table.plants[move.column] = None
        else:
            thumbs += table.thumbs_rooms[move.column]
            table.thumbs_rooms[move.column] = 0
            table.rooms[move.column] = None
        table.tokens[move.token] = None
        self.table, self.thumbs = table, thumbs
        self.home = home = WorkingHome.of(seat.home)
        i = index(move.at)
        assert i is not None
        home.cards[i] = card
        if not self.family:
            for plant in light_matches(home.cards, i, ed):
                home.grow(plant, 1, ed, table, self.solo)
        self.available = [t for t in (seat.storage, token) if t is not None]

    def clone(self) -> TurnInProgress:
        """An independent copy, to try a step without committing to it."""
        other = copy.copy(self)
        home = self.home
        other.home = WorkingHome(
            list(home.cards),
            list(home.verdancy),
            list(home.completed),
            list(home.pots),
            list(home.items),
            home.completions,
        )
        other.table = self.table.copy()
        other.available = list(self.available)
        return other

    def step(self, step: Step) -> None:
        """Carry out one step; refuse with ``IllegalMove``."""
        ed, home, table = self.ed, self.home, self.table
        if step.step == "thumb":
            self.thumbs = _spend_thumbs(self.thumbs, ed, "C", self.family)
            if len(step.at) != 1:
                raise IllegalMove(
                    "Green thumb action C adds 1 verdancy to one plant.", "bad_targets"
                )
            home.grow(_own_plant(home, step.at[0]), 1, ed, table, self.solo)
        elif step.step == "place":
            if len(step.at) != 1:
                raise IllegalMove("A furniture or pet token goes on one room.", "bad_targets")
            room = _own_room(home, step.at[0])
            if home.items[room] is not None:
                raise IllegalMove(
                    f"The room at {step.at[0][0]},{step.at[0][1]} already holds an item.",
                    "room_occupied",
                    {"row": step.at[0][0], "col": step.at[0][1]},
                )
            home.items[room] = _take_item(self.available, step.item, ed, "item")
        else:
            item = _take_item(self.available, step.item, ed, "nurture")
            _nurture(home, item, step.at, ed, table, self.solo, self.family)
            table.box.append(item)

    def finish(self, store: str | None) -> GameState:
        """Storage (ruling 18), the green thumb limit, the green thumb on the market, refill."""
        ed, table, move, seat = self.ed, self.table, self.move, self.seat
        available = list(self.available)
        if store is not None:
            if store not in available:
                raise IllegalMove(
                    f"You cannot store {store}: it is not among this turn's unused items.",
                    "item_not_available",
                    {"item": store[:40]},
                )
            available.remove(store)
        table.box.extend(available)
        if not self.family:
            table.place_thumb(move.take, move.column)
        if self.solo:
            table.solo_end_of_turn()
        else:
            table.refill()
        new_seat = SeatState(
            home=self.home.freeze(),
            thumbs=min(self.thumbs, ed.max_thumbs),
            start_plant=seat.start_plant,
            start_room=seat.start_room,
            start_side=seat.start_side,
            storage=store,
            turns=seat.turns + 1,
        )
        state = self.state
        seats = (*state.seats[: move.seat], new_seat, *state.seats[move.seat + 1 :])
        return table.into(state, seats, state.turn + 1)


def play_turn(state: GameState, ed: Edition, move: Turn) -> GameState:
    """Carry out ``move`` for the player to play; refuse with ``IllegalMove`` (state unchanged)."""
    turn = TurnInProgress(state, ed, move)
    for step in move.steps:
        turn.step(step)
    return turn.finish(move.store)


def reveal_starts(state: GameState, ed: Edition) -> tuple[SeatState, ...]:
    """Place every start plant beside its room; a light match there adds 1 (ruling 2)."""
    seats = []
    for seat in state.seats:
        assert seat.start_side is not None
        home = WorkingHome.of(seat.home)
        room_i = index((0, 0))
        assert room_i is not None
        plant_i = next(j for side, j in NEIGHBOURS[room_i] if side == seat.start_side)
        home.cards[room_i] = seat.start_room
        home.cards[plant_i] = seat.start_plant
        if not state.family and light_matches(home.cards, plant_i, ed):
            home.verdancy[plant_i] += 1
        seats.append(replace(seat, home=home.freeze()))
    return tuple(seats)
