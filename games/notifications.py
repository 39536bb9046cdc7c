"""Notifications: decide who hears what and when, record it under a unique key, deliver it.

Creation is idempotent: the key is unique, so a retried task or a repeated closing finds
the row and adds nothing. Delivery claims a row with a conditional update (two workers
never send the same mail), checks that the mail still makes sense, renders it in the
recipient's language and time zone, sends it and marks it sent; a failure leaves it
pending with a later ``send_after`` (exponential backoff up to an hour) and the beat
task ``deliver_due`` tries again, so nothing is lost and nothing goes out twice.

The player's preferences (``Player.email_mode``) decide which mails exist:

=============  ===========  =========================  ===========================  =====
mail           every        coalesced                  digest                       off
=============  ===========  =========================  ===========================  =====
your move      at once      coalesced (below)          in the daily digest          none
season scored  at once      in the next mail's recap   in the digest's recaps       none
game over      at once      at once                    in the next digest           none
reminder       at once      at once                    at once                      none
hand-over      at once      at once                    at once                      none
digest         -            -                          daily, at ``digest_hour``    none
=============  ===========  =========================  ===========================  =====

* "Off" means no e-mail at all (the one-click unsubscribe sets it).
* The season of a game's end is scored in the "game over" mail, not in a mail of its own.
* Coalesced: at most one mail per ``email_every_hours`` hours per game. When it becomes
  the player's move and they acted in that game from a page, or were mailed about it,
  within the window, the mail waits (``send_after``) until the window ends, and is
  sent then only if the player still has to make that move: someone playing from an
  open page gets no mail at all. A later decision in the same game replaces the
  pending mail (the old row is marked skipped), so at most one is ever waiting.
* Quiet hours (``quiet_start`` to ``quiet_end`` in the player's time zone, possibly across
  midnight): a mail due inside them waits until they end — checked when it is created
  and again when it is delivered (preferences may change in between). The digest
  goes at the hour the player picked for it, quiet hours or not.
* Every "your move" mail and every game in the digest carries a recap of what happened
  since the player last acted (``games.evergreen.recap``), rendered when the mail is sent.

Mails carry ``List-Unsubscribe`` (a signed one-click URL, RFC 8058) and a stable
``Message-ID`` per notification. The private iCal feed of a player's deadlines is built
here too (``calendar_feed``).
"""

from __future__ import annotations

import hashlib
import zoneinfo
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.evergreen import rules

from . import kinds
from .evergreen import recap
from .evergreen.presenters import season_name, solo_title
from .models import Game, Move, Notification, Player, Seat

MAX_BACKOFF = timedelta(hours=1)
UNSUBSCRIBE_SALT = "games.notifications.unsubscribe"
CALENDAR_SALT = "games.notifications.calendar"

Kind = Notification.Kind
Mode = Player.EmailMode

# Which kinds of mail exist for each preference (see the table above).
# "A round of your event is seated" (tournaments) goes out at once in every mode but off.
EVENT_TABLE = Kind.EVENT_TABLE
WANTED: dict[str, frozenset[str]] = {
    Mode.EVERY_MOVE: frozenset(
        {Kind.YOUR_MOVE, Kind.SEASON, Kind.GAME_OVER, Kind.REMINDER, Kind.HANDOVER, EVENT_TABLE}
    ),
    Mode.COALESCED: frozenset(
        {Kind.YOUR_MOVE, Kind.GAME_OVER, Kind.REMINDER, Kind.HANDOVER, EVENT_TABLE}
    ),
    Mode.DIGEST: frozenset({Kind.DIGEST, Kind.REMINDER, Kind.HANDOVER, EVENT_TABLE}),
    Mode.OFF: frozenset(),
}


