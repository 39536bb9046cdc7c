"""The strong player's evaluation: what a board is worth by the end of the game.

A board persists to the end, so a tree placed now scores Light in every season still to
come (with that season's Sun), counts in every later Biggest Forest and, if Big, scores
its biome's Fertility at the end. ``Evaluator.value`` therefore adds, for the board as
it stands after a turn:

* Light with each remaining season's Sun (the current season in full, later ones
  weighted by ``Weights.future_light``: later growth will shade some of it);
* the Biggest Forest once per remaining season end (later ones weighted);
* Big Trees times the Fertility expected at the end (the Fertility visible now plus a
  share of the icons still unseen, scaled by the drafts left);
* the growth still to come: Sprouts and Small Trees are worth part of what they become,
  less so as the rounds run out (nothing on the last turn, where the value is exact);
* the Power tracks' future value (``track_value``): a higher level gives more effects
  each later use. Its weight is 0 by default: every weight tried measured no better.

Everything it reads is public to the seat (``Outlook``, built by ``strong`` from the view),
and it is pure: no clock, no global generator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from operator import itemgetter

from .edition import POWERS, Edition
from .pieces import BIG, SMALL
from .planet import BIOMES, SUNS, Planet
from .scoring import biggest_forest

# Expected points of one more application of each Power, used for the tracks' value.
EFFECT_WORTH: dict[str, float] = {
    "sprout": 0.8,
    "small": 1.3,
    "big": 2.5,
    "bush": 1.3,
    "lake": 2.5,
    "bud": 1.0,
}


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's tunable coefficients (defaults: the strong player's)."""

    future_light: float = 0.85  # a later season's Light from today's board
    future_forest: float = 0.9  # a later season's Biggest Forest from today's board
    sprout: float = 1.0  # a Sprout that can still grow, before its biome's Fertility
    sprout_fertility: float = 0.3  # ... times its biome's expected Fertility
    small_fertility: float = 0.55  # a Small Tree's share of becoming a Big one
    unseen_fertility: float = 0.5  # share of the unseen icons expected to reach the zone
    track: float = 0.0  # scale of the Power tracks' future value (0: measured best)
    horizon: int = 4  # rounds after which the growth still to come counts in full
    second_forest: float = 0.0  # the second Forest, which may still join the biggest
    first_player: float = (
        0.0  # holding the First Player token next round (solo: 3 cards to choose from)
    )


Shadow = tuple[int, int, int, int]  # small and big shadow lengths, small and big points
LineTable = dict[tuple[int, ...], float]


@cache
def _line_light_table(
    small_len: int, big_len: int, small_pts: int, big_pts: int
) -> dict[tuple[int, ...], int]:
    """The memo of ``line_light`` for one edition's trees."""
    return {}


@cache
def _weighted_table(shadow: Shadow, forward: float, backward: float) -> LineTable:
    """The memo of ``_weighted_light`` for one pair of weights."""
    return {}


def _weighted_light(
    table: dict[tuple[int, ...], int],
    shadow: Shadow,
    forward: float,
    backward: float,
    line: tuple[int, ...],
) -> float:
    """A line's Light with the Sun before it (``forward``) and after it (``backward``)."""
    value = 0.0
    if forward:
        value += forward * line_light(line, table, shadow)
    if backward:
        value += backward * line_light(line[::-1], table, shadow)
    return value


def line_light(line: tuple[int, ...], table: dict[tuple[int, ...], int], shadow: Shadow) -> int:
    """Light points of one line of pieces, the Sun before its first element (memoised)."""
    found = table.get(line)
    if found is not None:
        return found
    small_len, big_len, small_pts, big_pts = shadow
    total = rem_small = rem_big = 0
    for piece in line:
        if piece == SMALL:
            if not (rem_small or rem_big):
                total += small_pts
            if rem_big:
                rem_big -= 1
            rem_small = small_len
        elif piece == BIG:
            if not rem_big:
                total += big_pts
            rem_big = big_len
            if rem_small:
                rem_small -= 1
        else:
            if rem_small:
                rem_small -= 1
            if rem_big:
                rem_big -= 1
    table[line] = total
    return total


@dataclass(frozen=True, slots=True)
class Outlook:
    """What the seat knows of the game's future at a decision, all from its view."""

    sun: str
    season: int
    rounds_after: int  # rounds still to play after this one, in the whole game
    fertility: Mapping[str, int]  # visible now (after this round's clean-up if known)
    unseen: Mapping[str, float]  # per biome: net icons among cards not yet seen, per card


