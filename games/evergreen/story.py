"""Evergreen's game log: the whole game in rounds, in plain words (``GameKind.story``).

It is the recap of "your move" mails told from the first move (``recap.steps``,
``recap.events``, ``recap.describe``): the same replay of the Move rows, the same views of
one seat, the same sentences. What the log adds is what each player did in a round once
it is revealed: until the reveal a turn is "X planned their turn", as in the recap; after
it, the card, the Action and the Power of every turn of that round. A round's turns are
only told after the step that revealed it, and that step is only taken when the game's
snapshot took it too, so no unrevealed turn is ever told; the views hide the deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.kinds import Chapter, StoryLine, StoryOn

from . import recap, rules
from .cards import card_info
from .cardsvg import card_thumbnail
from .records import describe_move
from .rules.edition import Edition
from .rules.record import GameRecord
from .rules.view import player_view
from .words import BIOME_NAMES, season_name

ICONS = {
    "pick": "pick",
    "ai_pick": "pick",
    "turn": "turn",
    "leftover": "spare",
    "revealed": "round",
    "new_round": "round",
    "season": "season",
    "game_over": "end",
}
# describe() says "taken for you" to the recap's reader; the log names everyone.
NOBODY = -1


def _effects(turn: rules.Turn, edition: Edition, card: str | None) -> str:
    plants = sum(1 for e in turn.effects if e.kind == "plant")
    grows = len(turn.effects) - plants
    done = []
    if plants:
        done.append(
            ngettext("planted %(count)s Sprout", "planted %(count)s Sprouts", plants)
            % {"count": plants}
        )
    if grows:
        done.append(
            ngettext("grew %(count)s plant", "grew %(count)s plants", grows) % {"count": grows}
        )
    if not done:
        return _("Action %(action)s: nothing done") % {"action": turn.action}
    text = _(" and ").join(done)
    suit = edition.cards[card].suit if card in edition.cards else None
    if turn.action != "D" and suit is not None and suit in BIOME_NAMES and suit != "wild":
        text = _("%(done)s in %(biome)s") % {"done": text, "biome": BIOME_NAMES[suit]}
    return _("Action %(action)s: %(done)s") % {"action": turn.action, "done": text}


def _power(use: rules.PowerUse) -> str:
    count = len(use.targets)
    if use.power == "sprout":
        what = ngettext("%(count)s Sprout", "%(count)s Sprouts", count)
    elif use.power == "small":
        what = ngettext("%(count)s Small Tree", "%(count)s Small Trees", count)
    elif use.power == "big":
        what = ngettext("%(count)s Big Tree", "%(count)s Big Trees", count)
    elif use.power == "bush":
        what = ngettext("%(count)s Bush", "%(count)s Bushes", count)
    elif use.power == "lake":
        what = ngettext("%(count)s Lake", "%(count)s Lakes", count)
    else:
        return _("Power: Bud points")
    return _("Power: %(what)s") % {"what": what % {"count": count}}


def turn_sentence(
    turn: rules.Turn, card: str | None, names: Sequence[str], edition: Edition
) -> str:
    """A revealed turn: "Rowan took Grassland (Plant Bush); Action B: grew 2 plants in
    Grassland; Power: 2 Bushes"."""
    name = names[turn.seat] if 0 <= turn.seat < len(names) else "?"
    parts = [
        _("%(name)s took %(card)s") % {"name": name, "card": recap.card_name(edition, card)}
        if card
        else name,
        _effects(turn, edition, card),
    ]
    if turn.power is not None:
        parts.append(_power(turn.power))
    return "; ".join(parts)


def _title(view: dict[str, Any]) -> str:
    return _("%(season)s, round %(round)s") % {
        "season": season_name(view["season"]),
        "round": view["round"],
    }


