"""Small helpers that build planets, boards and game states for the rules tests.

A state for a test always starts from a real ``new_game`` and is then changed with
``dataclasses.replace``, so it stays a state the engine could have reached: the cards a
test hands out are taken from wherever they were (deck, pool, discard, Fertility Zone),
and the 42 cards stay accounted for.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from games.evergreen.rules import (
    GameState,
    Phase,
    Pick,
    RulesError,
    SeasonScore,
    Turn,
    apply,
    load_edition,
    new_game,
)
from games.evergreen.rules.edition import POWERS
from games.evergreen.rules.pieces import EMPTY, PIECE_CODES, PIECE_NAMES
from games.evergreen.rules.planet import BIOMES, Planet, Space

EDITION = load_edition()
PLANET = EDITION.planet

Pieces = Mapping[Space, str]


# --- planets and boards -----------------------------------------------------------------


def planet(*rows: str) -> Planet:
    """A planet from rows of the edition's text format, e.g. ``planet("s s # s")``."""
    return Planet.parse(rows)


def board(on: Planet, pieces: Pieces) -> tuple[int, ...]:
    """A board of ``on`` with ``{(row, col): "sprout" | "small" | "big" | "bush" | "lake"}``."""
    cells = [EMPTY] * on.size
    for space, name in pieces.items():
        cells[on.index(space)] = PIECE_CODES[name]
    return tuple(cells)


def line(terrain: str, pieces: str) -> tuple[Planet, tuple[int, ...]]:
    """A one-row planet and its board, piece words separated by spaces (``-``: empty).

    ``line("s s # s", "small - - small")`` is a row of four spaces with a crevice in it.
    """
    row = planet(terrain)
    words = pieces.split()
    assert len(words) == row.cols, "one piece word per space"
    return row, board(
        row, {(0, col): word for col, word in enumerate(words) if word not in ("-", "empty")}
    )


def pieces_of(on: Planet, cells: Iterable[int]) -> dict[Space, str]:
    """The non-empty spaces of a board as ``{(row, col): piece name}``."""
    return {on.space(i): PIECE_NAMES[p] for i, p in enumerate(cells) if p != EMPTY}


def spaces(on: Planet, indices: Iterable[int]) -> set[Space]:
    return {on.space(i) for i in indices}


# --- cards --------------------------------------------------------------------------------


def all_cards(state: GameState) -> list[str]:
    """Every card of the game wherever it lies, once per copy found."""
    found = [*state.deck, *state.discard, *state.pool, *state.ai_cards]
    for stack in state.fertility_zone:
        found.extend(card for card, _ in stack)
    for seat in state.seats:
        found.extend(seat.season_cards)
    return found


def _without(state: GameState, taken: Iterable[str]) -> GameState:
    """``state`` with the ``taken`` cards removed from the deck, pool, discard and zone.

    The old pool and the A.I.'s cards go back on the deck (they are about to be replaced).
    """
    gone = set(taken)
    deck = tuple(c for c in (*state.deck, *state.pool, *state.ai_cards) if c not in gone)
    return replace(
        state,
        deck=deck,
        pool=(),
        ai_cards=(),
        discard=tuple(c for c in state.discard if c not in gone),
        fertility_zone=tuple(
            tuple(entry for entry in stack if entry[0] not in gone)
            for stack in state.fertility_zone
        ),
    )


def zone(
    *stacks: tuple[str, Iterable[tuple[str, bool]]],
) -> tuple[tuple[tuple[str, bool], ...], ...]:
    """A Fertility Zone from ``(biome, [(card, face_up), ...])`` pairs; other biomes empty."""
    by_biome = dict(stacks)
    return tuple(tuple(by_biome.get(biome, ())) for biome in BIOMES)


def with_zone(state: GameState, new_zone: tuple[tuple[tuple[str, bool], ...], ...]) -> GameState:
    """``state`` with exactly ``new_zone`` as its Fertility Zone; old zone cards go to the deck."""
    in_zone = {card for stack in new_zone for card, _ in stack}
    old = [card for stack in state.fertility_zone for card, _ in stack if card not in in_zone]
    state = _without(state, in_zone)
    return replace(state, deck=(*old, *state.deck), fertility_zone=new_zone)


# --- game states ------------------------------------------------------------------------------


def powers(levels: Mapping[str, int] | None = None) -> tuple[int, ...]:
    """Power track positions in ``POWERS`` order, e.g. ``powers({"sprout": 1})``."""
    levels = levels or {}
    return tuple(levels.get(p, 0) for p in POWERS)


