"""The strong computer player: the planner's best moves, tried against sampled futures.

For a turn, the greedy planner (valuing a home by ``outlook.outlook_value``: its score
now plus what it promises) ranks every selection and cell; the strong player keeps the
best few, adds green thumb action A when it can pay (every market token back, or all but
the best turn's), and plays each of them in a handful of *determinisations*: worlds in
which what the seat cannot see (the order of both decks and of the bag, the generator)
is dealt anew from the cards and tokens it knows are hidden. In each world every seat
then plays on by the planner (the greedy bot with the same judgement) for a few turns
(to the game's end near the end), and the candidate is valued by the seat's home at the
horizon: the exact final score once the game is over, else its outlook. The candidate
with the best total wins; every candidate meets the same worlds over the same number of
the seat's turns, so the comparison is fair.

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
from .learnt import learnt_value, turn_value
from .moves import Turn, Wipe
from .outlook import Outlook, quick_outlook_value
from .policies import GreedyBot, final_points
from .state import GameState
from .turns import TurnInProgress

# The weights of the strong player's judgement (tuned by self-play, see the docs).
OUTLOOK = Outlook(light=0.0, room=0.5, collector=1.0, decorator=1.0, pot=3.0)


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength: how much search a decision may do."""

    name: str
    candidates: int  # the planner's best turns that are searched
    worlds: int  # determinisations each candidate is played in
    horizon: int  # own turns played after the candidate before the home is valued
    wipes: bool = True  # whether action A is among the candidates
    # The rollout policies' judgements ("targets"): a move is worth its best policy's total.
    targets: tuple[Outlook, ...] = ()
    leaf: Outlook | None = None  # the horizon's judgement, when not the planner's
    # Other judgements ("proposers") whose best turn is a candidate too.
    proposers: tuple[Outlook, ...] = ()
    # The seat's last turn judged by its exact final score (at the root and in rollouts).
    exact_end: bool = False
    # In the seat's last ``end_turns`` turns, ``end_candidates`` turns are searched.
    end_turns: int = 0
    end_candidates: int = 0
    # The learnt expected final score (``learnt.py``) judges the horizon (``learnt``), the
    # candidates at the root (``learnt_root``) and the rollouts' turns (``learnt_rollouts``).
    learnt: bool = False
    learnt_root: bool = False
    learnt_rollouts: bool = False


LEVELS: dict[str, Level] = {
    # The learnt judgement ranks the root's candidates, values the horizon (sixth session:
    # 84.69 on seeds 1-200 against 83.04) and plays the rollouts, in 8 worlds instead of 12
    # (seventh session: 85.06 on seeds 1-200 against 84.69 paired, +0.37 se 0.35;
    # a decision 0.51 times the sixth session's at the median, on the same positions).
    "strong": Level(
        "strong",
        candidates=5,
        worlds=8,
        horizon=3,
        learnt=True,
        learnt_root=True,
        learnt_rollouts=True,
    ),
}


class PlannerBot(GreedyBot):
    """The greedy bot judging homes by ``outlook_value``: one turn ahead, with promises.

    It is the strong player's rollout policy: 1.6 points a solo game better than the
    plain greedy bot (200 games, see the docs) at about twice its cost.
    """

    name = "planner"
    outlook = OUTLOOK
    learnt = False  # judge by the learnt expected final score (``learnt.turn_value``)
    exact_end = False  # judge the seat's last turn by its exact final score

    def learn(self) -> None:
        """Judge by the learnt value, which counts a stored item itself."""
        self.learnt = True
        self.STORED = 0.0

    def value(self, tp: TurnInProgress) -> float:
        """The planner's judgement: the greedy value plus the home's promises."""
        if self.learnt:
            return turn_value(tp)
        if self.exact_end and tp.seat.turns + 1 >= tp.ed.turns_per_player:
            return final_value(tp)
        return quick_outlook_value(tp.home, tp.thumbs, tp.state, tp.ed, self.outlook)


def final_value(tp: TurnInProgress) -> float:
    """The home's exact final score, as it would be if the turn ended the seat's game."""
    return final_points(tp.home.freeze(), tp.thumbs, tp.state, tp.ed)


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


