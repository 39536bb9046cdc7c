"""A game's life outside play: creating and joining it, an event's table, aborting it,
an organizer's adjudication."""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import kinds
from ..kinds import Refusal
from ..models import Game, Move, Player, Seat, Seats
from ..timecontrol import BadTimeControl, check_time_control
from .errors import Conflict, NotAPlayer, ServiceError, refused
from .seats import hand_seat_to_bot
from .writes import announce_end, commit, lock_game, lock_game_and_seats, progress


def bot_refusal(game_kind: kinds.GameKind, bot: str) -> str:
    """Why ``bot`` cannot play ``game_kind``, naming the computer players it has."""
    return _("%(game)s has no computer player “%(bot)s”: choose %(choices)s.") % {
        "game": game_kind.title,
        "bot": str(bot)[:40],
        "choices": ", ".join(str(label) for label in game_kind.bots.values()),
    }


@transaction.atomic
def create_game(
    user: Any,
    *,
    kind: str | None = None,
    players: int = 2,
    computer_seats: int = 0,
    bot: str | None = None,
    sun_start: str = "N",
    options: dict[str, Any] | None = None,
    rated: bool = False,
    days_per_move: int | None = None,
    hours_per_move: int | None = None,
    time_bank_hours: int = 0,
    timeout_policy: str = "bot",
    seed: int | None = None,
) -> Game:
    """Open a game of ``kind`` (the default kind when None) with ``user`` in seat 0 and
    ``computer_seats`` bots; start it when full. ``options`` are the kind's (Evergreen's
    ``sun_start`` has its own argument). ``players == 1`` is a solo game. ``seed`` deals
    it, now or when the last player joins (a daily challenge deals everyone the same
    game); a fresh random one by default. One transaction: refused, nothing is written.
    """
    try:
        game_kind = kinds.get(kind or kinds.default_name())
    except LookupError:
        raise ServiceError(_("Unknown game."), "bad_kind") from None
    try:
        setup = game_kind.check_setup(players, {"sun_start": sun_start, **(options or {})})
    except Refusal as exc:
        raise refused(exc) from exc
    # With no computer seat the choice of computer player is moot (the lobby form always
    # sends one, perhaps another game's): the game's own default then.
    bot = (bot if computer_seats else None) or game_kind.default_bot
    if not 0 <= computer_seats < players:
        raise ServiceError(
            _("Computer players can fill at most all seats but yours."), "bad_computer_seats"
        )
    try:
        check_time_control(days_per_move, hours_per_move, time_bank_hours)
    except BadTimeControl as exc:
        raise ServiceError(exc.message, exc.code) from None
    if timeout_policy not in ("bot", "minimal"):
        raise ServiceError(_("Unknown timeout policy."), "bad_timeout_policy")
    if bot not in game_kind.bots:
        raise ServiceError(bot_refusal(game_kind, bot), "bad_bot")
    Player.for_user(user)
    game = Game.objects.create(
        kind=game_kind.name,
        players=players,
        solo=players == 1,
        edition=setup.pop("edition", ""),
        sun_start=setup.pop("sun_start", "N"),
        options=setup,
        rated=rated and players > 1 and computer_seats == 0,
        days_per_move=days_per_move,
        hours_per_move=hours_per_move,
        time_bank_hours=time_bank_hours,
        timeout_policy=timeout_policy,
        created_by=user,
        # Drawn now, dealt at the start: kept on the row, which no reader shows before
        # the game has ended.
        seed=secrets.randbits(62) if seed is None else seed,
    )
    Seat.objects.create(game=game, position=0, user=user)
    for position in range(1, players):
        Seat.objects.create(
            game=game, position=position, bot=bot if position <= computer_seats else ""
        )
    if players == 1 or computer_seats == players - 1:
        _start(game)
    return game


