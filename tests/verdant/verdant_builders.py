"""Helpers that build Verdant states for the rules tests.

A state for a test always starts from a real ``new_game`` and is then changed with
``dataclasses.replace``; the cards and tokens a test hands out are taken from wherever
they were (deck, bag or market, the market slot refilled from its deck), so all 100
cards and 90 tokens stay accounted for.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from games.verdant.rules import (
    GameState,
    Move,
    RulesError,
    Start,
    Step,
    Turn,
    apply,
    load_edition,
    new_game,
)
from games.verdant.rules.home import SIZE, Home, Pos, index

ED = load_edition()


def started(players: int = 1, seed: int = 0, side: str = "right", **options: Any) -> GameState:
    """A new game after every player put the starting plant on ``side`` of the room."""
    state = new_game(players, seed, **options)
    for seat in range(players):
        state = apply(state, Start(seat, side))
    return state


# --- where things are ----------------------------------------------------------------


def all_cards(state: GameState) -> Counter[str]:
    cards: Counter[str] = Counter()
    cards.update(state.plant_deck)
    cards.update(state.room_deck)
    cards.update(c for c in state.market_plants if c)
    cards.update(c for c in state.market_rooms if c)
    cards.update(state.card_discard)
    for seat in state.seats:
        placed = [c for c in seat.home.cards if c]
        cards.update(placed)
        if not placed:
            cards.update((seat.start_plant, seat.start_room))
    return cards


def all_tokens(state: GameState) -> Counter[str]:
    tokens: Counter[str] = Counter()
    tokens.update(state.bag)
    tokens.update(t for t in state.market_tokens if t)
    tokens.update(state.box)
    for seat in state.seats:
        tokens.update(i for i in seat.home.items if i)
        if seat.storage:
            tokens[seat.storage] += 1
    return tokens


def _take_card(state: GameState, card: str) -> GameState:
    """``state`` with ``card`` out of its deck or market slot (refilled), to hand it out."""
    if card in state.plant_deck:
        return replace(state, plant_deck=tuple(c for c in state.plant_deck if c != card))
    if card in state.room_deck:
        return replace(state, room_deck=tuple(c for c in state.room_deck if c != card))
    for row_name, deck_name in (("market_plants", "plant_deck"), ("market_rooms", "room_deck")):
        row = list(getattr(state, row_name))
        if card in row:
            deck = list(getattr(state, deck_name))
            row[row.index(card)] = deck.pop()
            return replace(state, **{row_name: tuple(row), deck_name: tuple(deck)})
    raise AssertionError(f"{card} is not in a deck or the market")


def _take_token(state: GameState, token: str) -> GameState:
    bag = list(state.bag)
    if token in bag:
        bag.remove(token)
        return replace(state, bag=tuple(bag))
    tokens = list(state.market_tokens)
    tokens[tokens.index(token)] = bag.pop()
    return replace(state, market_tokens=tuple(tokens), bag=tuple(bag))


def with_home(
    state: GameState,
    seat: int,
    cards: Mapping[Pos, str],
    *,
    verdancy: Mapping[Pos, int] | None = None,
    completed: Mapping[Pos, str | None] | None = None,
    items: Mapping[Pos, str] | None = None,
    thumbs: int | None = None,
    storage: str | None = None,
) -> GameState:
    """Give ``seat`` a home of exactly ``cards`` (its old cards go back to their decks).

    ``completed`` maps a plant's cell to its pot (or None).
    """
    old = state.seats[seat]
    plant_deck, room_deck = list(state.plant_deck), list(state.room_deck)
    for card in old.home.cards:
        if card:
            (plant_deck if card[0] == "P" else room_deck).insert(0, card)
    state = replace(state, plant_deck=tuple(plant_deck), room_deck=tuple(room_deck))
    grid: list[str | None] = [None] * SIZE
    for pos, card in cards.items():
        state = _take_card(state, card)
        i = index(pos)
        assert i is not None
        grid[i] = card
    verd, done, pots, placed = [0] * SIZE, [False] * SIZE, [None] * SIZE, [None] * SIZE
    for pos, amount in (verdancy or {}).items():
        verd[index(pos)] = amount  # type: ignore[index]
    for pos, pot in (completed or {}).items():
        done[index(pos)] = True  # type: ignore[index]
        pots[index(pos)] = pot  # type: ignore[index]
    for pos, item in (items or {}).items():
        state = _take_token(state, item)
        placed[index(pos)] = item  # type: ignore[index]
    if storage is not None:
        state = _take_token(state, storage)
    if old.storage is not None:
        state = replace(state, bag=(old.storage, *state.bag))
    home = Home(tuple(grid), tuple(verd), tuple(done), tuple(pots), tuple(placed))
    new_seat = replace(
        old,
        home=home,
        thumbs=old.thumbs if thumbs is None else thumbs,
        storage=storage,
    )
    seats = (*state.seats[:seat], new_seat, *state.seats[seat + 1 :])
    return replace(state, seats=seats)


def with_market(
    state: GameState,
    column: int,
    *,
    plant: str | None = None,
    token: str | None = None,
    room: str | None = None,
) -> GameState:
    """Put ``plant``/``token``/``room`` in market ``column`` (the old ones back in the supply)."""
    if plant is not None:
        state = _take_card(state, plant) if plant not in state.market_plants else state
        row = list(state.market_plants)
        if plant not in row:
            old = row[column]
            row[column] = plant
            state = replace(
                state,
                market_plants=tuple(row),
                plant_deck=(old, *state.plant_deck) if old else state.plant_deck,
            )
    if room is not None:
        state = _take_card(state, room) if room not in state.market_rooms else state
        row = list(state.market_rooms)
        if room not in row:
            old = row[column]
            row[column] = room
            state = replace(
                state,
                market_rooms=tuple(row),
                room_deck=(old, *state.room_deck) if old else state.room_deck,
            )
    if token is not None:
        bag = list(state.bag)
        bag.remove(token)
        tokens = list(state.market_tokens)
        if tokens[column] is not None:
            bag.insert(0, tokens[column])
        tokens[column] = token
        state = replace(state, market_tokens=tuple(tokens), bag=tuple(bag))
    return state


def with_thumbs(state: GameState, seat: int, thumbs: int) -> GameState:
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], thumbs=thumbs)
    return replace(state, seats=tuple(seats))


def home_cell(state: GameState, seat: int, pos: Pos) -> dict[str, Any]:
    home = state.seats[seat].home
    i = index(pos)
    assert i is not None
    return {
        "card": home.cards[i],
        "verdancy": home.verdancy[i],
        "completed": home.completed[i],
        "pot": home.pots[i],
        "item": home.items[i],
    }


def turn(
    seat: int,
    take: str,
    column: int,
    at: Pos,
    *steps: Step,
    token: int | None = None,
    free: bool = False,
    store: str | None = None,
) -> Turn:
    return Turn(seat, take, column, column if token is None else token, at, free, steps, store)


def use(item: str, *at: Pos) -> Step:
    return Step("use", item, at)


def place(item: str, at: Pos) -> Step:
    return Step("place", item, (at,))


def thumb(at: Pos) -> Step:
    return Step("thumb", None, (at,))


# --- refusals ----------------------------------------------------------------------------


def assert_refused(state: GameState, move: Move, code: str) -> RulesError:
    """``apply`` refuses ``move`` with ``code``, a readable message, and ``state`` unchanged."""
    before = copy.deepcopy(state)
    with pytest.raises(RulesError) as caught:
        apply(state, move)
    exc = caught.value
    assert exc.code == code, f"expected {code}, got {exc.code}: {exc.message}"
    assert_sentence(exc.message)
    assert state == before
    return exc


def assert_sentence(message: str) -> None:
    """A message a player can read: a capitalised sentence of several words with a stop."""
    assert message[:1].isupper(), message
    assert message.rstrip().endswith((".", "!")), message
    assert len(message.split()) >= 4, message
    assert "Traceback" not in message and "None" not in message, message