def wipe_candidates(state: GameState, seat: int, ed: Edition, keep: int) -> list[Wipe]:
    """Action A, when the seat can pay: every token back, or all but column ``keep``'s."""
    if state.family or state.seats[seat].thumbs < ed.action_cost:
        return []
    columns = tuple(c for c, t in enumerate(state.market_tokens) if t is not None)
    wipes = [Wipe(seat, columns)] if columns else []
    others = tuple(c for c in columns if c != keep)
    if others and others != columns:
        wipes.append(Wipe(seat, others))
    return wipes


class StrongBot(PlannerBot):
    """A search player at one ``Level`` (see the module docstring)."""

    name = "strong"
    level = LEVELS["strong"]

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.exact_end = self.level.exact_end
        if self.level.learnt_root:
            self.learn()

    def leaf(self, state: GameState, seat: int, ed: Edition) -> float:
        """The seat's home at the horizon: its final score once the game is over."""
        s = state.seats[seat]
        if state.is_over:
            assert state.outcome is not None
            return float(state.outcome.scores[seat])
        if self.level.learnt and not state.family and not state.goals:
            return learnt_value(state, seat, ed)
        stored = PlannerBot.STORED if s.storage else 0.0
        judge = self.level.leaf or self.outlook
        return quick_outlook_value(s.home, s.thumbs, state, ed, judge) + stored

    def rollout(
        self, state: GameState, seat: int, goal: int, ed: Edition, policy: GreedyBot
    ) -> float:
        """Play on by ``policy`` until ``seat`` has had ``goal`` turns; value its home."""
        while not state.is_over and state.seats[seat].turns < goal:
            mover = state.awaiting[0]
            state = apply(state, policy.turn(state, mover))
        return self.leaf(state, seat, ed)

    def turn(self, state: GameState, seat: int) -> Wipe | Turn:
        ed = edition_of(state)
        ranked = self.ranked(state, seat)
        level = self.level
        left = ed.turns_per_player - state.seats[seat].turns  # this turn included
        wide = level.end_candidates if left <= level.end_turns else level.candidates
        moves: list[Wipe | Turn] = [turn for _, _, turn in ranked[:wide]]
        if len(moves) == 1 or left <= 1:
            return moves[0]  # the last turn: nothing is left to search
        best_turn = ranked[0][2]
        if level.proposers:
            moves += self.proposed_turns(state, seat, moves)
        if level.wipes:
            moves += wipe_candidates(state, seat, ed, best_turn.token)
        goal = state.seats[seat].turns + 1 + level.horizon
        totals = self.totals(state, seat, goal, ed, moves, level.worlds)
        best = 0
        for k, total in enumerate(totals):
            if total > totals[best]:
                best = k
        return moves[best]

    def proposed_turns(self, state: GameState, seat: int, moves: list[Wipe | Turn]) -> list[Turn]:
        """The best turn of each proposer's judgement, when not in ``moves`` already."""
        found: list[Turn] = []
        for target in self.level.proposers:
            planner = PlannerBot(self.random.getrandbits(64))
            planner.outlook = target
            turn = planner.ranked(state, seat)[0][2]
            if turn not in moves and turn not in found:
                found.append(turn)
        return found

    def policy(self, seed: int, target: Outlook) -> PlannerBot:
        """The rollouts' planner judging by ``target``."""
        policy = PlannerBot(seed)
        policy.outlook = target
        policy.exact_end = self.level.exact_end
        if self.level.learnt_rollouts:
            policy.learn()
        return policy

    def totals(
        self,
        state: GameState,
        seat: int,
        goal: int,
        ed: Edition,
        moves: list[Wipe | Turn],
        worlds: int,
    ) -> list[float]:
        """Each move's total over ``worlds`` new determinisations, the same for every move."""
        dealt = [determinise(state, self.random) for _ in range(worlds)]
        policy_seeds = [self.random.getrandbits(64) for _ in dealt]
        targets = self.level.targets or (self.outlook,)
        found = []
        for move in moves:
            afters = [apply(world, move) for world in dealt]  # once, whatever the targets
            found.append(
                max(
                    sum(
                        self.rollout(after, seat, goal, ed, self.policy(policy_seed, target))
                        for after, policy_seed in zip(afters, policy_seeds, strict=True)
                    )
                    for target in targets
                )
            )
        return found


def strong_bot(level: str) -> type[StrongBot]:
    """The ``StrongBot`` class playing at ``level``."""
    return type(f"{level.capitalize()}Bot", (StrongBot,), {"name": level, "level": LEVELS[level]})


__all__ = ["LEVELS", "OUTLOOK", "Level", "PlannerBot", "StrongBot", "determinise", "strong_bot"]