def draft_state(
    players: int,
    pool: Iterable[str],
    *,
    first: int = 0,
    seed: int = 1,
    fertility_zone: tuple[tuple[tuple[str, bool], ...], ...] | None = None,
) -> GameState:
    """A Draft at its start with the given pool (left to right) and first player.

    In solo mode the A.I.'s pick is not made yet: pass the result to ``advance``.
    """
    state = new_game(players, seed)
    if fertility_zone is not None:
        state = with_zone(state, fertility_zone)
    cards = tuple(pool)
    state = _without(state, cards)
    return replace(
        state,
        phase=Phase.DRAFT,
        pool=cards,
        first=first,
        next_first=first,
        token_card=None,
        picks_done=0,
        ai_cards=(),
    )


def action_state(
    cards: Mapping[int, str],
    *,
    players: int = 2,
    boards: Mapping[int, Pieces] | None = None,
    tracks: Mapping[int, Mapping[str, int]] | None = None,
    scores: Mapping[int, int] | None = None,
    season: int = 1,
    round: int = 1,
    sun: str | None = None,
    supply: tuple[int, int] | None = None,
    first: int = 0,
    seed: int = 1,
    fertility_zone: tuple[tuple[tuple[str, bool], ...], ...] | None = None,
) -> GameState:
    """The Action phase of a round: each seat in ``cards`` holds that card.

    Seats not in ``cards`` hold no card (they have no turn this round). ``boards`` and
    ``tracks`` give a seat's pieces and Power track positions; ``scores`` its score.
    """
    boards, tracks, scores = boards or {}, tracks or {}, scores or {}
    state = new_game(players, seed)
    if fertility_zone is not None:
        state = with_zone(state, fertility_zone)
    state = _without(state, cards.values())
    seats = []
    for index, seat in enumerate(state.seats):
        card = cards.get(index)
        seats.append(
            replace(
                seat,
                board=board(PLANET, boards.get(index, {})),
                powers=powers(tracks.get(index)),
                score=scores.get(index, seat.score),
                seasons=tuple(SeasonScore(number) for number in range(1, season + 1)),
                card=card,
                season_cards=(card,) if card else (),
            )
        )
    return replace(
        state,
        seats=tuple(seats),
        phase=Phase.ACTION,
        season=season,
        round=round,
        sun=sun or "NESW"[(season - 1) % 4],
        supply=supply or state.supply,
        first=first,
        next_first=first,
        token_card=None,
        picks_done=state.drafters,
        ai_cards=(),
        submitted=(),
    )


def deal(state: GameState, cards: Mapping[int, str]) -> GameState:
    """From the start of a Draft, hand each seat in ``cards`` that card and start the
    Action phase, as if the Draft had gone that way (the old pool goes back on the deck).
    """
    assert state.phase is Phase.DRAFT
    state = _without(state, cards.values())
    seats = tuple(
        replace(seat, card=cards[i], season_cards=(*seat.season_cards, cards[i]))
        if i in cards
        else seat
        for i, seat in enumerate(state.seats)
    )
    return replace(
        state, seats=seats, phase=Phase.ACTION, token_card=None, picks_done=state.drafters
    )


def last_round(cards: Mapping[int, str], **kwargs: Any) -> GameState:
    """The Action phase of the game's very last round (season 4, round 2, Sun at W)."""
    seasons = len(EDITION.season_rounds)
    return action_state(
        cards,
        season=seasons,
        round=EDITION.season_rounds[-1],
        **kwargs,
    )


def pass_turn(seat: int) -> Turn:
    """A legal turn that changes nothing: Action D with no effect, no Power."""
    return Turn(seat, "D")


def submit_all(state: GameState, turns: Mapping[int, Turn] | None = None) -> GameState:
    """Submit every awaited turn (``turns`` given, else a pass) in seat order."""
    turns = turns or {}
    for seat in state.awaiting:
        state = apply(state, turns.get(seat, pass_turn(seat)))
    return state


def play_out(
    state: GameState,
    *,
    choose: Callable[[GameState], str] | None = None,
    on_state: Callable[[GameState], None] | None = None,
) -> GameState:
    """Play to the end: every pick takes ``choose(state)`` (default the leftmost card),
    every turn passes. ``on_state`` sees every state a player must act in.
    """
    while not state.is_over:
        if on_state is not None:
            on_state(state)
        seat = state.awaiting[0]
        if state.phase is Phase.DRAFT:
            card = choose(state) if choose else state.pool[0]
            state = apply(state, Pick(seat, card))
        else:
            state = apply(state, pass_turn(seat))
    return state


# --- refusals ------------------------------------------------------------------------------


def assert_refused(state: GameState, move: Pick | Turn, code: str) -> RulesError:
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
