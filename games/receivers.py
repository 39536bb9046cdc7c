"""Receivers of the games' own signals: they hand the work to tasks, which re-read the game."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from . import handoff
from .models import Game
from .signals import game_ended


@receiver(game_ended, dispatch_uid="games_rate_finished_game")
def rate_finished_game(sender: Any, game_id: int, status: str, **kwargs: Any) -> None:
    """A finished rated game goes into the ratings (``rate_pending_games`` is the net)."""
    if status != "finished" or not Game.objects.filter(pk=game_id, rated=True).exists():
        return
    from . import tasks

    handoff.send_after_commit(tasks.rate_game, game_id)
