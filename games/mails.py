"""What the e-mails about games say and when they are created: "your move", reminders,
seasons scored, the end of a game, hand-overs to a computer player, daily digests.

Each is recorded once under a unique key in the outbox (``games.outbox``); what a mail
says about the game itself (season breakdowns, the final result, the recap) comes from
its kind (``games.kinds``). The table of which player gets which mail, coalescing and
quiet hours are described in ``games.notifications``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Max, OuterRef, Subquery
from django.urls import reverse
from django.utils import timezone

from conversations.shields import blocked_ids

from . import kinds
from .models import Game, Move, Notification, Player, Seat
from .outbox import Kind, Mode, create, player_of, wants, zone_of
from .site import site_url


def _human(seat: Seat) -> bool:
    return seat.user_id is not None and not seat.bot


def after_change(game: Game, before: Any, state: Any, seats: list[Seat]) -> None:
    """Notifications for a change of the game: whose move it is now, seasons scored, the end."""
    kind = kinds.of(game)
    awaiting = set(kind.awaiting(state))
    if before == state:
        newly = awaiting  # nothing moved: the game has just started
    else:
        same = kind.decision_key(before) == kind.decision_key(state)
        newly = awaiting - (set(kind.awaiting(before)) if same else set())
    for position in sorted(newly):
        seat = seats[position]
        if _human(seat):
            your_move(game, seat, state)
    # Seasons scored by this change; the last one of a finished game is in "game over".
    for season in range(kind.summary(before).season, kind.summary(state).season):
        for seat in seats:
            if _human(seat):
                season_scored(game, seat, state, season)
    if kind.is_over(state) and not kind.is_over(before):
        for seat in seats:
            if _human(seat):
                game_over(game, seat, state)


def _game_context(game: Game, seat: Seat, state: Any) -> dict[str, Any]:
    kind = kinds.of(game)
    summary = kind.summary(state)
    return {
        "game_id": game.pk,
        "game_url": site_url(reverse("games:detail", args=[game.pk])),
        "seat": seat.position,
        "season": summary.season,
        "round": summary.round,
        "phase": summary.phase,
        "scores": list(kind.scores(state)),
    }


def last_activity(user: Any, game: Game) -> datetime | None:
    """When ``user`` last moved in ``game`` from a page, or was last mailed about it.

    Both read in one query (two subqueries): it runs inside the move that creates a
    coalesced player's "your move" mail."""
    if user is None:
        return None
    moved = Move.objects.filter(game=OuterRef("pk"), user=user).order_by()
    mailed = Notification.objects.filter(
        game=OuterRef("pk"), user=user, status=Notification.Status.SENT
    ).order_by()
    last = (
        Game.objects.filter(pk=game.pk)
        .values_list(
            Subquery(moved.values("game").annotate(at=Max("created_at")).values("at")),
            Subquery(mailed.values("game").annotate(at=Max("sent_at")).values("at")),
        )
        .first()
    )
    if last is None:
        return None
    times = [t for t in last if t is not None]
    return max(times) if times else None


def _coalesced_send_after(player: Player | None, user: Any, game: Game) -> datetime | None:
    """When a coalesced player's next mail about ``game`` may go: the end of the window
    after they last acted in it or were mailed about it (None: not coalesced)."""
    if player is None or player.email_mode != Mode.COALESCED:
        return None
    now = timezone.now()
    window = timedelta(hours=max(1, player.email_every_hours))
    last = last_activity(user, game)
    return last + window if last is not None and now < last + window else now


def your_move(game: Game, seat: Seat, state: Any) -> Notification | None:
    player = player_of(seat.user)
    if not wants(player, Kind.YOUR_MOVE):
        return None
    context = _game_context(game, seat, state)
    context["deadline"] = seat.deadline.isoformat() if seat.deadline else None
    key = f"move:{game.pk}:{seat.position}:{kinds.of(game).decision_key(state)}"
    later = _coalesced_send_after(player, seat.user, game)
    note = create(seat.user, game, Kind.YOUR_MOVE, key, context, later or timezone.now())
    if note is not None and later is not None:
        # One mail at most waits per game: this one replaces any earlier, unsent one.
        Notification.objects.filter(
            user=seat.user, game=game, kind=Kind.YOUR_MOVE, status=Notification.Status.PENDING
        ).exclude(pk=note.pk).update(
            status=Notification.Status.SKIPPED, last_error=f"replaced by {key}"
        )
    return note


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
        Notification.objects.filter(
            user=seat.user, game=game, kind=Kind.YOUR_MOVE, status=Notification.Status.PENDING
        ).update(status=Notification.Status.SKIPPED, last_error=f"replaced by {key}")
    return note


def season_scored(game: Game, seat: Seat, state: Any, season: int) -> Notification | None:
    if not wants(player_of(seat.user), Kind.SEASON):
        return None
    context = _game_context(game, seat, state)
    context["scored_season"] = season
    context["breakdown"] = kinds.of(game).season_rows(state, season)
    key = f"season:{game.pk}:{seat.position}:{season}"
    return create(seat.user, game, Kind.SEASON, key, context)


def game_over(game: Game, seat: Seat, state: Any) -> Notification | None:
    if not wants(player_of(seat.user), Kind.GAME_OVER):
        return None
    context = _game_context(game, seat, state)
    context.update(kinds.of(game).final_context(state))
    key = f"over:{game.pk}:{seat.position}"
    # Coalesced, the end waits for the window too: whoever made the last move saw it.
    later = _coalesced_send_after(player_of(seat.user), seat.user, game)
    return create(seat.user, game, Kind.GAME_OVER, key, context, later)


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