def _site(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "evergreen.invalid"


def player_of(user: Any) -> Player | None:
    return getattr(user, "player", None) if user is not None else None


def wants(player: Player | None, kind: str) -> bool:
    """Whether a player with these preferences gets this kind of mail at all."""
    mode = player.email_mode if player is not None else Mode.EVERY_MOVE
    return kind in WANTED.get(mode, WANTED[Mode.EVERY_MOVE])


# --- Time: zones and quiet hours ------------------------------------------------------------------


def zone_of(player: Player | None) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(player.time_zone if player else "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def quiet_until(player: Player | None, when: datetime) -> datetime | None:
    """The end of the quiet period ``when`` falls in, or None if it is not quiet then.

    Quiet hours run from ``quiet_start`` (included) to ``quiet_end`` (excluded), local
    hours of the player's time zone; ``quiet_start > quiet_end`` wraps midnight; equal
    or missing bounds mean no quiet hours.
    """
    if player is None or player.quiet_start is None or player.quiet_end is None:
        return None
    start, end = player.quiet_start % 24, player.quiet_end % 24
    if start == end:
        return None
    local = when.astimezone(zone_of(player))
    hour = local.hour
    inside = start <= hour < end if start < end else (hour >= start or hour < end)
    if not inside:
        return None
    ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)  # wall-clock arithmetic in the player's zone
    return ends.astimezone(UTC)


def outside_quiet(player: Player | None, when: datetime) -> datetime:
    return quiet_until(player, when) or when


# --- Creating -----------------------------------------------------------------------------------


def create(
    user: Any,
    game: Game | None,
    kind: str,
    key: str,
    context: dict[str, Any],
    send_after: datetime | None = None,
) -> Notification | None:
    """Record a notification once and have it delivered when due.

    Returns None when the player's preferences want no such mail or when the key exists
    already (a repeated change, a retried task). Quiet hours move ``send_after``.
    """
    player = player_of(user)
    if not wants(player, kind) or not getattr(user, "email", ""):
        return None
    send_after = send_after or timezone.now()
    if kind != Kind.DIGEST:
        send_after = outside_quiet(player, send_after)
    try:
        with transaction.atomic():
            note = Notification.objects.create(
                key=key,
                user=user,
                game=game,
                kind=kind,
                context=context,
                send_after=send_after,
            )
    except IntegrityError:
        return None
    schedule_delivery(note)
    return note


def schedule_delivery(note: Notification) -> None:
    """Deliver once the transaction commits, if due now; otherwise the beat task will."""
    from .tasks import deliver_notification

    if note.send_after > timezone.now():
        return  # deliver_due (every minute) sends it when it is due
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        transaction.on_commit(lambda: deliver(note.pk), robust=True)
    else:
        transaction.on_commit(lambda: deliver_notification.delay(note.pk), robust=True)


def _human(seat: Seat) -> bool:
    return seat.user_id is not None and not seat.bot


def decision_key(game: Game, state: Any) -> str:
    return kinds.of(game).decision_key(state)


def after_change(
    game: Game, before: rules.GameState, state: rules.GameState, seats: list[Seat]
) -> None:
    """Notifications for a change of the game: whose move it is now, seasons scored, the end."""
    if before == state:
        newly = set(state.awaiting)  # nothing moved: the game has just started
    else:
        newly = set(state.awaiting) - (
            set(before.awaiting)
            if decision_key(game, before) == decision_key(game, state)
            else set()
        )
    for position in sorted(newly):
        seat = seats[position]
        if _human(seat):
            your_move(game, seat, state)
    # Seasons scored by this change; the last one of a finished game is in "game over".
    kind = kinds.of(game)
    for season in range(kind.summary(before).season, kind.summary(state).season):
        for seat in seats:
            if _human(seat):
                season_scored(game, seat, state, season)
    if state.is_over and not before.is_over:
        for seat in seats:
            if _human(seat):
                game_over(game, seat, state)


def _game_context(game: Game, seat: Seat, state: Any) -> dict[str, Any]:
    kind = kinds.of(game)
    summary = kind.summary(state)
    return {
        "game_id": game.pk,
        "game_url": _site(reverse("games:detail", args=[game.pk])),
        "seat": seat.position,
        "season": summary.season,
        "round": summary.round,
        "phase": summary.phase,
        "scores": list(kind.scores(state)),
    }


def last_activity(user: Any, game: Game) -> datetime | None:
    """When ``user`` last moved in ``game`` from a page, or was last mailed about it."""
    moved = (
        Move.objects.filter(game=game, user=user).aggregate(at=Max("created_at"))["at"]
        if user is not None
        else None
    )
    mailed = Notification.objects.filter(
        game=game, user=user, status=Notification.Status.SENT
    ).aggregate(at=Max("sent_at"))["at"]
    times = [t for t in (moved, mailed) if t is not None]
    return max(times) if times else None


def your_move(game: Game, seat: Seat, state: rules.GameState) -> Notification | None:
    player = player_of(seat.user)
    if not wants(player, Kind.YOUR_MOVE):
        return None
    context = _game_context(game, seat, state)
    context["deadline"] = seat.deadline.isoformat() if seat.deadline else None
    key = f"move:{game.pk}:{seat.position}:{decision_key(game, state)}"
    send_after = timezone.now()
    coalesced = player is not None and player.email_mode == Mode.COALESCED
    if coalesced:
        assert player is not None
        window = timedelta(hours=max(1, player.email_every_hours))
        last = last_activity(seat.user, game)
        if last is not None and send_after < last + window:
            send_after = last + window
    note = create(seat.user, game, Kind.YOUR_MOVE, key, context, send_after)
    if note is not None and coalesced:
        # One mail at most waits per game: this one replaces any earlier, unsent one.
        Notification.objects.filter(
            user=seat.user, game=game, kind=Kind.YOUR_MOVE, status=Notification.Status.PENDING
        ).exclude(pk=note.pk).update(
            status=Notification.Status.SKIPPED, last_error=f"replaced by {key}"
        )
    return note


def reminder(game: Game, seat: Seat, state: rules.GameState, hours: int) -> Notification | None:
    assert seat.deadline is not None
    context = _game_context(game, seat, state)
    context["deadline"] = seat.deadline.isoformat()
    context["hours"] = hours
    key = f"reminder:{game.pk}:{seat.position}:{seat.deadline.isoformat()}:{hours}:{decision_key(game, state)}"
    return create(seat.user, game, Kind.REMINDER, key, context)


def _season_rows(state: rules.GameState, season: int) -> list[dict[str, Any]]:
    return [
        {
            "seat": i,
            "light": s.seasons[season - 1].light,
            "forest": s.seasons[season - 1].forest,
            "bud": s.seasons[season - 1].bud,
            "total": s.seasons[season - 1].total,
            "score": s.score,
        }
        for i, s in enumerate(state.seats)
        if len(s.seasons) >= season
    ]


def season_scored(
    game: Game, seat: Seat, state: rules.GameState, season: int
) -> Notification | None:
    if not wants(player_of(seat.user), Kind.SEASON):
        return None
    context = _game_context(game, seat, state)
    context["scored_season"] = season
    context["breakdown"] = _season_rows(state, season)
    key = f"season:{game.pk}:{seat.position}:{season}"
    return create(seat.user, game, Kind.SEASON, key, context)


def game_over(game: Game, seat: Seat, state: rules.GameState) -> Notification | None:
    if not wants(player_of(seat.user), Kind.GAME_OVER):
        return None
    context = _game_context(game, seat, state)
    outcome = state.outcome
    assert outcome is not None
    context["ranking"] = [{"seat": i, "score": outcome.scores[i]} for i in outcome.ranking]
    context["title"] = outcome.title
    if isinstance(state, rules.GameState):  # Evergreen's seasons and Fertility
        context["seasons"] = [
            {"season": n, "rows": _season_rows(state, n)} for n in range(1, state.season + 1)
        ]
        context["fertility"] = [s.fertility for s in state.seats]
    key = f"over:{game.pk}:{seat.position}"
    return create(seat.user, game, Kind.GAME_OVER, key, context)


def handover(game: Game, seat: Seat) -> None:
    """Tell the player (and the game's creator) that a computer player took their seat."""
    state = game.engine_state()
    context = _game_context(game, seat, state)
    context["player_name"] = seat.name
    for user in {seat.user, game.created_by} - {None}:
        create(
            user,
            game,
            Kind.HANDOVER,
            f"handover:{game.pk}:{seat.position}:{user.pk}",
            context,
        )


# --- Digests -------------------------------------------------------------------------------------


def _waiting_seats(user: Any) -> list[Seat]:
    seats = Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE, bot="").select_related(
        "game"
    )
    return [s for s in seats if s.game.state and s.position in s.game.engine_state().awaiting]