def _line_getter(line: tuple[int, ...]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A function reading the pieces of ``line`` from a board, as a tuple."""
    if len(line) == 1:
        (only,) = line
        return lambda board: (board[only],)
    return itemgetter(*line)


def remaining_suns(ed: Edition, sun: str, season: int) -> list[str]:
    """The Sun of this season and of each later one, in order."""
    start = SUNS.index(sun)
    return [SUNS[(start + k) % 4] for k in range(ed.seasons - season + 1)]


class Evaluator:
    """Values boards of one seat at one decision (see the module docstring)."""

    def __init__(self, ed: Edition, outlook: Outlook, weights: Weights) -> None:
        self.ed = ed
        self.planet: Planet = ed.planet
        self.weights = weights
        shadow = (ed.shadow["small"], ed.shadow["big"], ed.light["small"], ed.light["big"])
        self.shadow = shadow
        self.table = _line_light_table(*shadow)
        suns = remaining_suns(ed, outlook.sun, outlook.season)
        sun_weight = dict.fromkeys(SUNS, 0.0)
        for k, s in enumerate(suns):
            sun_weight[s] = 1.0 if k == 0 else weights.future_light
        self.sun_weight = sun_weight
        self.forest_weight = 1.0 + weights.future_forest * (len(suns) - 1)
        planet = self.planet
        self.rows = [
            tuple(range(r * planet.cols, (r + 1) * planet.cols)) for r in range(planet.rows)
        ]
        self.cols = [tuple(range(c, planet.size, planet.cols)) for c in range(planet.cols)]
        drafts_left = outlook.rounds_after
        self.final_fertility = {
            b: max(
                0.0,
                outlook.fertility.get(b, 0)
                + weights.unseen_fertility * drafts_left * outlook.unseen.get(b, 0.0),
            )
            for b in BIOMES
        }
        growth = min(1.0, outlook.rounds_after / max(1, weights.horizon))
        self.big_value = [0.0] * planet.size
        self.sprout_value = [0.0] * planet.size
        self.small_value = [0.0] * planet.size
        for i in planet.playable:
            f = self.final_fertility[str(planet.biomes[i])]
            self.big_value[i] = f
            self.sprout_value[i] = growth * (weights.sprout + weights.sprout_fertility * f)
            self.small_value[i] = growth * weights.small_fertility * f
        self.rounds_after = outlook.rounds_after
        # Per space, what each piece code there is worth beyond Light and Forest.
        self.worth = [
            (0.0, self.sprout_value[i], self.small_value[i], self.big_value[i], 0.0, 0.0)
            for i in range(planet.size)
        ]
        # Rows carry the Light of Suns W (forwards) and E (backwards), columns N and S;
        # a line's weighted Light is memoised per pair of weights.
        self.line_kinds = []
        for lines, forward, backward in ((self.rows, "W", "E"), (self.cols, "N", "S")):
            w_fwd, w_back = sun_weight[forward], sun_weight[backward]
            if w_fwd or w_back:
                table = _weighted_table(shadow, w_fwd, w_back)
                self.line_kinds.append(
                    (
                        [_line_getter(line) for line in lines],
                        table,
                        partial(_weighted_light, self.table, shadow, w_fwd, w_back),
                    )
                )

    def light(self, board: Sequence[int]) -> float:
        """Light of the board under every remaining Sun, weighted (see ``Weights``)."""
        total = 0.0
        for getters, table, weighted in self.line_kinds:
            for get in getters:
                line = get(board)
                found = table.get(line)
                if found is None:
                    found = table[line] = weighted(line)
                total += found
        return total

    def value(self, board: Sequence[int]) -> float:
        """The board's expected worth from now to the end of the game (see module doc)."""
        value = self.light(board) + self.forest_weight * biggest_forest(self.planet, board)
        return value + sum([worth[piece] for worth, piece in zip(self.worth, board, strict=True)])

    def track_value(self, powers: Sequence[int]) -> float:
        """The future worth of the Power tracks at ``powers`` for the rounds still to come."""
        if not self.rounds_after:
            return 0.0
        uses = self.rounds_after / len(POWERS)
        total = 0.0
        for k, power in enumerate(POWERS):
            total += self.ed.power_value(power, powers[k]) * EFFECT_WORTH[power]
        return self.weights.track * uses * total
