"""The strong computer player: search over its own turn, an evaluation to the game's end.

For a turn, ``TurnSearch`` (a beam search over the turn's effects) finds the turn whose
board ``Evaluator`` values most, plus Bud points and the Power tracks' future worth.
For a pick, every card in the pool is valued by its best turn this round, with the
Fertility Zone as the clean-up will leave it (exact in solo, where the A.I. drafter's
pick follows fixed rules). The Fertility still to come is expected from the cards the
seat cannot see (``determinize``), never from the deck's order.

It reads only what the seat may see: same view, same decision. It draws no random
number: ties go to the first candidate, so a decision depends on the position alone,
and its work is bounded by the beam (a count of boards evaluated), never by a clock.
A one-round lookahead over sampled next pools (determinisations) was tried and
measured weaker at every budget; see ``docs/evergreen-strong-player.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .bot import Bot
from .determinize import public_supply, unseen_cards, unseen_fertility
from .edition import Edition
from .engine import apply, edition_of, fertility_values
from .evaluation import Evaluator, Outlook, Weights
from .moves import Pick, Turn
from .search import Plan, TurnSearch
from .state import GameState


@dataclass(frozen=True, slots=True)
class Level:
    """A playing strength: the search budget."""

    name: str
    beam: int  # partial turns kept at each effect of the turn search
    weights: Weights = field(default_factory=Weights)


# ``easy`` sees only the season being played (as the greedy bot does) and keeps one
# partial turn; the others see the whole game and keep 1, 2 and 3.
LEVELS: dict[str, Level] = {
    "easy": Level(
        "easy", beam=1, weights=Weights(future_light=0.0, future_forest=0.0, unseen_fertility=0.0)
    ),
    "medium": Level("medium", beam=1),
    "hard": Level("hard", beam=2),
    "strong": Level("strong", beam=3),
}


def rounds_after(ed: Edition, season: int, round_: int) -> int:
    """Rounds still to play in the game after round ``round_`` of ``season``."""
    played = sum(ed.season_rounds[: season - 1]) + round_
    return sum(ed.season_rounds) - played


class StrongBot(Bot):
    """A search player at one ``Level`` (see the module docstring)."""

    name = "strong"
    level = LEVELS["strong"]

    def _outlook(
        self, state: GameState, seat: int, ed: Edition, fertility: Mapping[str, int]
    ) -> Outlook:
        return Outlook(
            sun=state.sun,
            season=state.season,
            rounds_after=rounds_after(ed, state.season, state.round),
            fertility=fertility,
            unseen=unseen_fertility(ed, unseen_cards(state, ed)),
        )

    def evaluator(self, state: GameState, seat: int, fertility: Mapping[str, int]) -> Evaluator:
        """How ``seat`` values boards at this decision (the Fertility Zone as ``fertility``)."""
        ed = edition_of(state)
        return Evaluator(ed, self._outlook(state, seat, ed, fertility), self.level.weights)

    def _plan(
        self, state: GameState, seat: int, card_id: str, fertility: Mapping[str, int]
    ) -> Plan:
        ed = edition_of(state)
        me = state.seats[seat]
        evaluator = self.evaluator(state, seat, fertility)
        search = TurnSearch(
            ed,
            evaluator,
            ed.cards[card_id],
            me.powers,
            public_supply(state, seat, ed),
            self.level.beam,
        )
        return search.best(me.board)

    def turn_plan(self, state: GameState, seat: int) -> Plan:
        """The best turn for ``seat``'s card, with its value (expected points to the end)."""
        card = state.seats[seat].card
        assert card is not None
        return self._plan(state, seat, card, fertility_values(state))

    def turn(self, state: GameState, seat: int) -> Turn:
        return self.turn_plan(state, seat).turn(seat)

    def _fertility_after_pick(self, state: GameState, seat: int, card: str) -> dict[str, int]:
        """The Fertility values once this round's pool is cleaned up, if ``seat`` takes ``card``.

        In solo the A.I. drafter's pick follows fixed rules, so the rest of the Draft is
        known (playing it draws no card); with other players it is not, and the zone is
        taken as it stands.
        """
        ed = edition_of(state)
        if not state.solo:
            return fertility_values(state, ed)
        return fertility_values(apply(state, Pick(seat, card)), ed)

    def pick_values(self, state: GameState, seat: int) -> dict[str, float]:
        """Each card of the pool (leftmost first) valued by its best turn this round."""
        return {
            card: self._plan(state, seat, card, self._fertility_after_pick(state, seat, card)).value
            for card in dict.fromkeys(state.pool)
        }

    def pick(self, state: GameState, seat: int) -> str:
        values = self.pick_values(state, seat)
        return max(values, key=lambda card: values[card])  # ties: the leftmost


def strong_bot(level: str) -> type[StrongBot]:
    """The ``StrongBot`` class playing at ``level``."""
    return type(f"{level.capitalize()}Bot", (StrongBot,), {"name": level, "level": LEVELS[level]})


__all__ = ["LEVELS", "Level", "StrongBot", "rounds_after", "strong_bot"]