def send_digests(now: datetime | None = None) -> int:
    """Daily digests for players who chose them, at their hour in their time zone.

    The beat task calls this every few minutes; the key (user and local date) makes
    the second call of the hour, and of the day, a no-op.
    """
    now = now or timezone.now()
    sent = 0
    players = Player.objects.filter(email_mode=Mode.DIGEST).select_related("user")
    for player in players:
        local = now.astimezone(zone_of(player))
        if local.hour != player.digest_hour:
            continue
        waiting = _waiting_seats(player.user)
        finished = list(
            Seat.objects.filter(
                user=player.user,
                game__status=Game.Status.FINISHED,
                game__finished_at__gt=now - timedelta(days=1),
            ).values_list("game_id", "position")
        )
        if not waiting and not finished:
            continue
        context = {
            "games": [{"game_id": s.game_id, "seat": s.position} for s in waiting],
            "finished": [{"game_id": g, "seat": p} for g, p in finished],
        }
        key = f"digest:{player.user_id}:{local.date().isoformat()}"
        if create(player.user, None, Kind.DIGEST, key, context, now) is not None:
            sent += 1
    return sent


# --- Delivery -------------------------------------------------------------------------------------


def _names(game: Game) -> list[str]:
    return [s.name for s in game.seats.select_related("user__player").order_by("position")]


