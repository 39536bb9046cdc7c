"""Properties that hold at every step of any legal game, checked over random games.

Each example plays a whole game with ``RandomBot`` seats, submitting the simultaneous
turns in a random order, and checks the invariants after every single move.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.evergreen.rules import RulesError, bots, state_from_json, state_to_json
from games.evergreen.rules.edition import POWERS, load_edition
from games.evergreen.rules.engine import apply, new_game
from games.evergreen.rules.moves import (
    ACTIONS,
    TIMINGS,
    Effect,
    LakePlacement,
    Move,
    Pick,
    PowerUse,
    Turn,
    move_from_json,
)
from games.evergreen.rules.pieces import BIG, BUSH, EMPTY, LAKE, SMALL, SPROUT
from games.evergreen.rules.planet import SUNS
from games.evergreen.rules.state import GameState, Phase
from games.evergreen.rules.view import player_view

EDITION = load_edition()
PLANET = EDITION.planet
PROFILE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# What a space may become later in the game (pieces never leave, they only grow).
LATER = {
    EMPTY: {EMPTY, SPROUT, SMALL, BIG, BUSH, LAKE},
    SPROUT: {SPROUT, SMALL, BIG},
    SMALL: {SMALL, BIG},
    BIG: {BIG},
    BUSH: {BUSH},
    LAKE: {LAKE},
}

games = st.tuples(
    st.integers(1, 4),  # players
    st.integers(0, 2**32),  # game seed
    st.integers(0, 2**16),  # bot and submission-order seed
    st.sampled_from(SUNS),
)


def play_stepwise(players: int, seed: int, bot_seed: int, sun: str = "N"):
    """Yield (state before, move, state after) for a whole random game."""
    state = new_game(players, seed, sun=sun)
    order = random.Random(bot_seed)
    seats = [bots.RandomBot(bot_seed * 10 + k) for k in range(players)]
    while not state.is_over:
        seat = order.choice(state.awaiting)
        move = seats[seat].choose(state, seat)
        after = apply(state, move)
        yield state, move, after
        state = after


def all_cards(state: GameState) -> Counter[str]:
    cards: Counter[str] = Counter()
    cards.update(state.deck)
    cards.update(state.discard)
    cards.update(state.pool)
    cards.update(card for stack in state.fertility_zone for card, _ in stack)
    for seat in state.seats:
        cards.update(seat.season_cards)
    cards.update(state.ai_cards)
    return cards


def reserved(state: GameState, seats: range | list[int]) -> tuple[int, int]:
    bushes = lakes = 0
    for k in seats:
        turn = state.seats[k].turn
        if turn is not None:
            b, lk = turn.supply_used()
            bushes, lakes = bushes + b, lakes + lk
    return bushes, lakes


def on_boards(state: GameState, piece: int) -> int:
    return sum(seat.board.count(piece) for seat in state.seats)


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        found = set(value)
        for item in value.values():
            found |= keys_of(item)
        return found
    if isinstance(value, list):
        found = set()
        for item in value:
            found |= keys_of(item)
        return found
    return set()


def check_cards(state: GameState) -> None:
    assert all_cards(state) == Counter(EDITION.card_order)
    for seat in state.seats:
        assert seat.card is None or seat.card in seat.season_cards


def check_boards(state: GameState) -> None:
    playable = set(PLANET.playable)
    for seat in state.seats:
        assert len(seat.board) == PLANET.size
        for index, piece in enumerate(seat.board):
            assert piece in LATER
            if piece != EMPTY:
                assert index in playable, f"piece {piece} on unplayable space {index}"


def check_supply(state: GameState) -> None:
    bushes, lakes = reserved(state, range(len(state.seats)))
    assert state.supply == (
        EDITION.supply["bush"] - on_boards(state, BUSH) - bushes,
        EDITION.supply["lake"] - on_boards(state, LAKE) - lakes,
    )
    assert min(state.supply) >= 0


def check_scores(state: GameState) -> None:
    for seat in state.seats:
        assert seat.score == seat.setup_points + sum(s.total for s in seat.seasons) + seat.fertility


def check_progress(before: GameState, after: GameState) -> None:
    for old, new in zip(before.seats, after.seats, strict=True):
        assert new.score >= old.score
        for was, now in zip(old.board, new.board, strict=True):
            assert now in LATER[was]
        for power, was, now in zip(POWERS, old.powers, new.powers, strict=True):
            assert was <= now <= len(EDITION.power_levels[power])


def check_views(state: GameState) -> None:
    deck_runs = []
    if len(state.deck) >= 2:
        deck_runs = [json.dumps(list(state.deck))[1:-1], json.dumps(list(state.deck[::-1]))[1:-1]]
    for viewer in [*range(len(state.seats)), None]:
        view = player_view(state, viewer)
        text = json.dumps(view)
        assert "deck" not in keys_of(view)
        assert "rng" not in keys_of(view)
        assert str(state.rng) not in text
        for run in deck_runs:
            assert run not in text
        others = [k for k in range(len(state.seats)) if k != viewer]
        for k in others:
            turn = state.seats[k].turn
            assert view["seats"][k]["turn"] is None
            assert view["seats"][k]["submitted"] is (turn is not None)
            if turn is not None:
                assert json.dumps(turn.to_json()) not in text
        # The supply left is public (the edition): every submitted turn's take shows.
        bushes, lakes = reserved(state, range(len(state.seats)))
        assert view["supply"] == {
            "bush": EDITION.supply["bush"] - on_boards(state, BUSH) - bushes,
            "lake": EDITION.supply["lake"] - on_boards(state, LAKE) - lakes,
        }


@settings(PROFILE, max_examples=40)
@given(games)
def test_it_keeps_every_invariant_after_every_move(game: tuple[int, int, int, str]) -> None:
    players, seed, bot_seed, sun = game
    first = new_game(players, seed, sun=sun)
    for check in (check_cards, check_boards, check_supply, check_scores, check_views):
        check(first)
    steps = 0
    for before, _move, after in play_stepwise(players, seed, bot_seed, sun):
        check_cards(after)
        check_boards(after)
        check_supply(after)
        check_scores(after)
        check_progress(before, after)
        check_views(after)
        steps += 1
    assert after.is_over and after.outcome is not None
    assert steps == sum(EDITION.season_rounds) * players * 2


@settings(PROFILE, max_examples=40)
@given(games)
def test_it_replays_the_recorded_moves_to_identical_states(game: tuple[int, int, int, str]) -> None:
    players, seed, bot_seed, sun = game
    history = list(play_stepwise(players, seed, bot_seed, sun))
    recorded = json.dumps([move.to_json() for _before, move, _after in history])
    state = new_game(players, seed, sun=sun)
    for (before, _move, after), data in zip(history, json.loads(recorded), strict=True):
        assert state == before
        state = apply(state, move_from_json(data))
        assert state == after
    assert state.is_over


@settings(PROFILE, max_examples=40)
@given(games)
def test_it_hides_each_pending_turn_from_the_other_seats_until_the_round_resolves(
    game: tuple[int, int, int, str],
) -> None:
    players, seed, bot_seed, sun = game
    for before, move, after in play_stepwise(players, seed, bot_seed, sun):
        if not isinstance(move, Turn) or after.phase is not Phase.ACTION:
            continue  # a Pick, or the turn that closed the round (now revealed)
        pending = after.seats[move.seat]
        assert pending.turn == move
        owner_view = player_view(after, move.seat)
        assert owner_view["seats"][move.seat]["turn"] == move.to_json()
        for viewer in [*range(players), None]:
            if viewer == move.seat:
                continue
            shown = player_view(after, viewer)["seats"][move.seat]
            assert shown["turn"] is None
            assert shown["submitted"] is True
            assert shown["score"] == pending.score
            assert shown["board"] == player_view(before, viewer)["seats"][move.seat]["board"]


# --- random (mostly illegal) moves --------------------------------------------------

anywhere = st.tuples(st.integers(-1, 7), st.integers(-1, 7))
on_planet = st.sampled_from([PLANET.space(i) for i in PLANET.playable])
coordinates = st.one_of(on_planet, on_planet, anywhere)


@st.composite
def random_moves(draw: st.DrawFn, state: GameState) -> Move:
    """A move made of random parts, shaped like what the phase expects most of the time."""
    seats = st.integers(-1, len(state.seats))
    if state.awaiting:
        seats = st.one_of(st.sampled_from(state.awaiting), st.sampled_from(state.awaiting), seats)
    seat = draw(seats)
    wants_pick = state.phase is Phase.DRAFT
    if draw(st.integers(0, 9)) == 7:
        wants_pick = not wants_pick
    if wants_pick:
        if state.pool and draw(st.booleans()):
            return Pick(seat, draw(st.sampled_from(state.pool)))
        return Pick(seat, draw(st.one_of(st.sampled_from(EDITION.card_order), st.just("x/y"))))
    action = draw(st.sampled_from((*ACTIONS, "E")))
    kinds = {"A": ["plant"] * 3, "B": ["grow"] * 2, "C": ["plant", "grow"]}.get(action, ["plant"])
    if action == "D":
        kinds = [draw(st.sampled_from(("plant", "grow")))]
    if draw(st.integers(0, 9)) == 7:  # now and then, any shape at all
        kinds = draw(st.lists(st.sampled_from(("plant", "grow", "chop")), max_size=4))
    effects = tuple(Effect(kind, draw(coordinates)) for kind in kinds if draw(st.integers(0, 4)))
    power = None
    if draw(st.booleans()):
        held = state.seats[seat].card if 0 <= seat < len(state.seats) else None
        names = st.sampled_from(POWERS)
        if held is not None:
            names = st.one_of(st.just(EDITION.cards[held].power), names)
        name = draw(names)
        lakes = st.builds(LakePlacement, coordinates, st.lists(coordinates, max_size=3).map(tuple))
        target = lakes if name == "lake" and draw(st.integers(0, 5)) else coordinates
        if name != "lake" and not draw(st.integers(0, 5)):
            target = lakes
        targets = tuple(draw(st.lists(target, max_size=3)))
        power = PowerUse(name, draw(st.sampled_from(TIMINGS)), targets)
    return Turn(seat, action, effects, power)


def random_point(players: int, seed: int, bot_seed: int, sun: str, data: st.DataObject):
    """A state at a random point of a random game (possibly its very start or end)."""
    history = [after for _before, _move, after in play_stepwise(players, seed, bot_seed, sun)]
    states = [new_game(players, seed, sun=sun), *history]
    return states[data.draw(st.integers(0, len(states) - 1), label="step")]


@pytest.mark.slow  # 400 random games
@settings(PROFILE, max_examples=400)
@given(st.data(), games)
def test_it_accepts_a_random_move_or_refuses_it_with_a_code_and_leaves_the_state_alone(
    data: st.DataObject, game: tuple[int, int, int, str]
) -> None:
    state = random_point(*game, data)
    snapshot = state_to_json(state)
    move = data.draw(random_moves(state), label="move")
    try:
        result = apply(state, move)
    except RulesError as exc:
        assert isinstance(exc.code, str) and exc.code
        assert isinstance(exc.message, str) and exc.message
        assert state_to_json(state) == snapshot
        assert state == state_from_json(snapshot)
        return
    for check in (check_cards, check_boards, check_supply, check_scores, check_views):
        check(result)
    check_progress(state, result)
    # What the engine accepts, a game record can store and replay.
    assert move_from_json(json.loads(json.dumps(move.to_json()))) == move
