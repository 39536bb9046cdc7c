"""The simple computer players: ``RandomBot`` (any legal move) and ``GreedyBot`` (one turn ahead).

A bot is given a state and a seat and returns a legal move for that seat. Each bot owns
a ``random.Random`` seeded by its creator, so a game between bots is reproducible and
the global generator is never touched. Both bots build their turn with the engine's own
``TurnInProgress``, so every step they choose is one the engine accepts.

The greedy bot tries every selection it may take (with action B when it can pay) and
every legal cell; for each it plays its items and green thumbs one step at a time, each
time the step that most raises the home's value, and plays the best whole turn. The
value is the final scoring applied to the home as it stands, with an incomplete plant's
verdancy worth the larger of its half point and its share of the plant's points and a
pot, and a small value for a green thumb kept or an item stored.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from .edition import SIDES, Edition
from .engine import edition_of
from .home import Home
from .moves import Move, Start, Step, Turn, Wipe
from .scoring import Score, score_home
from .state import GameState, Phase
from .targets import Selection, legal_cells, legal_selections, plant_targets, room_targets, rooms
from .turns import TurnInProgress


def final_points(home: Home, thumbs: int, state: GameState, ed: Edition) -> float:
    """The home's exact final score, as if the seat's game ended now (its incomplete
    plants' verdancy counted as the scoring counts it)."""
    score = score_home(home, ed, family=state.family, goals=state.goals, thumbs=thumbs)
    return float(settled_points(score) + score.incomplete)


def settled_points(score: Score) -> int:
    """A home's score without its incomplete plants' verdancy."""
    return (
        score.plants
        + score.pots
        + score.rooms
        + score.items
        + score.collector
        + score.decorator
        + score.goals
    )


def home_value(
    home: Home, thumbs: int, state: GameState, ed: Edition, thumb: float, pot: float
) -> float:
    """A home's final scoring as it stands, each incomplete plant's verdancy valued by its
    progress (the larger of its half point and its share of the plant's points and a
    ``pot``), and ``thumb`` for each green thumb held."""
    score = score_home(home, ed, family=state.family, goals=state.goals, thumbs=thumbs)
    settled = settled_points(score)
    progress = 0.0
    for i, card in enumerate(home.cards):
        if card is not None and card[0] == "P" and home.verdancy[i] and not home.completed[i]:
            plant = ed.plants[card]
            # Half a point a verdancy at the end, or its share of the completion to come.
            share = 0.5 * (plant.points + pot) / plant.verdancy
            progress += home.verdancy[i] * max(0.5, share)
    return settled + progress + thumb * min(thumbs, ed.max_thumbs)


class Bot(ABC):
    """Base class: ``choose(state, seat)`` returns that seat's next move."""

    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.random = random.Random(seed)

    def choose(self, state: GameState, seat: int) -> Move:
        if state.phase is Phase.START:
            return Start(seat, self.start_side(state, seat))
        if state.phase is Phase.PLAY:
            return self.turn(state, seat)
        raise ValueError("the game is over")

    def start_side(self, state: GameState, seat: int) -> str:
        return self.random.choice(SIDES)

    @abstractmethod
    def turn(self, state: GameState, seat: int) -> Wipe | Turn:
        """The seat's next move of the play phase."""


def step_options(tp: TurnInProgress, item: str, ed: Edition) -> list[Step]:
    """Every way to play ``item`` now (a trowel: on one plant; the bots add more)."""
    home = tp.home
    if ed.is_item(item):
        return [Step("place", item, (p,)) for p in room_targets(home.cards, home.items)]
    plants = plant_targets(home.cards, home.completed)
    if item == "watering_can" and not tp.family:
        return [Step("use", item, (p,)) for p in rooms(home.cards)]
    return [Step("use", item, (p,)) for p in plants]


class RandomBot(Bot):
    """Plays any legal turn, using its items and green thumbs at random."""

    name = "random"

    def turn(self, state: GameState, seat: int) -> Wipe | Turn:
        ed = edition_of(state)
        rnd = self.random
        thumbs = state.seats[seat].thumbs
        if not state.family and thumbs >= ed.action_cost and rnd.random() < 0.05:
            columns = [c for c, t in enumerate(state.market_tokens) if t is not None]
            if columns:
                return Wipe(seat, tuple(sorted(rnd.sample(columns, rnd.randint(1, len(columns))))))
        free = not state.family and thumbs >= ed.action_cost and rnd.random() < 0.1
        options = [
            (kind, column)
            for kind, row in (("plant", state.market_plants), ("room", state.market_rooms))
            for column, card in enumerate(row)
            if card is not None
        ]
        take, column = rnd.choice(options)
        cells = legal_cells(state, seat, take, ed)
        if not cells:  # that kind has no room left in the home: take the other kind
            options = [(k, c) for k, c in options if k != take]
            take, column = rnd.choice(options)
            cells = legal_cells(state, seat, take, ed)
        tokens = [c for c, t in enumerate(state.market_tokens) if t is not None]
        token = rnd.choice(tokens) if free else column
        at = rnd.choice(cells)
        move = Turn(seat, take, column, token, at, free=free and token != column)
        tp = TurnInProgress(state, ed, move)
        steps: list[Step] = []
        for item in list(tp.available):
            choices = step_options(tp, item, ed)
            if choices and rnd.random() < 0.8:
                step = rnd.choice(choices)
                if item == "trowel" and not tp.family:
                    plants = plant_targets(tp.home.cards, tp.home.completed)
                    step = Step("use", item, tuple(rnd.sample(plants, min(len(plants), 3))))
                tp.step(step)
                steps.append(step)
        while tp.thumbs >= ed.action_cost and not tp.family and rnd.random() < 0.3:
            plants = plant_targets(tp.home.cards, tp.home.completed)
            if not plants:
                break
            step = Step("thumb", None, (rnd.choice(plants),))
            tp.step(step)
            steps.append(step)
        store = rnd.choice(tp.available) if tp.available else None
        return Turn(seat, move.take, move.column, move.token, at, move.free, tuple(steps), store)


class GreedyBot(Bot):
    """Plays the turn that most raises its score this turn; see the module doc."""

    name = "greedy"
    THUMB = 0.2  # the value of a green thumb kept for later
    STORED = 0.3  # the value of an item kept in storage
    POT = 2.0  # the pot a completion is expected to bring

    def value(self, tp: TurnInProgress) -> float:
        """The home's score now, with each incomplete plant's verdancy valued by its progress."""
        return home_value(tp.home.freeze(), tp.thumbs, tp.state, tp.ed, self.THUMB, self.POT)

    def start_side(self, state: GameState, seat: int) -> str:
        """A side where the room's light suits the plant, if there is one."""
        ed = edition_of(state)
        s = state.seats[seat]
        lights = ed.plants[s.start_plant].lights
        edges = ed.rooms[s.start_room].edges
        lit = [side for side in SIDES if edges[side] in lights and not state.family]
        return self.random.choice(lit or list(SIDES))

    def _best_step(
        self, tp: TurnInProgress, steps: list[Step]
    ) -> tuple[float, TurnInProgress, Step] | None:
        best = None
        for step in steps:
            trial = tp.clone()
            trial.step(step)
            value = self.value(trial)
            if best is None or value > best[0]:
                best = (value, trial, step)
        return best

    def plan(self, state: GameState, ed: Edition, move: Turn) -> tuple[float, Turn]:
        tp = TurnInProgress(state, ed, move)
        steps: list[Step] = []
        for item in list(tp.available):
            base = self.value(tp) + self.STORED
            options = step_options(tp, item, ed)
            if item == "trowel" and not tp.family:
                options = self._trowel_options(tp, item)
            found = self._best_step(tp, options)
            if found is not None and found[0] > base:
                _, tp, step = found
                steps.append(step)
        while tp.thumbs >= ed.action_cost and not tp.family:
            base = self.value(tp)
            found = self._best_step(
                tp,
                [
                    Step("thumb", None, (p,))
                    for p in plant_targets(tp.home.cards, tp.home.completed)
                ],
            )
            if found is None or found[0] <= base:
                break
            _, tp, step = found
            steps.append(step)
        store = tp.available[-1] if tp.available else None
        value = self.value(tp) + (self.STORED if store else 0.0)
        return value, Turn(
            move.seat, move.take, move.column, move.token, move.at, move.free, tuple(steps), store
        )

    def _trowel_options(self, tp: TurnInProgress, item: str) -> list[Step]:
        plants = plant_targets(tp.home.cards, tp.home.completed)
        gains = []
        for p in plants:
            trial = tp.clone()
            trial.step(Step("use", item, (p,)))
            gains.append((self.value(trial), p))
        gains.sort(reverse=True)
        return [
            Step("use", item, tuple(p for _, p in gains[:k])) for k in (1, 2, 3) if k <= len(gains)
        ]

    def ranked(self, state: GameState, seat: int) -> list[tuple[float, float, Turn]]:
        """Every selection and cell with its planned turn, best first: (value, tie, turn)."""
        ed = edition_of(state)
        selections: list[tuple[Selection, bool]] = [
            (s, False) for s in legal_selections(state, seat, ed)
        ]
        selections += [
            (s, True) for s in legal_selections(state, seat, ed, free=True) if s.column != s.token
        ]
        found: list[tuple[float, float, Turn]] = []
        for pick, free in selections:
            for at in legal_cells(state, seat, pick.take, ed):
                move = Turn(seat, pick.take, pick.column, pick.token, at, free)
                value, turn = self.plan(state, ed, move)
                found.append((value, self.random.random(), turn))
        found.sort(key=lambda f: f[:2], reverse=True)
        return found

    def turn(self, state: GameState, seat: int) -> Wipe | Turn:
        return self.ranked(state, seat)[0][2]
