"""What the engines' command lines (``evergreen-rules``, ``verdant-rules``) do alike.

Both print their results on stdout and any error as one line on stderr with exit status
2; both read a game record or a JSON document from a file or stdin, replay records the
same way and summarise games between bots with the same figures.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .errors import RulesError

EXIT_BAD_INPUT = 2


class InputError(Exception):
    """Input the command line cannot use; the message is printed as is."""


def positive(text: str) -> int:
    """An argument that must be a whole number of at least 1 (for ``argparse``)."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def read_text(path: str) -> str:
    """The text of the file at ``path`` (``-``: stdin); raises ``InputError``."""
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"{path} is not UTF-8 text: {exc}") from exc


def read_json(path: str) -> Any:
    """The JSON document in the file at ``path`` (``-``: stdin); raises ``InputError``."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON: {exc}") from exc


def read_json_input(stream: TextIO) -> Any:
    """The JSON document on ``stream`` (the ``score`` commands' stdin); raises ``InputError``."""
    try:
        return json.loads(stream.read())
    except json.JSONDecodeError as exc:
        raise InputError(f"the input is not valid JSON: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"the input is not UTF-8 text: {exc}") from exc


def refused(path: str, exc: RulesError) -> InputError:
    """The error a record the rules refuse is reported as: its code and its cause's."""
    cause = exc.__cause__
    code = f"{exc.code}: {cause.code}" if isinstance(cause, RulesError) else exc.code
    return InputError(f"{path}: {exc.message} [{code}]")


def check_result(path: str, stated: object, replayed: object) -> None:
    """Refuse a record whose stated ``result`` is not the one its replay reaches."""
    if stated is not None and stated != replayed:
        raise InputError(
            f"{path}: the record's result {json.dumps(stated)} does not match the replay "
            f"({json.dumps(replayed)})."
        )


@dataclass
class Tally:
    """The scores of games between bots, added up for ``simulate``'s summary."""

    players: int
    scores: list[int] = field(default_factory=list)
    winning: list[int] = field(default_factory=list)
    wins: list[int] = field(init=False)
    titles: Counter[str | None] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.wins = [0] * self.players

    def add(self, scores: Sequence[int], winner: int, title: str | None) -> None:
        self.scores.extend(scores)
        self.winning.append(scores[winner])
        self.wins[winner] += 1
        self.titles[title] += 1

    def figures(self) -> dict[str, Any]:
        return {
            "mean_score": round(sum(self.scores) / len(self.scores), 2),
            "min_score": min(self.scores),
            "max_score": max(self.scores),
            "mean_winning_score": round(sum(self.winning) / len(self.winning), 2),
            "wins_per_seat": self.wins,
        }

    def title_rows(self, solo_titles: Iterable[tuple[int, str]]) -> list[dict[str, Any]]:
        """How many games earned each solo title (``(threshold, name)``, lowest first)."""
        return [
            {"title": name, "from_score": threshold, "games": self.titles[name]}
            for threshold, name in solo_titles
        ]


def named_ranking(outcome: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The players' names of an outcome's ``ranking`` (seats, best first)."""
    return [names[seat] for seat in outcome["ranking"]]


def run(command: Callable[[], None], refusals: tuple[type[Exception], ...] = (InputError,)) -> int:
    """Run ``command``; return the exit status: 0, 2 on bad input (``refusals``, printed as
    one line on stderr), 1 when the reader of stdout went away."""
    try:
        command()
    except refusals as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader went away (``... | head``): stop quietly, without a second error at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0
