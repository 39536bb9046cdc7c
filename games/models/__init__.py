"""Players, games, seats, moves, notifications and ratings: the platform's tables.

The Move rows are the source of truth: a game is rebuilt by replaying them from its
seed. ``Game.state`` is a cached snapshot of its kind's state, and Seat scores (and a
kind's own tables, such as Evergreen's Fertility Zone) are projections kept in step
with it for pages, queries and the admin. What a game *is* comes from its kind
(``Game.kind``, ``games.kinds``). One module per table (ratings: two); every name is
imported from here (``from games.models import Game``), as the migrations do.
"""

from .game import PHASE_CHOICES, Game, GameQuerySet, _invite_code
from .move import MOVE_KINDS, Move
from .notification import Notification
from .players import (
    TIME_ZONE_CHOICES,
    Player,
    default_reminder_hours,
    new_calendar_secret,
)
from .ratings import (
    RATING_BASE,
    RATING_MU,
    RATING_SCALE,
    RATING_SIGMA,
    Rating,
    RatingChange,
    shown_rating,
)
from .seat import Seat, Seats

__all__ = [
    "MOVE_KINDS",
    "PHASE_CHOICES",
    "RATING_BASE",
    "RATING_MU",
    "RATING_SCALE",
    "RATING_SIGMA",
    "TIME_ZONE_CHOICES",
    "Game",
    "GameQuerySet",
    "Move",
    "Notification",
    "Player",
    "Rating",
    "RatingChange",
    "Seat",
    "Seats",
    "_invite_code",
    "default_reminder_hours",
    "new_calendar_secret",
    "shown_rating",
]
