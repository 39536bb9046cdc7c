"""The leaderboard of a day's challenge, read from the games' own rows.

Ranked by score, the earlier finisher first on a tie. Only games finished within the
challenge's UTC day are on it (``services.finished_in_time``); the title comes from the
kind's projection of the snapshot (``GameKind.projection`` / ``winner_in``), so no
game's state is loaded for the board.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db.models import OuterRef, Subquery
from django.db.models.fields.json import KT

from games import kinds
from games.models import Game, Seat

from . import days, services
from .models import ChallengeEntry, DailyChallenge


@dataclass
class Row:
    place: int
    user_id: int
    name: str
    score: int
    title: str
    game_id: int
    mine: bool


@dataclass
class Board:
    challenge: DailyChallenge
    visible: bool  # whether the viewer may see the others' results
    rows: list[Row] = field(default_factory=list)
    playing: int = 0  # games started and not finished (or finished after the day)
    target_title: str = ""  # in the viewer's language
    target_bot: str = ""  # the computer player's name, in the viewer's language


def board(challenge: DailyChallenge, viewer: Any) -> Board:
    """The day's leaderboard as ``viewer`` may see it: no row at all until they may."""
    kind = kinds.get(challenge.kind)
    result = Board(
        challenge,
        visible=services.can_see_others(challenge, viewer),
        target_title=kind.title_name(challenge.target_title) if challenge.target_title else "",
        target_bot=str(kind.bots.get(challenge.target_bot, challenge.target_bot)),
    )
    entries = ChallengeEntry.objects.filter(challenge=challenge)
    start, end = days.ends_at(challenge.day - timedelta(days=1)), days.ends_at(challenge.day)
    in_time = entries.filter(
        game__status=Game.Status.FINISHED, game__finished_at__gte=start, game__finished_at__lt=end
    )
    result.playing = entries.count() - in_time.count()
    if not result.visible:
        return result
    score = Seat.objects.filter(game=OuterRef("pk"), position=0).values("score")[:1]
    projection = {name: KT(path) for name, path in kind.projection().items()}
    games = (
        Game.objects.filter(challenge_entry__in=in_time)
        .defer("state")
        .annotate(final_score=Subquery(score), **projection)
        .select_related("challenge_entry__user__player")
        .order_by("-final_score", "finished_at", "pk")
    )
    viewer_id = getattr(viewer, "pk", None)
    for place, game in enumerate(games, start=1):
        user = game.challenge_entry.user
        _winner, title = kind.winner_in(game)
        player = getattr(user, "player", None)
        result.rows.append(
            Row(
                place=place,
                user_id=user.pk,
                name=player.display_name if player else user.get_username(),
                score=int(getattr(game, "final_score", 0)),  # annotated above
                title=kind.title_name(title) if title else "",
                game_id=game.pk,
                mine=user.pk == viewer_id,
            )
        )
    return result