class _Teller:
    """Collects the lines of the round being told, then closes it as a ``Chapter``."""

    def __init__(self, names: Sequence[str], edition: Edition) -> None:
        self.names, self.edition = names, edition
        self.chapters: list[Chapter] = []
        self.start("")

    def start(self, title: str) -> None:
        self.title = title
        self.lines: list[StoryLine] = []
        self.cards: dict[int, str] = {}
        self.turns: list[rules.Turn] = []
        self.scored = ""

    def saved(self) -> dict[str, Any]:
        """What the telling of the open round has gathered so far, as values (copies:
        telling goes on); the chapters closed before are kept apart (``StoryOn.final``)."""
        return {
            "title": self.title,
            "lines": list(self.lines),
            "cards": dict(self.cards),
            "turns": list(self.turns),
            "scored": self.scored,
        }

    def restore(self, saved: dict[str, Any]) -> None:
        self.title, self.scored = saved["title"], saved["scored"]
        self.lines, self.turns = list(saved["lines"]), list(saved["turns"])
        self.cards = dict(saved["cards"])

    def picture(self, card: str | None) -> str:
        """The small card beside a line that names ``card`` (none for an unknown one)."""
        if not card or card not in self.edition.cards:
            return ""
        return card_thumbnail(card_info(self.edition, card))

    def close(self, move: int, view: dict[str, Any]) -> None:
        if self.lines:
            scores = tuple(int(s["score"]) for s in view["seats"])
            self.chapters.append(Chapter(self.title, move, tuple(self.lines), scores, self.scored))

    def tell(self, event: recap.Event, move: rules.Move | None) -> None:
        if event.kind == "turn" and isinstance(move, rules.Turn):
            self.turns.append(move)
        if event.kind == "pick" and event.seat is not None and event.card:
            self.cards[event.seat] = event.card
        if event.kind == "season":
            self.scored = season_name(event.season)
        text = recap.describe(event, self.names, NOBODY, self.edition)
        if not text:
            return
        icon = ICONS.get(event.kind, "turn")
        if event.kind == "leftover" and event.card and self.edition.cards[event.card].aridity:
            icon = "aridity"
        self.lines.append(StoryLine(icon, text[0], tuple(text[1:]), self.picture(event.card)))
        if event.kind == "revealed":
            # The round is public now: its turns replace "X planned their turn".
            self.lines = [line for line in self.lines if line.icon != "turn"]
            self.lines.extend(
                StoryLine(
                    "turn",
                    turn_sentence(t, self.cards.get(t.seat), self.names, self.edition),
                    picture=self.picture(self.cards.get(t.seat)),
                )
                for t in sorted(self.turns, key=lambda t: t.seat)
            )


def story_on(
    record: GameRecord,
    bookmark: tuple[int, rules.GameState, dict[str, Any]] | None,
    state: rules.GameState,
    viewer: int | None,
    names: Sequence[str],
    newest: int | None = None,
) -> StoryOn:
    """The game log as ``viewer`` (None: a spectator) may read it, ``state`` being the
    game's snapshot, told on from ``bookmark`` (``GameKind.story_on``: ``record`` holds the
    moves since it; None: all of them, told from the deal). The new bookmark is where the
    telling stood after the last move and before the reveal that may follow it, so the
    next telling resumes there whether or not the round has been revealed by then: the
    chapters closed before it are final, those closed after it are told again. Told from
    the deal with ``newest`` set, only the newest ``newest`` final chapters are told: the
    older ones are counted (``StoryOn.left_out``), not told (``_first_told``)."""
    edition = rules.load_edition(record.edition)
    closed = not rules.round_complete(state)
    teller = _Teller(names, edition)
    if bookmark is not None:
        first, start, saved = bookmark
        teller.restore(saved)
    else:  # dealt from the seed: only when no bookmark says where the telling stood
        first, start = 0, record.start()
    all_steps = recap.steps(start, record.moves, closed=closed, first=first)
    last = first + len(record.moves)
    begin, left_out = (0, 0) if bookmark is not None else _first_told(all_steps, last, newest)
    # From the step before the round told first: its reveal is what opened that round.
    views = [player_view(step.state, viewer) for step in all_steps[max(0, begin - 1) :]]
    if bookmark is None and begin == 0:
        teller.title = _title(views[0])
    final: tuple[Chapter, ...] = ()
    for before, step, after in zip(views, all_steps[max(1, begin) :], views[1:], strict=False):
        found = recap.events(before, step.move, after, edition)
        if begin and step is all_steps[begin]:  # the left-out round's reveal: not told
            found = found[[event.kind for event in found].index("new_round") :]
        for event in found:
            if event.kind == "new_round":
                teller.close(step.number, after)
                teller.start(_title(after))
            teller.tell(event, step.move)
        if step.move is not None and step.number == last:
            bookmark, final = (last, step.state, teller.saved()), tuple(teller.chapters)
    teller.close(all_steps[-1].number, views[-1])
    return StoryOn(final, tuple(teller.chapters[len(final) :]), bookmark, left_out)


