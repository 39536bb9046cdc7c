"""The guard that hides another player's challenge game (``settings.GAME_VIEW_GUARDS``).

``games.access.game_for_viewer`` asks it before any page, replay, record download or API
read shows a game: a challenge game is shown to its own player, and to others only once
they may see the challenge's results (``services.can_see_others``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.access import GameHidden
from games.models import Game, Seat

from . import services
from .models import ChallengeEntry


def hide_unfinished_challenges(game: Game, user: Any, seat: Seat | None) -> None:
    """Raise ``GameHidden`` (code ``challenge_hidden``) for another player's challenge
    game the viewer may not see yet. No query for a seated viewer or a game with others."""
    if seat is not None or not game.solo:
        return
    entry = ChallengeEntry.objects.select_related("challenge").filter(game=game).first()
    if entry is None or services.can_see_others(entry.challenge, user):
        return
    raise GameHidden(
        "challenge_hidden",
        _(
            "This is another player's game of a daily challenge: it stays hidden until you "
            "have finished yours."
        ),
    )
