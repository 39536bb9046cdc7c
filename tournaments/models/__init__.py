"""Clubs, their members and the events they run: Swiss tournaments, round-robin leagues
(in divisions, season after season) and knockout cups.

An event is seated round by round; each table of a round is one ``games.Game`` whose
Seat rows say who sat where and what they scored, so results are read from the games
and never copied. All writes go through ``tournaments.services``.
"""

from .clubs import Club, JoinRequest, Membership, _invite_code
from .events import (
    DEFAULT_TIEBREAKS,
    Division,
    Event,
    Registration,
    default_points_scheme,
    default_tiebreaks,
)
from .rounds import Bye, Round, Table, TimeoutDecision, VacationUse

__all__ = [
    "DEFAULT_TIEBREAKS",
    "Bye",
    "Club",
    "Division",
    "Event",
    "JoinRequest",
    "Membership",
    "Registration",
    "Round",
    "Table",
    "TimeoutDecision",
    "VacationUse",
    "_invite_code",  # named by migration 0001 (a field default)
    "default_points_scheme",
    "default_tiebreaks",
]
