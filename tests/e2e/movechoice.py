"""The engine choosing what a person at a browser plays: picks and turns that fulfil the
test's wishes, how many clicks and steps a turn takes, and what the page's turn form says.

The engine only *chooses*; ``tests.e2e.e2ehelpers.Person`` carries the move out in the
browser (see that module's docstring).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games.evergreen import rules
from games.evergreen.rules.bots import GreedyBot, RandomBot
from games.evergreen.rules.moves import LakePlacement, Turn
from games.evergreen.rules.scoring import biggest_forest, light_score
from games.evergreen.rules.targets import preview_board


def power_of(state: rules.GameState, card: str) -> str:
    return rules.load_edition(state.edition).cards[card].power


@dataclass
class Wishes:
    """What the test still wants to see played at least once in a game."""

    powers: set[str] = field(default_factory=set)  # e.g. {"lake", "bush"}
    actions: set[str] = field(default_factory=set)  # e.g. {"A", "B", "C", "D"}
    timings: set[str] = field(default_factory=set)  # e.g. {"before", "after"}
    lake_growth: bool = False  # a Lake placed with a growth beside it

    def fulfilled_by(self, turn: Turn) -> int:
        count = 0
        if turn.action in self.actions:
            count += 1
        if turn.power is not None and turn.power.timing in self.timings:
            count += 1
        if turn.power is not None and turn.power.targets and turn.power.power in self.powers:
            count += 3
        if self.lake_growth and _lake_grows(turn):
            count += 3
        return count

    def played(self, turn: Turn) -> None:
        self.actions.discard(turn.action)
        if turn.power is not None:
            self.timings.discard(turn.power.timing)
            if turn.power.targets:
                self.powers.discard(turn.power.power)
            if _lake_grows(turn):
                self.lake_growth = False

    @property
    def done(self) -> bool:
        return not (self.powers or self.actions or self.timings or self.lake_growth)


def _lake_grows(turn: Turn) -> bool:
    return (
        turn.power is not None
        and turn.power.power == "lake"
        and any(isinstance(t, LakePlacement) and t.grow for t in turn.power.targets)
    )


def choose_pick(state: rules.GameState, seat: int, wishes: Wishes, seed: int) -> str:
    """A card from the pool: one with a wished-for Power if any, else the greedy bot's."""
    for card in state.pool:
        if power_of(state, card) in wishes.powers:
            return card
    return GreedyBot(seed).pick(state, seat)


def clicks(turn: Turn) -> int:
    """How many clicks on spaces a turn takes in the turn builder."""
    n = len(turn.effects)
    if turn.power is not None:
        for target in turn.power.targets:
            n += 1 + (len(target.grow) if isinstance(target, LakePlacement) else 0)
    return n


def choose_turn(
    state: rules.GameState, seat: int, wishes: Wishes, seed: int, *, most_clicks: int = 6
) -> Turn:
    """A legal turn for ``seat``, among the greedy bot's turn and a few random ones.

    The turn that fulfils most wishes (preferring the greedy turn, then turns of at most
    ``most_clicks`` clicks on spaces); when none fulfils a wish, the quickest turn to play
    that still clicks a space (the fast path through the game, to keep the test short).
    """
    candidates = [GreedyBot(seed).turn(state, seat)]
    candidates += [RandomBot(seed * 1000 + k).turn(state, seat) for k in range(80)]

    def rank(item: tuple[int, Turn]) -> tuple[int, ...]:
        k, turn = item
        n = clicks(turn)
        fulfils = wishes.fulfilled_by(turn)
        if fulfils:
            return (fulfils, n <= most_clicks, -k)
        return (0, n > 0, -steps(turn), -k)

    _k, best = max(enumerate(candidates), key=rank)
    rules.apply(state, best)  # the engine agrees it is legal (raises otherwise)
    return best


def steps(turn: Turn) -> int:
    """How many page requests playing ``turn`` takes: Action, timing, spaces, next, submit."""
    return 3 + clicks(turn) + (turn.power is not None)


def preview_points(state: rules.GameState, seat: int, turn: Turn) -> tuple[int, int]:
    """(Light, biggest Forest) the seat's planet would score now with ``turn`` played."""
    edition = rules.load_edition(state.edition)
    board = preview_board(state, seat, turn)
    return (
        light_score(edition.planet, board, state.sun, edition),
        biggest_forest(edition.planet, board),
    )


def turn_text(turn: Turn) -> dict[str, Any]:
    """What the page's turn form holds once ``turn`` is built: the turn's JSON form in the
    record (games.evergreen.turnbuilder), past its second part if it uses the Power."""
    data = rules.move_to_json(turn)
    return {**data, "part": 2} if turn.power is not None else data


def spaces_placed(text: str) -> int:
    """How many spaces the turn in the page's turn form has effects on so far."""
    data = json.loads(text)
    targets = (data.get("power") or {}).get("targets", [])
    grown = sum(1 + len(t.get("grow", [])) if isinstance(t, dict) else 1 for t in targets)
    return len(data.get("effects", [])) + grown
