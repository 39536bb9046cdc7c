"""What the page and the API show of a kind's challenge today, built once for both."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from games import kinds
from games.models import Game

from . import days, services
from .board import Board, board
from .models import ChallengeEntry, DailyChallenge


@dataclass
class Today:
    kind: str
    title: str
    challenge: DailyChallenge
    day: date
    ends_at: datetime
    entry: ChallengeEntry | None
    streak: int
    board: Board
    yesterday: date | None  # the day before, if it had a challenge (its board's link)

    @property
    def game(self) -> Game | None:
        return self.entry.game if self.entry is not None else None

    @property
    def finished(self) -> bool:
        return self.entry is not None and self.entry.game.is_finished

    @property
    def target_title(self) -> str:
        return self.board.target_title


def today(kind_name: str, user: Any) -> Today:
    """Today's challenge of the kind as ``user`` sees it (opened now if nobody has yet)."""
    challenge = services.todays(kind_name)
    kind = kinds.get(challenge.kind)
    return Today(
        kind=kind.name,
        title=str(kind.title),
        challenge=challenge,
        day=challenge.day,
        ends_at=days.ends_at(challenge.day),
        entry=services.entry_of(challenge, user),
        streak=services.streak(user, kind.name),
        board=board(challenge, user),
        yesterday=_yesterday(challenge),
    )


def _yesterday(challenge: DailyChallenge) -> date | None:
    day = challenge.day - timedelta(days=1)
    found = DailyChallenge.objects.filter(day=day, kind=challenge.kind).exists()
    return day if found else None


def every_kind(user: Any) -> list[Today]:
    return [today(kind.name, user) for kind in services.challenge_kinds()]
