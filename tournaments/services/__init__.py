"""Every write to clubs and events goes through here: one function per kind of write.

The admin, the pages, the API and the Celery tasks call these functions (as
``services.<write>``), so a rule, permission or transition is written once. Each write
runs in one transaction with the rows it changes locked; writes to games go through
``games.services``. By concern:

* ``clubs``: clubs, members, join requests, roles; who organizes a club;
* ``events``: an event's settings, created, checked and changed, registration opened,
  players seeded;
* ``registrations``: registering, withdrawing, handing a player's seats to the bot;
* ``pairings``: who sits at which table in a round (reads, and the divisions formed);
* ``rounds``: starting an event, seating each next round, closing it;
* ``timeouts``: adjudication, the timeout policy's decisions and the organizer's ruling;
* ``seasons``: a league's next season.

Vacation limits in events live in ``tournaments.vacations``.

Refusals raise ``games.services.ServiceError`` (400), ``NotAPlayer`` (403) or
``Conflict`` (409) with a stable code and a sentence a player understands.
"""

from games.services import Conflict, NotAPlayer, ServiceError

from .clubs import (
    CLUB_FIELDS,
    RESERVED_CLUB_SLUGS,
    create_club,
    decide_join_request,
    is_organizer,
    join_by_invite,
    join_club,
    leave_club,
    new_invite_code,
    remove_member,
    request_to_join,
    set_role,
    update_club,
)
from .events import (
    EDITABLE_WHILE_RUNNING,
    EVENT_FIELDS,
    EVENT_SETTINGS,
    check_event,
    create_event,
    open_registration,
    set_seed_ranks,
    update_event,
)
from .pairings import knockout_advancing, total_rounds
from .registrations import register, registration_open, replace_with_bot, withdraw
from .rounds import (
    advance,
    close_event,
    event_of_game,
    events_ready_to_advance,
    round_complete,
    seat_next_round,
    start_event,
)
from .seasons import create_next_season
from .timeouts import (
    adjudicate_table,
    apply_timeout_policy,
    override_timeout_decision,
    pending_timeout_decisions,
)

__all__ = [
    "CLUB_FIELDS",
    "EDITABLE_WHILE_RUNNING",
    "EVENT_FIELDS",
    "EVENT_SETTINGS",
    "RESERVED_CLUB_SLUGS",
    "Conflict",
    "NotAPlayer",
    "ServiceError",
    "adjudicate_table",
    "advance",
    "apply_timeout_policy",
    "check_event",
    "close_event",
    "create_club",
    "create_event",
    "create_next_season",
    "decide_join_request",
    "event_of_game",
    "events_ready_to_advance",
    "is_organizer",
    "join_by_invite",
    "join_club",
    "knockout_advancing",
    "leave_club",
    "new_invite_code",
    "open_registration",
    "override_timeout_decision",
    "pending_timeout_decisions",
    "register",
    "registration_open",
    "remove_member",
    "replace_with_bot",
    "request_to_join",
    "round_complete",
    "seat_next_round",
    "set_role",
    "set_seed_ranks",
    "start_event",
    "total_rounds",
    "update_club",
    "update_event",
    "withdraw",
]