def _game_block(game: Game, position: int) -> dict[str, Any]:
    """A game as the mail shows it to seat ``position``: recap, where it stands, link."""
    names = _names(game)
    block: dict[str, Any] = {
        "game_id": game.pk,
        "game_url": _site(reverse("games:detail", args=[game.pk])),
        "names": names,
        "recap": [],
        "standing": "",
    }
    if game.kind != "evergreen":  # the kind's own recap (``GameKind.recap``)
        block["recap"], block["standing"] = kinds.of(game).recap(game, position, names)
        return block
    try:
        summary = recap.for_seat(game, position)
    except (rules.RulesError, ValueError, Seat.DoesNotExist):
        return block  # a mail without its recap is better than no mail at all
    block["recap"] = recap.lines(summary, names)
    block["standing"] = recap.standing(summary, names)
    return block


def _rows_with_names(rows: Iterable[dict[str, Any]], names: list[str], me: int) -> list[Any]:
    return [
        {
            **row,
            "name": names[row["seat"]] if row["seat"] < len(names) else "?",
            "me": row["seat"] == me,
        }
        for row in rows
    ]


def _extra_context(note: Notification) -> dict[str, Any]:
    """What the templates need beyond the stored context, computed in the player's language."""
    ctx = note.context
    extra: dict[str, Any] = {
        "unsubscribe_url": unsubscribe_url(note.user),
        "profile_url": _site(reverse("games:profile")),
        "site_url": settings.SITE_URL,
    }
    if ctx.get("deadline"):
        extra["deadline_at"] = parse_datetime(ctx["deadline"])
    game = note.game
    if game is not None and game.kind != "evergreen":  # the game's own name and words
        extra["game_title"] = str(kinds.of(game).title)
        extra.update(kinds.of(game).mail_words(ctx, _names(game), ctx.get("seat", -1)))
    elif ctx.get("title"):
        extra["title"] = solo_title(ctx["title"])
    me = ctx.get("seat", -1)
    if game is not None and game.state is not None:
        names = _names(game)
        extra["names"] = names
        if note.kind == Kind.YOUR_MOVE:
            extra.update(_game_block(game, me))
        if "breakdown" in ctx:
            extra["breakdown"] = _rows_with_names(ctx["breakdown"], names, me)
            extra["scored_season_name"] = season_name(ctx["scored_season"])
        if "ranking" in ctx:
            extra["ranking"] = _rows_with_names(ctx["ranking"], names, me)
            extra["fertility_rows"] = [
                {"name": names[i], "points": points, "me": i == me}
                for i, points in enumerate(ctx.get("fertility", []))
                if i < len(names)
            ]
            extra["seasons"] = [
                {
                    **s,
                    "name": season_name(s["season"]),
                    "rows": _rows_with_names(s["rows"], names, me),
                }
                for s in ctx.get("seasons", [])
            ]
    if note.kind == Kind.DIGEST:
        blocks = []
        for entry in ctx.get("games", []):
            g = Game.objects.filter(pk=entry["game_id"]).first()
            if g is not None and g.state is not None:
                blocks.append(_game_block(g, entry["seat"]))
        finished = []
        for entry in ctx.get("finished", []):
            g = Game.objects.filter(pk=entry["game_id"]).first()
            if g is not None and g.state is not None:
                state = g.engine_state()
                names = _names(g)
                finished.append(
                    {
                        "game_id": g.pk,
                        "game_url": _site(reverse("games:detail", args=[g.pk])),
                        "ranking": [
                            {
                                "name": names[i],
                                "score": kinds.of(g).scores(state)[i],
                                "me": i == entry["seat"],
                            }
                            for i in (state.outcome.ranking if state.outcome else range(len(names)))
                        ],
                    }
                )
        extra["games"] = blocks
        extra["finished"] = finished
    return extra


