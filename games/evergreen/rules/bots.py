"""Computer players: ``RandomBot`` (any legal move), ``GreedyBot`` and, by name, the
levels of the search player (``games.evergreen.rules.strong``).

A bot is given a state and a seat and returns a legal move for that seat. Each bot owns
a ``random.Random`` seeded by its creator, so a game between bots is reproducible and
the global generator is never touched.

The greedy bot values a board by what the coming scoring would give it: Light with the
Sun of the season being played, the Biggest Forest, the Big Trees times the Fertility
visible now, plus small rewards for the growth still to come. It builds each candidate
turn one effect at a time, always taking the best next effect, tries every Action with
the Power before and after it, and picks the card whose best turn is worth most.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .bot import Bot
from .edition import Card, Edition
from .engine import edition_of, fertility_values
from .moves import ACTIONS, Effect, LakePlacement, Move, PowerUse, Target, Turn
from .pieces import BIG, BUSH, EMPTY, GROWS_INTO, LAKE, SMALL, SPROUT
from .planet import WILD, Planet
from .scoring import biggest_forest, light_score
from .state import GameState
from .strong import LEVELS, strong_bot
from .targets import grow_targets, plant_targets
from .turns import POWER_INDEX

Chooser = Callable[[list[int], list[int]], int | None]


@dataclass
class _Context:
    edition: Edition
    planet: Planet
    card: Card
    level: int
    supply: tuple[int, int]


def _context(state: GameState, seat: int, card_id: str) -> _Context:
    ed = edition_of(state)
    card = ed.cards[card_id]
    levels = ed.power_levels[card.power]
    position = min(state.seats[seat].powers[POWER_INDEX[card.power]] + 1, len(levels))
    return _Context(ed, ed.planet, card, levels[position - 1], state.supply)


def _build_action(board: list[int], ctx: _Context, action: str, choose: Chooser) -> list[Effect]:
    """Apply the effects of ``action`` to ``board`` one by one, as ``choose`` decides."""
    planet = ctx.planet
    biome = None if ctx.card.suit == WILD or action == "D" else ctx.card.suit
    plan = {"A": ["plant"] * 3, "B": ["grow", "grow"], "C": ["plant", "grow"], "D": ["any"]}[action]
    effects: list[Effect] = []
    used: set[int] = set()
    for kind in plan:
        plants = [i for i in plant_targets(planet, board, biome) if i not in used]
        grows = [i for i in grow_targets(planet, board, biome) if i not in used]
        if kind == "plant":
            grows = []
        elif kind == "grow":
            plants = []
        target = choose(plants, grows)
        if target is None:
            continue
        if board[target] == EMPTY:
            board[target] = SPROUT
            effects.append(Effect("plant", planet.space(target)))
        else:
            board[target] = GROWS_INTO[board[target]]
            effects.append(Effect("grow", planet.space(target)))
        used.add(target)
    return effects


def _build_power(
    board: list[int], ctx: _Context, timing: str, choose: Chooser
) -> tuple[PowerUse | None, int]:
    """Apply the card's Power to ``board`` as ``choose`` decides; return (use, Bud points)."""
    planet, power = ctx.planet, ctx.card.power
    if power == "bud":
        return PowerUse("bud", timing, ()), ctx.level
    targets: list[Target] = []
    bushes, lakes = ctx.supply
    for _ in range(ctx.level):
        if power in ("sprout", "bush", "lake"):
            if (power == "bush" and bushes <= 0) or (power == "lake" and lakes <= 0):
                break
            target = choose(plant_targets(planet, board, None), [])
        elif power == "small":
            target = choose([], [i for i in planet.playable if board[i] == SPROUT])
        else:
            target = choose([], [i for i in planet.playable if board[i] == SMALL])
        if target is None:
            break
        space = planet.space(target)
        if power == "sprout":
            board[target] = SPROUT
            targets.append(space)
        elif power == "bush":
            board[target] = BUSH
            bushes -= 1
            targets.append(space)
        elif power == "lake":
            board[target] = LAKE
            lakes -= 1
            grown: list[int] = []
            for _growth in range(2):
                near = [
                    j
                    for j in planet.neighbours[target]
                    if board[j] in GROWS_INTO and j not in grown
                ]
                pick = choose([], near)
                if pick is None:
                    break
                board[pick] = GROWS_INTO[board[pick]]
                grown.append(pick)
            targets.append(LakePlacement(space, tuple(planet.space(j) for j in grown)))
        else:
            board[target] = GROWS_INTO[board[target]]
            targets.append(space)
    if not targets:
        return None, 0
    return PowerUse(power, timing, tuple(targets)), 0


