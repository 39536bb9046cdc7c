"""The strong computer player: search over its own turn, an evaluation to the game's end.

For a turn, ``TurnSearch`` (a beam search over the turn's effects) finds the turn whose
board ``Evaluator`` values most, plus Bud points and the Power tracks' future worth.
For a pick, every card in the pool is valued by its best turn this round, with the
Fertility Zone as the clean-up will leave it (exact in solo, where the A.I. drafter's
pick follows fixed rules). With a lookahead budget, the best few cards are also valued
one round further: the next pool is drawn ``samples`` times from the cards the seat
cannot see (determinisations), and the best next turn after this round's is averaged.

It reads only what the seat may see (``determinize``): same view, same decision. Each
decision seeds its own generator from the bot's seed and the moment of the game, so a
decision is reproducible whatever was asked before, and bounded by a count of
simulations, never by a clock.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .bot import Bot
from .determinize import public_supply, sample_pool, unseen_cards, unseen_fertility
from .edition import Edition
from .engine import _clean_up, edition_of, fertility_values
from .evaluation import Evaluator, Outlook, Weights
from .moves import Turn
from .planet import next_sun
from .search import Plan, TurnSearch
from .solo import ai_choice
from .state import GameState


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength: the search budget."""

    name: str
    beam: int  # partial turns kept at each effect of the turn search
    lookahead: int  # cards of the pool also valued one round further (0: none)
    samples: int  # determinisations of the next pool per looked-ahead card
    weights: Weights = field(default_factory=Weights)


LEVELS: dict[str, Level] = {
    "easy": Level(
        "easy",
        beam=1,
        lookahead=0,
        samples=0,
        weights=Weights(future_light=0.0, future_forest=0.0, unseen_fertility=0.0, track=0.0),
    ),
    "medium": Level("medium", beam=1, lookahead=0, samples=0),
    "hard": Level("hard", beam=2, lookahead=0, samples=0),
    "strong": Level("strong", beam=2, lookahead=2, samples=6),
}


def rounds_after(ed: Edition, season: int, round_: int) -> int:
    """Rounds still to play in the game after round ``round_`` of ``season``."""
    played = sum(ed.season_rounds[: season - 1]) + round_
    return sum(ed.season_rounds) - played


class StrongBot(Bot):
    """A search player at one ``Level`` (see the module docstring)."""

    name = "strong"
    level = LEVELS["strong"]

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.seed = seed

    def _generator(self, state: GameState, seat: int) -> random.Random:
        return random.Random(f"{self.seed}:{state.season}:{state.round}:{state.phase.value}:{seat}")

    def _outlook(
        self, state: GameState, seat: int, ed: Edition, fertility: Mapping[str, int]
    ) -> Outlook:
        return Outlook(
            sun=state.sun,
            season=state.season,
            round=state.round,
            rounds_after=rounds_after(ed, state.season, state.round),
            fertility=fertility,
            unseen=unseen_fertility(ed, unseen_cards(state, ed)),
            powers=state.seats[seat].powers,
        )

    def _plan(
        self, state: GameState, seat: int, card_id: str, fertility: Mapping[str, int]
    ) -> Plan:
        ed = edition_of(state)
        me = state.seats[seat]
        evaluator = Evaluator(ed, self._outlook(state, seat, ed, fertility), self.level.weights)
        search = TurnSearch(
            ed,
            evaluator,
            ed.cards[card_id],
            me.powers,
            public_supply(state, seat, ed),
            self.level.beam,
        )
        return search.best(me.board)

    def turn(self, state: GameState, seat: int) -> Turn:
        card = state.seats[seat].card
        assert card is not None
        return self._plan(state, seat, card, fertility_values(state)).turn(seat)

    def _fertility_after_pick(self, state: GameState, seat: int, card: str) -> dict[str, int]:
        """The Fertility values once this round's pool is cleaned up, if ``seat`` takes ``card``.

        In solo the A.I. drafter's pick is fixed by rules, so the card left is known; with
        other players it is not, and the zone is taken as it stands.
        """
        ed = edition_of(state)
        if not state.solo:
            return fertility_values(state, ed)
        left = list(state.pool)
        left.remove(card)
        ai_to_pick = state.picks_done < state.drafters - 1
        if ai_to_pick and left:
            left.remove(ai_choice(left, ed, fertility_values(state, ed)))
        cleaned = _clean_up(replace(state, pool=tuple(left)), ed)
        return fertility_values(cleaned, ed)

    def pick(self, state: GameState, seat: int) -> str:
        cards = list(dict.fromkeys(state.pool))
        plans = {
            c: self._plan(state, seat, c, self._fertility_after_pick(state, seat, c)) for c in cards
        }
        ranked = sorted(cards, key=lambda c: -plans[c].value)
        level = self.level
        if level.lookahead and level.samples and len(ranked) > 1:
            # Only the best few are looked at further, and re-ranked among themselves.
            top = ranked[: level.lookahead]
            values = {c: self._look_ahead(state, seat, c, plans[c]) for c in top}
            ranked = sorted(top, key=lambda c: -values[c]) + ranked[len(top) :]
        return ranked[0]

    def _look_ahead(self, state: GameState, seat: int, card: str, plan: Plan) -> float:
        """The mean value of the best next turn over determinised next pools."""
        ed = edition_of(state)
        chooser = self._generator(state, seat)
        unseen = unseen_cards(state, ed)
        season, round_, sun = state.season, state.round + 1, state.sun
        if state.round >= ed.season_rounds[state.season - 1]:
            if state.season >= ed.seasons:
                return plan.value
            season, round_, sun = state.season + 1, 1, next_sun(state.sun)
        fertility = self._fertility_after_pick(state, seat, card)
        outlook = Outlook(
            sun=sun,
            season=season,
            round=round_,
            rounds_after=rounds_after(ed, season, round_),
            fertility=fertility,
            unseen=unseen_fertility(ed, unseen),
            powers=plan.powers,
        )
        evaluator = Evaluator(ed, outlook, self.level.weights)
        supply = public_supply(state, seat, ed)
        size = ed.solo_pool if state.solo else state.drafters + 1
        total = 0.0
        for _ in range(self.level.samples):
            pool = sample_pool(unseen, size, chooser)
            if not pool:
                return plan.value
            best = max(
                TurnSearch(ed, evaluator, ed.cards[c], plan.powers, supply, 1)
                .best(plan.board)
                .value
                for c in pool
            )
            total += best
        return plan.bud + total / self.level.samples


def strong_bot(level: str) -> type[StrongBot]:
    """The ``StrongBot`` class playing at ``level``."""
    return type(f"{level.capitalize()}Bot", (StrongBot,), {"name": level, "level": LEVELS[level]})


__all__ = ["LEVELS", "Level", "StrongBot", "rounds_after", "strong_bot"]
