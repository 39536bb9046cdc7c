"""What the e-mails about games say and when they are created: "your move", reminders,
seasons scored, the end of a game, hand-overs to a computer player, daily digests.

Each is recorded once under a unique key in the outbox (``games.outbox``); what a mail
says about the game itself (season breakdowns, the final result, the recap) comes from
its kind (``games.kinds``). The table of which player gets which mail, coalescing and
quiet hours are described in ``games.notifications``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Case, Max, Value, When
from django.urls import reverse
from django.utils import timezone

from conversations.shields import blocked_ids

from . import kinds
from .models import Game, Move, Notification, Player, Seat
from .outbox import Kind, Mode, create, draft, player_of, record, wants, zone_of
from .site import site_url


def _human(seat: Seat) -> bool:
    return seat.user_id is not None and not seat.bot


def after_change(game: Game, before: Any, state: Any, seats: list[Seat]) -> None:
    """Notifications for a change of the game: whose move it is now, seasons scored, the end.

    Recorded together, in a number of queries that does not grow with the seats (at most
    four: when the coalesced players last acted, the keys recorded already, the new rows,
    the waiting mails they replace)."""
    kind = kinds.of(game)
    awaiting = set(kind.awaiting(state))
    if before == state:
        newly = awaiting  # nothing moved: the game has just started
    else:
        same = kind.decision_key(before) == kind.decision_key(state)
        newly = awaiting - (set(kind.awaiting(before)) if same else set())
    humans = [seat for seat in seats if _human(seat)]
    deciding = [seat for seat in humans if seat.position in newly]
    ended = kind.is_over(state) and not kind.is_over(before)
    # Seasons scored by this change; the last one of a finished game is in "game over".
    scored = range(kind.summary(before).season, kind.summary(state).season)
    if not (deciding or scored or ended):
        return  # most turns: nobody has a new decision to make
    windows = _windows(game, humans if ended else deciding)
    about = _About(game, state)
    drafts = [_your_move(about, seat, windows) for seat in deciding]
    for season in scored:
        drafts += [_season_scored(about, seat, season) for seat in humans]
    if ended:
        drafts += [_game_over(about, seat, windows) for seat in humans]
    _record(game, drafts, windows)


class _About:
    """What the mails of one change say about the game, worked out once for all seats."""

    def __init__(self, game: Game, state: Any) -> None:
        self.game, self.state, self.kind = game, state, kinds.of(game)
        summary = self.kind.summary(state)
        self.shared = {
            "game_id": game.pk,
            "game_url": site_url(reverse("games:detail", args=[game.pk])),
            "season": summary.season,
            "round": summary.round,
            "phase": summary.phase,
            "scores": list(self.kind.scores(state)),
        }
        self.decision = self.kind.decision_key(state)
        self._breakdowns: dict[int, Any] = {}
        self._final: dict[str, Any] | None = None

    def context(self, seat: Seat) -> dict[str, Any]:
        return {**self.shared, "seat": seat.position}

    def breakdown(self, season: int) -> Any:
        if season not in self._breakdowns:
            self._breakdowns[season] = self.kind.season_rows(self.state, season)
        return self._breakdowns[season]

    def final(self) -> dict[str, Any]:
        if self._final is None:
            self._final = self.kind.final_context(self.state)
        return self._final


def _game_context(game: Game, seat: Seat, state: Any) -> dict[str, Any]:
    return _About(game, state).context(seat)


def last_activities(game: Game, user_ids: Iterable[int]) -> dict[int, datetime]:
    """When each of these users last moved in ``game`` from a page, or was last mailed
    about it (absent: never). One query for all: it runs inside the move that creates
    coalesced players' "your move" mails."""
    ids = list(user_ids)
    sent = Notification.Status.SENT
    moved = Move.objects.filter(game=game, user_id__in=ids).order_by()
    mailed = Notification.objects.filter(game=game, user_id__in=ids, status=sent).order_by()
    both = moved.values_list("user_id").annotate(at=Max("created_at"))
    both = both.union(mailed.values_list("user_id").annotate(at=Max("sent_at")), all=True)
    last: dict[int, datetime] = {}
    for user_id, at in both:
        if at is not None and (user_id not in last or at > last[user_id]):
            last[user_id] = at
    return last


def last_activity(user: Any, game: Game) -> datetime | None:
    """When ``user`` last moved in ``game`` from a page, or was last mailed about it."""
    if user is None:
        return None
    return last_activities(game, [user.pk]).get(user.pk)


# When each coalesced player may next be mailed about a game, by user id.
Windows = dict[int | None, datetime]


def _windows(game: Game, seats: Iterable[Seat]) -> Windows:
    """When each coalesced player among ``seats`` may next be mailed about ``game``: the end
    of the window after they last acted in it or were mailed about it, or now. The others
    are absent (not coalesced). One query, none without a coalesced player."""
    spans: dict[int, timedelta] = {}
    for seat in seats:
        player = player_of(seat.user)
        if seat.user_id is not None and player is not None and player.email_mode == Mode.COALESCED:
            spans[seat.user_id] = timedelta(hours=max(1, player.email_every_hours))
    if not spans:
        return {}
    now = timezone.now()
    last = last_activities(game, spans)
    return {
        user_id: last[user_id] + span if user_id in last and now < last[user_id] + span else now
        for user_id, span in spans.items()
    }


