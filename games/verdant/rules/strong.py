"""The strong computer player: the greedy bot's best turns, tried against sampled futures.

For a turn, the greedy bot's planner ranks every selection and cell; the strong player
keeps the best few and plays each of them in a handful of *determinisations*: worlds in
which what the seat cannot see (the order of both decks and of the bag, the generator)
is dealt anew from the cards and tokens it knows are hidden. In each world every seat
then plays on by the greedy policy for a few turns (to the game's end near the end), and
the candidate is valued by the seat's home at the horizon: the exact final score once
the game is over, else the greedy evaluation (pots and completions to come, green
thumbs, goals). The candidate with the best total wins; every candidate meets the same
worlds, so the comparison is fair.

It reads only what the seat may see: a world is dealt from the *sorted* hidden cards and
tokens, so reshuffling them gives the same worlds and the same decision. Its randomness
comes from its own seeded generator, and its work is bounded by a count of candidates,
worlds and turns (the ``Level``), never by a clock. The start placement is the greedy
bot's (it is chosen before anything is hidden that matters to it).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from games.enginekit.rng import MASK64

from .edition import Edition
from .engine import apply, edition_of
from .moves import Turn, Wipe
from .policies import GreedyBot, home_value
from .state import GameState


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength: how much search a decision may do."""

    name: str
    candidates: int  # the greedy bot's best turns that are searched
    worlds: int  # determinisations each candidate is played in
    horizon: int  # own turns played after the candidate before the home is valued


LEVELS: dict[str, Level] = {
    "strong": Level("strong", candidates=6, worlds=4, horizon=3),
}


def determinise(state: GameState, rnd: random.Random) -> GameState:
    """``state`` with the hidden order dealt anew by ``rnd`` from what the seat can know.

    The decks and the bag are sorted before shuffling, so their hidden order never
    reaches the result; the generator state is replaced too.
    """
    plants = sorted(state.plant_deck)
    rooms = sorted(state.room_deck)
    bag = sorted(state.bag)
    for pile in (plants, rooms, bag):
        rnd.shuffle(pile)
    return replace(
        state,
        plant_deck=tuple(plants),
        room_deck=tuple(rooms),
        bag=tuple(bag),
        rng=rnd.getrandbits(64) & MASK64,
    )


class StrongBot(GreedyBot):
    """A search player at one ``Level`` (see the module docstring)."""

    name = "strong"
    level = LEVELS["strong"]

    def leaf(self, state: GameState, seat: int, ed: Edition) -> float:
        """The seat's home at the horizon: its final score once the game is over."""
        s = state.seats[seat]
        if state.is_over:
            assert state.outcome is not None
            return float(state.outcome.scores[seat])
        stored = self.STORED if s.storage else 0.0
        return home_value(s.home, s.thumbs, state, ed, self.THUMB, self.POT) + stored

    def rollout(self, state: GameState, seat: int, ed: Edition, policy: GreedyBot) -> float:
        """Play on by ``policy`` until ``seat`` has had ``horizon`` more turns; value it."""
        goal = state.seats[seat].turns + self.level.horizon
        while not state.is_over and state.seats[seat].turns < goal:
            mover = state.awaiting[0]
            state = apply(state, policy.turn(state, mover))
        return self.leaf(state, seat, ed)

    def turn(self, state: GameState, seat: int) -> Wipe | Turn:
        ed = edition_of(state)
        ranked = self.ranked(state, seat)
        level = self.level
        candidates = [turn for _, _, turn in ranked[: level.candidates]]
        if len(candidates) == 1 or state.seats[seat].turns + 1 >= ed.turns_per_player:
            return candidates[0]  # the last turn: the greedy value is the final score
        worlds = [determinise(state, self.random) for _ in range(level.worlds)]
        policy_seeds = [self.random.getrandbits(64) for _ in worlds]
        best: tuple[float, Turn] | None = None
        for turn in candidates:
            total = 0.0
            for world, policy_seed in zip(worlds, policy_seeds, strict=True):
                after = apply(world, turn)
                total += self.rollout(after, seat, ed, GreedyBot(policy_seed))
            if best is None or total > best[0]:
                best = (total, turn)
        assert best is not None
        return best[1]


def strong_bot(level: str) -> type[StrongBot]:
    """The ``StrongBot`` class playing at ``level``."""
    return type(f"{level.capitalize()}Bot", (StrongBot,), {"name": level, "level": LEVELS[level]})


__all__ = ["LEVELS", "Level", "StrongBot", "determinise", "strong_bot"]