def message_id(note: Notification) -> str:
    """The same for every attempt to send this notification."""
    digest = hashlib.sha256(note.key.encode()).hexdigest()[:16]
    return f"<evergreen.{note.pk}.{digest}@{_host()}>"


def render(note: Notification) -> EmailMultiAlternatives:
    """The mail for ``note``: subject, plain text and HTML, in the recipient's language and
    time zone, with the unsubscribe headers."""
    player = player_of(note.user)
    language = player.language if player else settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(zone_of(player)):
        context = {**note.context, "user": note.user, "player": player, "kind": note.kind}
        context.update(_extra_context(note))
        subject = render_to_string(f"emails/{note.kind}_subject.txt", context).strip()
        text = render_to_string(f"emails/{note.kind}.txt", context)
        html = render_to_string(f"emails/{note.kind}.html", context)
    unsubscribe = context["unsubscribe_url"]
    message = EmailMultiAlternatives(
        subject=" ".join(subject.split()),
        body=text,
        to=[note.user.email],
        headers={
            "Message-ID": message_id(note),
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def deliver(note_id: int) -> str:
    """Send one notification if it is due and nobody else is sending it; returns what happened.

    Raises the mail error after recording it (pending again, ``attempts`` + 1, a later
    ``send_after``), so a task can retry; ``deliver_due`` picks it up in any case.
    """
    now = timezone.now()
    claimed = Notification.objects.filter(
        pk=note_id, status=Notification.Status.PENDING, send_after__lte=now
    ).update(status=Notification.Status.SENDING, claimed_at=now)
    if claimed != 1:
        return "not due or already taken"
    note = Notification.objects.select_related("user__player", "game").get(pk=note_id)
    if not still_relevant(note):
        Notification.objects.filter(pk=note_id).update(status=Notification.Status.SKIPPED)
        return "skipped"
    later = quiet_until(player_of(note.user), now) if note.kind != Kind.DIGEST else None
    if later is not None:
        Notification.objects.filter(pk=note_id).update(
            status=Notification.Status.PENDING, send_after=later
        )
        return "deferred"
    try:
        render(note).send()
    except Exception as exc:
        attempts = note.attempts + 1
        base = getattr(settings, "NOTIFICATION_RETRY_SECONDS", 30)
        backoff = min(timedelta(seconds=base * 2 ** (attempts - 1)), MAX_BACKOFF)
        Notification.objects.filter(pk=note_id).update(
            status=Notification.Status.PENDING,
            attempts=attempts,
            last_error=f"{type(exc).__name__}: {exc}"[:1000],
            send_after=timezone.now() + backoff,
        )
        raise
    Notification.objects.filter(pk=note_id).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), attempts=note.attempts + 1
    )
    return "sent"


def still_relevant(note: Notification) -> bool:
    """Whether the mail still makes sense: the player still wants this kind of mail, and a
    "your move" or reminder mail is only sent while that very move is still to be made."""
    if not wants(player_of(note.user), note.kind):
        return False
    if note.kind not in (Kind.YOUR_MOVE, Kind.REMINDER):
        return True
    game = note.game
    if game is None or game.status != Game.Status.ACTIVE or game.state is None:
        return False
    state = game.engine_state()
    seat = note.context.get("seat")
    if seat not in state.awaiting or decision_key(game, state) != note.key.split(":")[-1]:
        return False
    return Seat.objects.filter(game=game, position=seat, user=note.user, bot="").exists()