def _record(game: Game, drafts: list[Notification | None], windows: Windows) -> list[Notification]:
    """Record the drafts; a coalesced player's new "your move" mail replaces the one still
    waiting for its window, if any: one at most waits per game."""
    notes = record(drafts)
    replacing = {
        n.user_id: n.key for n in notes if n.kind == Kind.YOUR_MOVE and n.user_id in windows
    }
    skip_waiting(game, replacing, keep=[n.pk for n in notes])
    return notes


def skip_waiting(game: Game, replaced_by: dict[int, str], keep: Iterable[int] = ()) -> None:
    """The "your move" mails about ``game`` still waiting for the users of ``replaced_by``
    (user id: the key of what replaces them) are skipped, but those of ``keep``. One UPDATE."""
    said = {user_id: Value(f"replaced by {key}") for user_id, key in replaced_by.items()}
    if not said:
        return
    reason: Value | Case
    if len(said) == 1:
        (reason,) = said.values()  # one player (most changes): no CASE to build, 0.3 ms
    else:
        whens = (When(user_id=user_id, then=value) for user_id, value in said.items())
        reason = Case(*whens, default=Value("replaced"))
    Notification.objects.filter(
        game=game, kind=Kind.YOUR_MOVE, status=Notification.Status.PENDING, user_id__in=replaced_by
    ).exclude(pk__in=list(keep)).update(status=Notification.Status.SKIPPED, last_error=reason)


def _one(game: Game, drafts: list[Notification | None], windows: Windows) -> Notification | None:
    notes = _record(game, drafts, windows)
    return notes[0] if notes else None


def _your_move(about: _About, seat: Seat, windows: Windows) -> Notification | None:
    context = about.context(seat)
    context["deadline"] = seat.deadline.isoformat() if seat.deadline else None
    key = f"move:{about.game.pk}:{seat.position}:{about.decision}"
    return draft(seat.user, about.game, Kind.YOUR_MOVE, key, context, windows.get(seat.user_id))


def your_move(game: Game, seat: Seat, state: Any) -> Notification | None:
    windows = _windows(game, [seat])
    return _one(game, [_your_move(_About(game, state), seat, windows)], windows)


# A mail about the same game sent this recently makes a reminder a repetition.
REPEAT_WINDOW = timedelta(hours=1)


def reminder_repeats(game: Game, seat: Seat, hours: int, now: datetime) -> bool:
    """Whether a reminder ``hours`` before the deadline would only repeat what the player
    was told: the move is younger than the reminder's lead time (the "your move" mail
    gave the deadline already), or a mail about this game went to them since the
    reminder became due, or within the last hour."""
    assert seat.deadline is not None
    lead = timedelta(hours=hours)
    if seat.awaiting_since is not None and now - seat.awaiting_since < lead:
        return True
    since = min(seat.deadline - lead, now - REPEAT_WINDOW)
    return Notification.objects.filter(
        user=seat.user, game=game, status=Notification.Status.SENT, sent_at__gte=since
    ).exists()


def reminder(
    game: Game, seat: Seat, state: Any, hours: int, now: datetime | None = None
) -> Notification | None:
    assert seat.deadline is not None
    if reminder_repeats(game, seat, hours, now or timezone.now()):
        return None
    context = _game_context(game, seat, state)
    context["deadline"] = seat.deadline.isoformat()
    context["hours"] = hours
    key = f"reminder:{game.pk}:{seat.position}:{seat.deadline.isoformat()}:{hours}:{kinds.of(game).decision_key(state)}"
    note = create(seat.user, game, Kind.REMINDER, key, context)
    if note is not None:
        # The reminder says it is their move: a "your move" mail still waiting for its
        # coalescing window would say it again.
        skip_waiting(game, {note.user_id: key})
    return note


def _season_scored(about: _About, seat: Seat, season: int) -> Notification | None:
    if not wants(player_of(seat.user), Kind.SEASON):
        return None  # before working out the breakdown
    context = about.context(seat)
    context["scored_season"] = season
    context["breakdown"] = about.breakdown(season)
    key = f"season:{about.game.pk}:{seat.position}:{season}"
    return draft(seat.user, about.game, Kind.SEASON, key, context)


def season_scored(game: Game, seat: Seat, state: Any, season: int) -> Notification | None:
    return _one(game, [_season_scored(_About(game, state), seat, season)], {})


def _game_over(about: _About, seat: Seat, windows: Windows) -> Notification | None:
    if not wants(player_of(seat.user), Kind.GAME_OVER):
        return None
    context = about.context(seat)
    context.update(about.final())
    key = f"over:{about.game.pk}:{seat.position}"
    # Coalesced, the end waits for the window too: whoever made the last move saw it.
    return draft(seat.user, about.game, Kind.GAME_OVER, key, context, windows.get(seat.user_id))


def game_over(game: Game, seat: Seat, state: Any) -> Notification | None:
    windows = _windows(game, [seat])
    return _one(game, [_game_over(_About(game, state), seat, windows)], windows)


def handover(game: Game, seat: Seat) -> None:
    """Tell the player (and the game's creator) that a computer player took their seat."""
    state = game.engine_state()
    context = _game_context(game, seat, state)
    context["player_name"] = seat.name
    for user in {u for u in (seat.user, game.created_by) if u is not None}:
        if user != seat.user and seat.user_id in set(blocked_ids(user)):
            continue  # nothing about a player the creator blocked reaches them
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
    return [
        s
        for s in seats
        if s.game.state and s.position in kinds.of(s.game).awaiting(s.game.engine_state())
    ]


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