class RandomBot(Bot):
    """Picks any card and plays a random legal turn (usually using its effects)."""

    name = "random"

    def pick(self, state: GameState, seat: int) -> str:
        return self.random.choice(state.pool)

    def _choose(self, plants: list[int], grows: list[int]) -> int | None:
        options = plants + grows
        if not options or self.random.random() < 0.1:
            return None
        return self.random.choice(options)

    def turn(self, state: GameState, seat: int) -> Turn:
        seat_state = state.seats[seat]
        assert seat_state.card is not None
        ctx = _context(state, seat, seat_state.card)
        board = list(seat_state.board)
        action = self.random.choice(ACTIONS)
        timing = self.random.choice(("before", "after", "after", None))
        power, effects = None, []
        if timing == "before":
            power, _ = _build_power(board, ctx, timing, self._choose)
        effects = _build_action(board, ctx, action, self._choose)
        if timing == "after":
            power, _ = _build_power(board, ctx, timing, self._choose)
        return Turn(seat, action, tuple(effects), power)


def evaluate(
    board: Sequence[int], planet: Planet, ed: Edition, sun: str, fertility: dict[str, int]
) -> float:
    """The greedy bot's value of a board: the coming scoring plus growth still to come."""
    value = float(light_score(planet, board, sun, ed) + biggest_forest(planet, board))
    biomes = planet.biomes
    for i in planet.playable:
        piece = board[i]
        if piece == SPROUT:
            value += 0.6
        elif piece == SMALL:
            value += 0.9
        elif piece == BIG:
            value += 1.2 + fertility.get(str(biomes[i]), 0)
    return value


class GreedyBot(Bot):
    """Takes, effect by effect, whatever most improves ``evaluate``; see the module doc."""

    name = "greedy"

    def _best_turn(self, state: GameState, seat: int, card_id: str) -> tuple[float, Turn]:
        ctx = _context(state, seat, card_id)
        planet, ed = ctx.planet, ctx.edition
        fertility = fertility_values(state, ed)
        base = state.seats[seat].board

        def choose_for(board: list[int]) -> Chooser:
            def choose(plants: list[int], grows: list[int]) -> int | None:
                best, best_value = None, evaluate(board, planet, ed, state.sun, fertility) + 1e-9
                for i in plants + grows:
                    old = board[i]
                    board[i] = SPROUT if old == EMPTY else GROWS_INTO[old]
                    value = evaluate(board, planet, ed, state.sun, fertility)
                    if value > best_value or (value == best_value and best is not None):
                        best, best_value = i, value
                    board[i] = old
                return best

            return choose

        best: tuple[float, Turn] | None = None
        for action in ACTIONS:
            for timing in ("before", "after"):
                board = list(base)
                choose = choose_for(board)
                power, bud = None, 0
                if timing == "before":
                    power, bud = _build_power(board, ctx, timing, choose)
                effects = _build_action(board, ctx, action, choose)
                if timing == "after":
                    power, bud = _build_power(board, ctx, timing, choose)
                value = evaluate(board, planet, ed, state.sun, fertility) + bud
                if best is None or value > best[0]:
                    best = (value, Turn(seat, action, tuple(effects), power))
        assert best is not None
        return best

    def pick(self, state: GameState, seat: int) -> str:
        scored = [
            (self._best_turn_for_pick(state, seat, c), -k, c) for k, c in enumerate(state.pool)
        ]
        return max(scored)[2]

    def _best_turn_for_pick(self, state: GameState, seat: int, card_id: str) -> float:
        value = self._best_turn(state, seat, card_id)[0]
        ed = edition_of(state)
        card = ed.cards[card_id]
        # Leaving a Fertility card for the zone helps everyone; taking it keeps it out.
        return value + 0.01 * card.fertility + self.random.random() * 1e-6

    def turn(self, state: GameState, seat: int) -> Turn:
        seat_state = state.seats[seat]
        assert seat_state.card is not None
        return self._best_turn(state, seat, seat_state.card)[1]


# The search player's levels, weakest first: ``strong`` is the strongest.
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    **{level: strong_bot(level) for level in LEVELS},
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``greedy`` or a level of the search player:
    ``easy``, ``medium``, ``hard``, ``strong``); raises ``ValueError`` for another name."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None


def play_game(state: GameState, bots: Sequence[Bot]) -> tuple[GameState, list[Move]]:
    """Let ``bots`` (one per seat) play ``state`` to the end; return the final state and moves."""
    from .engine import apply

    moves: list[Move] = []
    while not state.is_over:
        seat = state.awaiting[0]
        move = bots[seat].choose(state, seat)
        state = apply(state, move)
        moves.append(move)
    return state, moves
