"""Every write to a game goes through here: one function per kind of write.

HTML views, the API, Celery tasks and the admin all call these functions, so a rule,
permission or transition is written once. Each write runs in one transaction with the
game row locked (``select_for_update``: PostgreSQL serialises concurrent submissions);
the game kind validates; a Move row is appended; the snapshot and its projections are
updated and the version bumped.

The modules, by concern: ``errors`` (the refusals), ``writes`` (the shared write path and
the closing of rounds), ``moves`` (submitting moves), ``unseen`` (whether a viewer could
see what changed since a version), ``lobby`` (creating, joining, aborting, adjudicating
games), ``seats`` (standing orders, vacations, hand-overs). Callers use the names
re-exported here: ``from games import services``; ``services.submit_move``.
"""

from __future__ import annotations

import secrets  # noqa: F401  (tests fix the seeds with ``services.secrets.randbits``)

from .errors import Conflict, NotAPlayer, ServiceError, not_a_player, refused
from .lobby import (
    abort_game,
    adjudicate_game,
    create_game,
    create_table_game,
    join_game,
    rematch_game,
)
from .moves import (
    MAX_IDEMPOTENCY_KEY,
    SubmitResult,
    earlier_move,
    move_refusal,
    seat_of,
    submit_move,
)
from .seats import (
    VACATION_DAYS_PER_YEAR,
    end_vacation,
    hand_seat_to_bot,
    set_standing_order,
    start_vacation,
)
from .unseen import unseen_changes_only
from .writes import (
    CLOSE_ROUND_TASK,
    GAME_STATE_FIELDS,
    SEAT_STATE_FIELDS,
    after_commit,
    announce_end,
    close_game_round,
    rebuild_state,
    round_key,
    schedule_closing,
    standing_order,
)

__all__ = [
    "CLOSE_ROUND_TASK",
    "GAME_STATE_FIELDS",
    "MAX_IDEMPOTENCY_KEY",
    "SEAT_STATE_FIELDS",
    "VACATION_DAYS_PER_YEAR",
    "Conflict",
    "NotAPlayer",
    "ServiceError",
    "SubmitResult",
    "abort_game",
    "adjudicate_game",
    "after_commit",
    "announce_end",
    "close_game_round",
    "create_game",
    "create_table_game",
    "earlier_move",
    "end_vacation",
    "hand_seat_to_bot",
    "join_game",
    "move_refusal",
    "not_a_player",
    "rebuild_state",
    "refused",
    "rematch_game",
    "round_key",
    "schedule_closing",
    "seat_of",
    "set_standing_order",
    "standing_order",
    "start_vacation",
    "submit_move",
    "unseen_changes_only",
]