def due(now: datetime | None = None) -> list[int]:
    """Pending notifications that are due, and ones stuck in "sending" after a crash."""
    now = now or timezone.now()
    stale = timedelta(seconds=getattr(settings, "NOTIFICATION_STALE_SECONDS", 600))
    Notification.objects.filter(
        status=Notification.Status.SENDING, claimed_at__lt=now - stale
    ).update(status=Notification.Status.PENDING)
    return list(
        Notification.objects.filter(status=Notification.Status.PENDING, send_after__lte=now)
        .order_by("send_after")
        .values_list("pk", flat=True)[:500]
    )


# --- Signed links: unsubscribe and the calendar ---------------------------------------------------


def make_token(user: Any, salt: str) -> str:
    """A signed, stable token naming ``user`` for one purpose (the salt)."""
    return signing.Signer(salt=salt).sign_object({"u": user.pk})


def user_for_token(token: str, salt: str) -> tuple[bool, Any]:
    """(whether the signature is good, the user it names or None)."""
    try:
        data = signing.Signer(salt=salt).unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError):
        return False, None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return False, None
    return True, get_user_model().objects.filter(pk=data["u"]).first()


def unsubscribe_url(user: Any) -> str:
    return _site(reverse("games:unsubscribe", args=[make_token(user, UNSUBSCRIBE_SALT)]))


def calendar_url(user: Any) -> str:
    return _site(reverse("games:calendar", args=[make_token(user, CALENDAR_SALT)]))


# --- The iCal feed (RFC 5545) ----------------------------------------------------------------------
# Written by hand (the ``icalendar`` package is not installed): a handful of properties,
# TEXT escaping and line folding at 75 octets are all a feed of deadlines needs.


def ical_escape(text: str) -> str:
    """Escape a TEXT value (RFC 5545 §3.3.11)."""
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


def ical_fold(line: str) -> str:
    """Fold a content line into lines of at most 75 octets (RFC 5545 §3.1), never
    splitting a UTF-8 character; continuation lines start with one space."""
    parts: list[str] = []
    current = ""
    size = 0
    limit = 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            parts.append(current)
            current, size, limit = "", 0, 74  # the leading space takes one octet
        current += char
        size += width
    parts.append(current)
    return "\r\n ".join(parts)


def _ical_time(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar_feed(user: Any, now: datetime | None = None) -> str:
    """The player's current deadlines as an iCalendar document: one event per seat that
    must act by a deadline, with the player's reminders as alarms."""
    now = now or timezone.now()
    player = player_of(user)
    language = player.language if player else settings.LANGUAGE_CODE
    seats = (
        Seat.objects.filter(user=user, deadline__isnull=False, game__status=Game.Status.ACTIVE)
        .select_related("game")
        .order_by("deadline")
    )
    reminders = sorted(
        {int(h) for h in (getattr(player, "reminder_hours", None) or []) if int(h) > 0}
    )
    with translation.override(language):
        lines = [
            "BEGIN:VCALENDAR",
            "VERSION:2.0",
            "PRODID:-//Evergreen//Deadlines//EN",
            "CALSCALE:GREGORIAN",
            "METHOD:PUBLISH",
            "X-WR-CALNAME:" + ical_escape(_("Evergreen deadlines")),
        ]
        for seat in seats:
            assert seat.deadline is not None
            game_url = _site(reverse("games:detail", args=[seat.game_id]))
            summary = _("Evergreen game #%(id)s: your move is due") % {"id": seat.game_id}
            description = _("Make your move before the deadline: %(url)s") % {"url": game_url}
            lines += [
                "BEGIN:VEVENT",
                f"UID:evergreen-seat-{seat.pk}-{int(seat.deadline.timestamp())}@{_host()}",
                f"DTSTAMP:{_ical_time(now)}",
                f"DTSTART:{_ical_time(seat.deadline)}",
                "SUMMARY:" + ical_escape(summary),
                "DESCRIPTION:" + ical_escape(description),
                f"URL:{game_url}",
                "TRANSP:TRANSPARENT",
            ]
            for hours in reminders:
                lines += [
                    "BEGIN:VALARM",
                    "ACTION:DISPLAY",
                    "DESCRIPTION:" + ical_escape(summary),
                    f"TRIGGER:-PT{hours}H",
                    "END:VALARM",
                ]
            lines.append("END:VEVENT")
        lines.append("END:VCALENDAR")
    return "".join(ical_fold(line) + "\r\n" for line in lines)
