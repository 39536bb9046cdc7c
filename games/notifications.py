"""Notifications: decide who hears what and when, record it under a unique key, deliver it.

Creation is idempotent: the key is unique, so a retried task or a repeated closing finds
the row and adds nothing (and schedules nothing). The mails of one change are recorded
together (``games.outbox.record``): their queries do not grow with the players told.
Delivery claims a row with a conditional update (two workers never send the same mail),
checks that the mail still makes sense, renders it in the recipient's language and time
zone, sends it and marks it sent; a failure leaves it pending with a later
``send_after`` (exponential backoff up to an hour) and the beat task ``deliver_due``
tries again, so nothing is lost and nothing goes out twice.

The player's preferences (``Player.email_mode``) decide which mails exist:

=============  ===========  =========================  ===========================  =====
mail           every        coalesced                  digest                       off
=============  ===========  =========================  ===========================  =====
your move      at once      coalesced (below)          in the daily digest          none
season scored  at once      in the next mail's recap   in the digest's recaps       none
game over      at once      coalesced (below)          in the next digest           none
reminder       see below    see below                  see below                    none
hand-over      at once      at once                    at once                      none
digest         -            -                          daily, at ``digest_hour``    none
event table    at once      at once                    at once                      none
chat           at once      at once                    in the digest's chat lines   none
rematch        at once      at once                    at once                      none
announcement   at once      at once                    at once                      none
=============  ===========  =========================  ===========================  =====

* New players are coalesced (every 6 hours): a trial game at one day per move with
  moves minutes apart sent one player 47 "your move" mails and 11 reminders.
* "chat" goes only to players who asked for new-message mails (``conversations``);
  "rematch" to each other person of a finished game when a rematch is offered;
  "announcement" to each member of a club once per announcement. None of them reaches
  someone who blocked the person they come from (``conversations.shields``).
* "Off" means no e-mail at all (the one-click unsubscribe sets it).
* Reminders (``Player.reminder_hours`` before a deadline) never repeat what the player
  was just told (``games.mails.reminder_repeats``): none while the move is younger than
  the reminder's lead time (one day per move, 24 h reminder: the "your move" mail gave
  the deadline), none when a mail about the game went to them since the reminder became
  due or within the last hour. A reminder replaces a "your move" mail still waiting.
* The season of a game's end is scored in the "game over" mail, not in a mail of its own.
* Coalesced: at most one mail per ``email_every_hours`` hours per game. When it becomes
  the player's move and they acted in that game from a page, or were mailed about it,
  within the window, the mail waits (``send_after``) until the window ends, and is
  sent then only if the player still has to make that move: someone playing from an
  open page gets no mail at all. A later decision in the same game replaces the
  pending mail (the old row is marked skipped), so at most one is ever waiting. The
  "game over" mail waits for the window in the same way.
* Quiet hours (``quiet_start`` to ``quiet_end`` in the player's time zone, possibly across
  midnight): a mail due inside them waits until they end — checked when it is created
  and again when it is delivered (preferences may change in between). The digest
  goes at the hour the player picked for it, quiet hours or not.
* Every "your move" mail and every game in the digest carries a recap of what happened
  since the player last acted (its kind's ``recap``: ``games.evergreen.recap``), rendered
  when the mail is sent.

Mails carry ``List-Unsubscribe`` (a signed one-click URL, RFC 8058) and a stable
``Message-ID`` per notification.

The parts, by concern (this module only names them): ``games.outbox`` (preferences,
quiet hours, recording and scheduling), ``games.mails`` (what is sent when),
``games.delivery`` (rendering and sending), ``games.signed_links`` (unsubscribe and
calendar links) and ``games.calendar_feed`` (the iCal feed).
"""

from .calendar_feed import calendar_feed, ical_escape, ical_fold
from .delivery import deliver, message_id, render, still_relevant
from .mails import (
    after_change,
    game_over,
    handover,
    last_activity,
    reminder,
    season_scored,
    send_digests,
    your_move,
)
from .outbox import (
    WANTED,
    create,
    draft,
    due,
    outside_quiet,
    player_of,
    quiet_until,
    record,
    schedule_delivery,
    wants,
    zone_of,
)
from .signed_links import UNSUBSCRIBE_SALT, calendar_url, unsubscribe_url
from .site import site_url

__all__ = [
    "UNSUBSCRIBE_SALT",
    "WANTED",
    "after_change",
    "calendar_feed",
    "calendar_url",
    "create",
    "deliver",
    "draft",
    "due",
    "game_over",
    "handover",
    "ical_escape",
    "ical_fold",
    "last_activity",
    "message_id",
    "outside_quiet",
    "player_of",
    "quiet_until",
    "record",
    "reminder",
    "render",
    "schedule_delivery",
    "season_scored",
    "send_digests",
    "site_url",
    "still_relevant",
    "unsubscribe_url",
    "wants",
    "your_move",
    "zone_of",
]
