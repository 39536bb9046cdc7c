"""The values ``games.kinds.GameKind`` passes between the platform and a game: a refusal,
a game's set-up and summary, the game log told in the game's words (``StoryLine``,
``Chapter``: ``GameKind.story``; ``StoryOn``: ``GameKind.story_on``) and the optional analysis with its hint (``Analyst``:
``GameKind.analyst``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

State = Any  # a kind's immutable game state (as in games.kinds)
Move = Any  # a kind's move value


class Refusal(Exception):
    """A move, step or option the game refuses: a stable ``code`` and a sentence in the
    player's language. ``conflict`` marks "not now" (answered 409) rather than "never"."""

    def __init__(self, code: str, message: str, *, conflict: bool = False) -> None:
        super().__init__(message)
        self.code, self.message, self.conflict = code, message, conflict


@dataclass(frozen=True)
class Setup:
    """What a new game of a kind is made from (checked by ``GameKind.check_setup``)."""

    players: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Summary:
    """What the platform keeps of a state in the game row (lists, queries, the admin)."""

    phase: str  # a short word, e.g. "draft", "action", "play", "over"
    season: int = 0
    round: int = 0


@dataclass(frozen=True)
class StoryLine:
    """One thing that happened, as the game log tells it: a sentence in the active
    language, details under it, and an ``icon`` the platform draws (``games.story.ICONS``:
    pick, turn, spare (a card nobody took), aridity, round, season, end, start, take)."""

    icon: str
    text: str
    details: tuple[str, ...] = ()
    # A small picture the kind drew of what the line names (an Evergreen card), markup
    # with every text escaped, decorative: ``text`` says the same in words.
    picture: str = ""


@dataclass(frozen=True)
class Chapter:
    """A round of the game log: its title, what happened in it, the move of the replay
    that shows its end (``move``), each seat's score then (``scores``: the score chart),
    and what was scored at its end, if anything (``scored``: "Spring", "the game"; the
    replay's jumps to "End of Spring")."""

    title: str
    move: int
    lines: tuple[StoryLine, ...]
    scores: tuple[int, ...] = ()
    scored: str = ""


@dataclass(frozen=True)
class StoryOn:
    """The game log told on from a bookmark (``GameKind.story_on``): ``final``, the
    chapters closed since the bookmark that no later move or reveal changes (told once:
    the platform keeps them); ``rest``, what was told after the new bookmark (the round
    still open, and one that a reveal after the last move closed), told again next time;
    ``bookmark``, where the telling stood after the last move (plain picklable values,
    for the same viewer, names and language only; None: tell from the first move);
    ``left_out``, how many final chapters older than ``final`` were counted, not told
    (only when told from the first move with ``newest`` set)."""

    final: tuple[Chapter, ...]
    rest: tuple[Chapter, ...]
    bookmark: Any
    left_out: int = 0


class Analyst(ABC):
    """A kind's optional analysis: its strongest computer player reviews a seat's decisions
    of a finished game and suggests a move (the hint). It must read only what the deciding
    seat could see then: two states that look the same to the seat get the same answers.
    ``budget`` names how hard it searches (``settings.ANALYSIS_BUDGET``, ``HINT_BUDGET``)."""

    @abstractmethod
    def review(self, state: State, move: Move, budget: str) -> dict[str, Any] | None:
        """The decision ``move`` (made in ``state``, by its seat) reviewed, as JSON with at
        least ``loss`` (whole points given away, 0 or more), ``round`` (a key grouping the
        reviews of one round, in the game's order) and ``best`` (the better move's JSON);
        None when the move was no decision of the seat's own."""

    @abstractmethod
    def hint(self, state: State, seat: int, budget: str) -> Move:
        """The move the strongest player would make now for ``seat``; raises ``Refusal``
        when ``seat`` has no decision to make."""

    @abstractmethod
    def comment(self, review: Mapping[str, Any], names: Sequence[str]) -> str:
        """One sentence on a review, in the reader's language ("-6: … would have scored 6
        more by the end of the game")."""

    @abstractmethod
    def describe(self, move: Move) -> str:
        """A move in words precise enough to play it (the hint)."""

    @abstractmethod
    def round_name(self, key: str) -> str:
        """A review's ``round`` key as words ("Spring, round 2")."""