@transaction.atomic
def join_game(game_id: int, user: Any, invite_code: str | None = None) -> Game:
    """Take the first open seat; the game starts when the last seat is taken."""
    game = Game.objects.select_for_update().get(pk=game_id)
    if invite_code is not None and not secrets.compare_digest(
        invite_code.encode(),
        game.invite_code.encode(),  # str: ASCII only, else TypeError
    ):
        raise NotAPlayer(_("This invitation link is not valid."), "bad_invite")
    if game.status != Game.Status.OPEN:
        raise Conflict(_("This game is not open for players any more."), "game_not_open")
    seats = list(game.seats.order_by("position"))
    if any(seat.user_id == user.pk for seat in seats):
        raise Conflict(_("You already have a seat in this game."), "already_joined")
    open_seats = [seat for seat in seats if seat.is_open]
    if not open_seats:
        raise Conflict(_("This game is full."), "game_full")
    Player.for_user(user)
    seat = open_seats[0]
    seat.user = user
    try:
        with transaction.atomic():
            seat.save(update_fields=["user"])
    except IntegrityError:
        raise Conflict(_("You already have a seat in this game."), "already_joined") from None
    if len(open_seats) == 1:
        _start(game)
    else:
        game.version += 1
        game.save(update_fields=["version", "updated_at"])
    return game


def rematch_game(old: Game) -> Game:
    """A new game with the players of ``old`` in the same seats (people and computer
    players alike) and the same settings, started at once (the caller holds the lock of
    ``old`` and has every person's consent). Called inside the caller's transaction."""
    game = Game.objects.create(
        kind=old.kind,
        players=old.players,
        solo=old.solo,
        edition=old.edition,
        sun_start=old.sun_start,
        options=old.options,
        rated=old.rated,
        days_per_move=old.days_per_move,
        hours_per_move=old.hours_per_move,
        time_bank_hours=old.time_bank_hours,
        timeout_policy=old.timeout_policy,
        created_by=old.created_by,
        seed=secrets.randbits(62),
    )
    for seat in old.seats.order_by("position"):
        Seat.objects.create(game=game, position=seat.position, user=seat.user, bot=seat.bot)
    _start(game)
    return game


def _start(game: Game) -> None:
    """Deal the game from the seed it was made with and play it to the first decision."""
    try:
        state = kinds.of(game).new_game(game.setup())
    except Refusal as exc:
        raise refused(exc) from exc
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    seats = Seats(game.seats.select_related("user__player").order_by("position"))
    bank = game.time_bank_hours * 3600
    for seat in seats:
        seats.change(seat, time_bank_seconds=bank)
    moves: list[Move] = []
    initial = state
    state = progress(game, state, seats, moves)
    commit(game, initial, state, seats, moves)


@transaction.atomic
def abort_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.is_finished:
        raise Conflict(_("This game is already over."), "game_over")
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.version += 1
    game.save(update_fields=["status", "finished_at", "version", "updated_at"])
    announce_end(game)
    return game


def adjudicate_game(game_id: int, by_user: Any = None) -> Game:
    """End a stalled game now with the scores it has (a tournament organizer's ruling).

    The game is finished as if played out: status finished, clocks stopped, ``game_ended``
    sent; the result is the scores the seats show now (``Seat.score``, kept in step with
    the state by every move). Permission is the caller's to check. Raises ``Conflict``
    when the game is not being played.
    """
    with transaction.atomic():
        game, seats = lock_game_and_seats(game_id)
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("Only a game being played can be adjudicated."), "game_not_active")
        for seat in seats:
            seat.deadline = None
            seat.awaiting_since = None
        Seat.objects.bulk_update(seats, ["deadline", "awaiting_since"])
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.needs_closing = False
        game.version += 1
        game.save(update_fields=["status", "finished_at", "needs_closing", "version", "updated_at"])
        announce_end(game)
        return game


@transaction.atomic
def create_table_game(
    users: Sequence[Any],
    *,
    kind: str | None = None,
    created_by: Any,
    bot_seats: Collection[int] = (),
    rated: bool = False,
    days_per_move: int | None = None,
    hours_per_move: int | None = None,
    time_bank_hours: int = 0,
    timeout_policy: str = "bot",
) -> Game:
    """A started game with ``users`` in this seat order (an event's table), made on behalf
    of ``created_by`` (the organizer, who hears of hand-overs to the bot as a game's
    creator does); the computer player takes ``bot_seats`` from the start."""
    game = create_game(
        users[0],
        kind=kind,
        players=len(users),
        rated=rated,
        days_per_move=days_per_move,
        hours_per_move=hours_per_move,
        time_bank_hours=time_bank_hours,
        timeout_policy=timeout_policy,
    )
    game = lock_game(game.pk)
    game.created_by = created_by
    game.save(update_fields=["created_by"])
    for user in users[1:]:
        join_game(game.pk, user)
    for position in sorted(bot_seats):
        hand_seat_to_bot(game.pk, position)
    game.refresh_from_db()
    return game