def _first_told(all_steps: Sequence[recap.Step], last: int, newest: int | None) -> tuple[int, int]:
    """Where a telling from the deal that needs only the ``newest`` chapters closed by move
    ``last`` (the final ones) begins: the index in ``all_steps`` of the step that opened the
    oldest round it tells (0: the deal), and how many chapters close before it. A round
    opens at the reveal that ends the Action phase before it (``recap.events``'
    "new_round"), and every round tells a line at least (its picks), so each opening closes
    exactly one chapter; the teller starts each round afresh, so a round told from its
    opening reads as told from the deal. What is left out is replayed by the engine
    alone: not viewed, compared, told nor drawn."""
    moved = [index for index, step in enumerate(all_steps) if step.move is not None]
    if newest is None or not moved or all_steps[moved[-1]].number != last:
        return 0, 0
    openings = [
        index
        for index in range(1, moved[-1])  # those before the last move close final chapters
        if all_steps[index].move is None
        and all_steps[index].state.phase is rules.Phase.DRAFT
        and all_steps[index - 1].state.phase is not rules.Phase.DRAFT
    ]
    left_out = len(openings) - newest
    if left_out <= 0:
        return 0, 0
    return openings[left_out - 1], left_out


def story(
    record: GameRecord, state: rules.GameState, viewer: int | None, names: Sequence[str]
) -> list[Chapter]:
    """The game log as ``viewer`` (None: a spectator) may read it, ``state`` being the
    game's snapshot: one chapter per round, oldest first, told from the first move."""
    told = story_on(record, None, state, viewer, names)
    return [*told.final, *told.rest]


def replay_lines(record: GameRecord, names: Sequence[str]) -> list[str]:
    """One line per move of ``record`` for the replay, in the log's words: a pick names its
    card (picks are public); a turn says what its player did once every turn of its round
    is in (the replay's board shows that round revealed from then on too), else only that
    they played it: a round still being played is never told."""
    edition = rules.load_edition(record.edition)
    lines = [describe_move(edition, move, names) for move in record.moves]
    all_steps = recap.steps(record.start(), record.moves, closed=True)
    views = [player_view(step.state, None) for step in all_steps]
    cards: dict[int, str] = {}
    turns: dict[int, int] = {}  # seat -> index of its turn in this round
    for before, step, after in zip(views, all_steps[1:], views[1:], strict=False):
        for event in recap.events(before, step.move, after, edition):
            if event.kind == "new_round":
                cards, turns = {}, {}
            elif event.kind == "pick" and event.seat is not None and event.card:
                cards[event.seat] = event.card
            elif event.kind == "turn" and isinstance(step.move, rules.Turn):
                turns[step.move.seat] = step.number - 1
            elif event.kind == "revealed":
                for seat, index in turns.items():
                    turn = record.moves[index]
                    assert isinstance(turn, rules.Turn)
                    told = turn_sentence(turn, cards.get(seat), names, edition)
                    lines[index] = f"{told}."
    return lines
