"""Turn search for the strong player: a beam search over the effects of one turn.

A turn is a sequence of slots: the Power's applications, wholly before or after the
Action's effects (a Lake is placed together with its best adjacent growths, since a
Lake alone is worth nothing). ``TurnSearch.best`` tries every Action with the Power
before and after it, and fills the slots one by one, keeping the ``beam`` best partial
turns (distinct boards) by ``Evaluator.value``; every slot may also be left unused ("up
to" in every Action and Power). With a beam of 1 it is a greedy search. Ties go to the
first candidate found, so the search is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .edition import Card, Edition
from .evaluation import Evaluator
from .moves import ACTIONS, Effect, LakePlacement, PowerUse, Target, Turn
from .pieces import BUSH, EMPTY, GROWS_INTO, LAKE, SMALL, SPROUT
from .planet import WILD
from .turns import POWER_INDEX

ACTION_SLOTS: dict[str, tuple[str, ...]] = {
    "A": ("plant", "plant", "plant"),
    "B": ("grow", "grow"),
    "C": ("plant", "grow"),
    "D": ("any",),
}


@dataclass(frozen=True, slots=True)
class Plan:
    """A searched turn: its value, the board after it and the move itself."""

    value: float
    board: tuple[int, ...]
    action: str
    effects: tuple[Effect, ...]
    power: PowerUse | None
    powers: tuple[int, ...]
    bud: int

    def turn(self, seat: int) -> Turn:
        return Turn(seat, self.action, self.effects, self.power)


@dataclass(slots=True)
class _Node:
    board: list[int]
    value: float
    effects: tuple[Effect, ...] = ()
    targets: tuple[Target, ...] = ()
    used: frozenset[int] = frozenset()  # spaces the Action has used
    lake: int = -1  # the last Lake placed (its growths follow it), -1 when none
    bushes: int = 0
    lakes: int = 0


class TurnSearch:
    """Searches the turns of one seat holding one card (see the module docstring)."""

    def __init__(
        self,
        ed: Edition,
        evaluator: Evaluator,
        card: Card,
        powers: tuple[int, ...],
        supply: tuple[int, int],
        beam: int,
    ) -> None:
        self.ed = ed
        self.planet = ed.planet
        self.evaluator = evaluator
        self.card = card
        self.supply = supply
        self.beam = max(1, beam)
        k = POWER_INDEX[card.power]
        levels = ed.power_levels[card.power]
        position = min(powers[k] + 1, len(levels))
        self.level = levels[position - 1]
        self.powers_after = (*powers[:k], position, *powers[k + 1 :])
        self.powers_before = powers

    def _power_slots(self) -> tuple[str, ...]:
        power = self.card.power
        if power == "bud":
            return ()
        if power == "lake":
            return ("lake",) * self.level
        return (power,) * self.level

    def _options(self, node: _Node, slot: str, action: str) -> list[tuple[str, int]]:
        """(kind, space) pairs that may fill ``slot`` after ``node``."""
        board, planet = node.board, self.planet
        if slot in ("plant", "grow", "any"):
            anywhere = self.card.suit == WILD or action == "D"
            spaces = planet.playable if anywhere else planet.biome_spaces[self.card.suit]
            used = node.used
            found: list[tuple[str, int]] = []
            for i in spaces:
                if i in used:
                    continue
                piece = board[i]
                if piece == EMPTY and slot != "grow":
                    found.append(("plant", i))
                elif piece in GROWS_INTO and slot != "plant":
                    found.append(("grow", i))
            return found
        if slot in ("sprout", "bush", "lake"):
            if slot == "bush" and node.bushes >= self.supply[0]:
                return []
            if slot == "lake" and node.lakes >= self.supply[1]:
                return []
            return [(slot, i) for i in planet.playable if board[i] == EMPTY]
        if slot == "small":
            return [(slot, i) for i in planet.playable if board[i] == SPROUT]
        return [(slot, i) for i in planet.playable if board[i] == SMALL]  # big

    def _child(self, node: _Node, kind: str, i: int, value: float) -> _Node:
        board = list(node.board)
        space = self.planet.space(i)
        effects, targets, used = node.effects, node.targets, node.used
        lake, bushes, lakes = node.lake, node.bushes, node.lakes
        if kind == "plant":
            board[i] = SPROUT
            effects, used = (*effects, Effect("plant", space)), used | {i}
        elif kind == "grow":
            board[i] = GROWS_INTO[board[i]]
            effects, used = (*effects, Effect("grow", space)), used | {i}
        elif kind == "sprout":
            board[i] = SPROUT
            targets = (*targets, space)
        elif kind == "bush":
            board[i] = BUSH
            targets, bushes = (*targets, space), bushes + 1
        elif kind in ("small", "big"):
            board[i] = GROWS_INTO[board[i]]
            targets = (*targets, space)
        elif kind == "lake":
            board[i] = LAKE
            targets, lake, lakes = (*targets, LakePlacement(space)), i, lakes + 1
        else:  # lake_grow
            board[i] = GROWS_INTO[board[i]]
            last = targets[-1]
            assert isinstance(last, LakePlacement)
            targets = (*targets[:-1], LakePlacement(last.lake, (*last.grow, space)))
        return _Node(board, value, effects, targets, used, lake, bushes, lakes)

    @staticmethod
    def _apply(board: list[int], kind: str, i: int) -> int:
        """Put the effect on ``board`` in place; return the piece it replaced."""
        old = board[i]
        if kind in ("plant", "sprout"):
            board[i] = SPROUT
        elif kind == "bush":
            board[i] = BUSH
        elif kind == "lake":
            board[i] = LAKE
        else:
            board[i] = GROWS_INTO[old]
        return old

    def _lake_growths(self, board: list[int], lake: int) -> tuple[float, tuple[int, ...]]:
        """With a Lake at ``lake`` on ``board``, its best growths (greedy, up to two)."""
        value = self.evaluator.value
        best_value = value(board)
        grown: list[int] = []
        for _ in range(2):
            best = -1
            for j in self.planet.neighbours[lake]:
                old = board[j]
                if old not in GROWS_INTO or j in grown:
                    continue
                board[j] = GROWS_INTO[old]
                v = value(board)
                board[j] = old
                if v > best_value + 1e-9:
                    best, best_value = j, v
            if best < 0:
                break
            board[best] = GROWS_INTO[board[best]]
            grown.append(best)
        for j in reversed(grown):
            board[j] = SPROUT if board[j] == SMALL else SMALL
        return best_value, tuple(grown)

    def _fill(self, nodes: list[_Node], slot: str, action: str) -> list[_Node]:
        value = self.evaluator.value
        scored: list[tuple[float, int, _Node, str, int, tuple[int, ...]]] = []
        order = 0
        for node in nodes:
            scored.append((node.value, order, node, "", -1, ()))  # leave the slot unused
            order += 1
            board = node.board
            for kind, i in self._options(node, slot, action):
                old = self._apply(board, kind, i)
                if kind == "lake":
                    v, grown = self._lake_growths(board, i)
                else:
                    v, grown = value(board), ()
                scored.append((v, order, node, kind, i, grown))
                board[i] = old
                order += 1
        scored.sort(key=lambda item: (-item[0], item[1]))
        kept: list[_Node] = []
        seen: set[tuple[int, ...]] = set()
        for v, _, node, kind, i, grown in scored:
            child = node
            if kind:
                child = self._child(node, kind, i, v)
                for j in grown:
                    child = self._child(child, "lake_grow", j, v)
            key = tuple(child.board)
            if key in seen:
                continue
            seen.add(key)
            kept.append(child)
            if len(kept) >= self.beam:
                break
        return kept

    def _run(self, board: Sequence[int], action: str, timing: str) -> _Node:
        start = list(board)
        nodes = [_Node(start, self.evaluator.value(start))]
        power_slots = self._power_slots()
        slots = (
            (*power_slots, *ACTION_SLOTS[action])
            if timing == "before"
            else (*ACTION_SLOTS[action], *power_slots)
        )
        for slot in slots:
            nodes = self._fill(nodes, slot, action)
        return nodes[0]

    def best(self, board: Sequence[int]) -> Plan:
        """The best turn from ``board`` with this card, by the evaluator plus Bud and tracks."""
        bud_power = self.card.power == "bud"
        bud = self.level if bud_power else 0
        track_used = self.evaluator.track_value(self.powers_after)
        track_unused = self.evaluator.track_value(self.powers_before)
        timings = ("after",) if bud_power or self.card.power == "bush" else ("before", "after")
        best: Plan | None = None
        for action in ACTIONS:
            for timing in timings:
                node = self._run(board, action, timing)
                if bud_power:
                    power: PowerUse | None = PowerUse("bud", timing, ())
                elif node.targets:
                    power = PowerUse(self.card.power, timing, node.targets)
                else:
                    power = None
                track = track_used if power is not None else track_unused
                total = node.value + bud + track
                if best is None or total > best.value + 1e-9:
                    best = Plan(
                        total,
                        tuple(node.board),
                        action,
                        node.effects,
                        power,
                        self.powers_after if power is not None else self.powers_before,
                        bud,
                    )
        assert best is not None
        return best
