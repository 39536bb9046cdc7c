"""Seating players at tables: Swiss rounds, round-robin divisions, knockouts, seasons.

Pure functions of plain values (no Django, no clock, no global random): the event
services pass standings and history in and store the tables that come out. Every
function is deterministic for a given ``seed``.

Evergreen is played by 1-4 players, so a "pairing" seats players at tables of 2-4.
Turn order is worth points (0/1/2/3 at setup), so every table comes back in seat order
chosen to balance each player's earlier seats (:func:`seat_order`).

The searches for good tables live in :mod:`tournaments.seating` (one round) and
:mod:`tournaments.schedule` (a round robin). By concern: ``core``
(values, checks, table sizes, seat order), ``swiss_rounds``, ``round_robins`` and
``knockouts`` (with a league's next season).
"""

from .core import (
    MAX_TABLE,
    Entrant,
    Meetings,
    Pairing,
    PairingError,
    meetings_from,
    seat_order,
    table_sizes,
)
from .knockouts import knockout, next_season_divisions
from .round_robins import affine_plane, natural_rounds, round_robin
from .swiss_rounds import repeat_count, swiss

__all__ = [
    "MAX_TABLE",
    "Entrant",
    "Meetings",
    "Pairing",
    "PairingError",
    "affine_plane",
    "knockout",
    "meetings_from",
    "natural_rounds",
    "next_season_divisions",
    "repeat_count",
    "round_robin",
    "seat_order",
    "swiss",
    "table_sizes",
]
