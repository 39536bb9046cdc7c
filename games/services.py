"""Every write to a game goes through here: one function per kind of write.

HTML views, the API, Celery tasks and the admin all call these functions, so a rule,
permission or transition is written once. Each write runs in one transaction with the
game row locked (``select_for_update``: PostgreSQL serialises concurrent submissions;
SQLite serialises all writes anyway); the engine validates; a Move row is appended; the
snapshot and its projections are updated and the version bumped.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from . import deadlines, kinds, mails
from .kinds import GameKind, Refusal
from .models import Game, Move, Player, Seat
from .signals import game_ended
from .timecontrol import BadTimeControl, check_time_control

CLOSE_ROUND_TASK = "games.tasks.close_round"


class ServiceError(Exception):
    """A refused write: a stable ``code``, a readable ``message``, an HTTP-like ``status``."""

    status = 400

    def __init__(self, message: str, code: str, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        if status is not None:
            self.status = status

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class NotAPlayer(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


def not_a_player() -> NotAPlayer:
    """The refusal of someone without a seat in the game (the pages, the API, here)."""
    return NotAPlayer(_("You are not a player of this game."), "not_a_player")


def refused(exc: Refusal) -> ServiceError:
    """A game's refusal as the service's error (409 when it means "not now")."""
    return (Conflict if exc.conflict else ServiceError)(exc.message, exc.code)


@dataclass(frozen=True)
class SubmitResult:
    game: Game
    move: Move
    state: Any  # the game kind's state after the move
    repeated: bool = False  # True when an idempotency key returned an earlier result


def seat_of(game: Game, user: Any) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


# --- Creating and joining ------------------------------------------------------------------


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
) -> Game:
    """Open a game of ``kind`` (the default kind when None) with ``user`` in seat 0 and
    ``computer_seats`` bots; start it when full. ``options`` are the kind's (Evergreen's
    ``sun_start`` has its own argument). ``players == 1`` is a solo game.
    """
    try:
        game_kind = kinds.get(kind or kinds.default_name())
    except LookupError:
        raise ServiceError(_("Unknown game."), "bad_kind") from None
    try:
        setup = game_kind.check_setup(players, {"sun_start": sun_start, **(options or {})})
    except Refusal as exc:
        raise refused(exc) from exc
    bot = bot or game_kind.default_bot
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
        raise ServiceError(_("Unknown computer player."), "bad_bot")
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


def _start(game: Game) -> None:
    game.seed = secrets.randbits(62)
    try:
        state = kinds.of(game).new_game(game.setup())
    except Refusal as exc:
        raise refused(exc) from exc
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    seats = list(game.seats.select_related("user__player").order_by("position"))
    bank = game.time_bank_hours * 3600
    for seat in seats:
        seat.time_bank_seconds = bank
    moves: list[Move] = []
    initial = state
    state = _progress(game, state, seats, moves)
    _commit(game, initial, state, seats, moves)


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


# --- Moves ------------------------------------------------------------------------------------


MAX_IDEMPOTENCY_KEY = Move._meta.get_field("idempotency_key").max_length or 0


def _check_key(key: str | None) -> None:
    """Refuse a key the database could not store (too long, or with a NUL character)."""
    if key and (len(key) > MAX_IDEMPOTENCY_KEY or "\x00" in key):
        raise ServiceError(
            _("An idempotency key has at most %(n)d characters, and no NUL character.")
            % {"n": MAX_IDEMPOTENCY_KEY},
            "bad_idempotency_key",
        )


def earlier_move(game_id: int, user: Any, idempotency_key: str | None) -> dict[str, Any] | None:
    """The move ``user`` already sent with ``idempotency_key`` in this game, if any.

    Lets a page that can no longer rebuild a submitted turn repeat it exactly.
    """
    if not idempotency_key or not getattr(user, "is_authenticated", False):
        return None
    _check_key(idempotency_key)
    payload = (
        Move.objects.filter(game_id=game_id, user=user, idempotency_key=idempotency_key)
        .values_list("payload", flat=True)
        .first()
    )
    return payload


def _parse(kind: GameKind, move: Any, seat: int) -> Any:
    """The move for ``seat``: the seat always comes from who is asking, not from the payload.
    Raises the kind's ``Refusal`` for a malformed move."""
    return kind.move_from_json(move, seat)


# What a move, a closing or a start changes on the game row (the rest is written by
# create_game / join_game / abort_game).
GAME_STATE_FIELDS = (
    "seed",
    "status",
    "started_at",
    "finished_at",
    "state",
    "phase",
    "season",
    "round",
    "version",
    "needs_closing",
    "moves_count",
    "updated_at",
)

SEAT_STATE_FIELDS = (
    "score",
    "deadline",
    "awaiting_since",
    "time_bank_seconds",
    "timeouts_in_row",
    "handed_to_bot",
    "bot",
    "last_acted_move",
    "standing_order",
    "standing_order_round",
)


def _lock_game(game_id: int) -> Game:
    """The game row, locked (``FOR UPDATE`` where the database has it): one plain query,
    as it is read on every move (the ORM spent longer compiling it than running it)."""
    from django.db import connection

    sql = f"SELECT * FROM {Game._meta.db_table} WHERE id = %s"
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    game = next(iter(Game.objects.raw(sql, [game_id])), None)
    if game is None:
        raise Game.DoesNotExist(f"No game {game_id}.")
    return game


def _locked(game_id: int) -> tuple[Game, list[Seat]]:
    """The game row locked for this transaction, and its seats with their players.

    Each seat remembers the values it was loaded with, so only what changed is written.
    """
    game = _lock_game(game_id)
    seats = list(Seat.objects.filter(game=game).select_related("user__player").order_by("position"))
    for seat in seats:
        seat._loaded = {name: getattr(seat, name) for name in SEAT_STATE_FIELDS}  # type: ignore[attr-defined]
    return game, seats


def submit_move(
    game_id: int,
    user: Any,
    move: Any,
    *,
    idempotency_key: str | None = None,
    expected_version: int | None = None,
) -> SubmitResult:
    """Validate and record ``user``'s pick or turn.

    Raises ``ServiceError`` (400, the engine's code and message) for an illegal or
    malformed move, ``NotAPlayer`` (403) for someone without a seat, ``Conflict`` (409)
    when it is not their move or ``expected_version`` is stale. The same
    ``idempotency_key`` returns the first result without playing the move again.
    """
    _check_key(idempotency_key)
    try:
        with transaction.atomic():
            game, seats = _locked(game_id)
            seat = _seat_for(seats, user)
            try:
                return _play(game, seats, seat, user, move, idempotency_key, expected_version)
            except ServiceError:
                # A refusal may be the retry of a move already made with this key.
                repeated = _repeated(game, seats, seat, move, idempotency_key)
                if repeated is None:
                    raise
                return repeated
    except IntegrityError:
        # The key's unique constraint refused the new Move row: the move was played
        # before (or the key was used for another one). Answer as the first time.
        if not idempotency_key:
            raise
        with transaction.atomic():
            game, seats = _locked(game_id)
            seat = _seat_for(seats, user)
            repeated = _repeated(game, seats, seat, move, idempotency_key)
            if repeated is None:
                raise
            return repeated


def move_refusal(game_id: int, user: Any, move_type: str) -> ServiceError | None:
    """Why ``user`` may make no move of ``move_type`` in the game now, as ``submit_move``
    would refuse any such move (None: they may). Reads only."""
    game = Game.objects.get(pk=game_id)
    seats = list(game.seats.all())
    seat = _seat_for(seats, user)
    if game.status != Game.Status.ACTIVE:
        return Conflict(_("This game is not being played."), "game_not_active")
    refusal = kinds.of(game).move_refusal(game.engine_state(), seat.position, move_type)
    return refused(refusal) if refusal is not None else None


def _seat_for(seats: list[Seat], user: Any) -> Seat:
    seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise not_a_player()
    return seat


def _repeated(
    game: Game,
    seats: list[Seat],
    seat: Seat,
    move: Any,
    idempotency_key: str | None,
) -> SubmitResult | None:
    """The first result of a move already made with ``idempotency_key``; None when the
    key is new. Raises ``Conflict`` when the key was used for a different move.

    Only looked up after a refusal or a clash on the key's unique constraint: a fresh
    move costs no query for it."""
    if not idempotency_key:
        return None
    earlier = game.moves.filter(idempotency_key=idempotency_key).first()
    if earlier is None:
        return None
    kind = kinds.of(game)
    try:
        same = kind.move_to_json(_parse(kind, move, seat.position)) == earlier.payload
    except Refusal:
        same = False
    if earlier.seat != seat.position or not same:
        raise Conflict(
            _("This idempotency key was used for another move."), "idempotency_key_reused"
        )
    _attach_seats(game, seats)
    return SubmitResult(game, earlier, game.engine_state(), repeated=True)


def _play(
    game: Game,
    seats: list[Seat],
    seat: Seat,
    user: Any,
    move: Any,
    idempotency_key: str | None,
    expected_version: int | None,
) -> SubmitResult:
    if game.status != Game.Status.ACTIVE:
        raise Conflict(_("This game is not being played."), "game_not_active")
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            _("The game has moved on since you loaded it: look again and resubmit."),
            "stale_version",
        )
    before = game.engine_state()
    kind = kinds.of(game)
    try:
        parsed = _parse(kind, move, seat.position)
        state = kind.apply(before, parsed)
    except Refusal as exc:
        raise refused(exc) from exc
    record = _move_row(game, parsed, user, idempotency_key)
    moves = [record]
    seat.timeouts_in_row = 0
    seat.last_acted_move = record.number
    seat.awaiting_since = None  # a fresh deadline for whatever this seat must do next
    state = _progress(game, state, seats, moves)
    _commit(game, before, state, seats, moves)
    if game.needs_closing and _eager():
        game.refresh_from_db()  # closed inline: read the revealed round back
        seats = list(
            Seat.objects.filter(game=game).select_related("user__player").order_by("position")
        )
    _attach_seats(game, seats)
    return SubmitResult(game, record, game.engine_state())


def _move_row(game: Game, move: Any, user: Any = None, key: str | None = None) -> Move:
    kind = kinds.of(game)
    game.moves_count += 1
    return Move(
        game=game,
        number=game.moves_count,
        seat=kind.move_seat(move),
        kind=kind.move_kind(move),
        payload=kind.move_to_json(move),
        user=user,
        idempotency_key=key or None,
        result_version=game.version + 1,
    )


def standing_order(kind: GameKind, state: Any, seat: Seat) -> list[str]:
    """The seat's standing order if it was given for this round, else nothing."""
    if seat.standing_order_round != kind.round_key(state):
        return []
    return list(seat.standing_order)


def round_key(game: Game, state: Any) -> str:
    return kinds.of(game).round_key(state)


def _progress(game: Game, state: Any, seats: list[Seat], moves: list[Move]) -> Any:
    """Everything that happens without waiting for a person, short of revealing a round:
    the game's own steps (A.I. picks, clean-up), computer players' moves and moves made
    from standing orders. Stops when a person must act or the round waits to be revealed."""
    kind = kinds.of(game)
    state = kind.advance(state)
    while not kind.is_over(state) and not kind.needs_resolution(state):
        move: Any = None
        for position in kind.awaiting(state):
            seat = seats[position]
            if seat.bot:
                seed = game.seed ^ (game.moves_count * 7919 + position)
                move = kind.bot_move(seat.bot, state, position, seed)
                break
            move = kind.standing_move(state, position, standing_order(kind, state, seat))
            if move is not None:
                seat.last_acted_move = game.moves_count + 1
                seat.awaiting_since = None
                break
        if move is None:
            break
        state = kind.advance(kind.apply(state, move))
        moves.append(_move_row(game, move))
    return state


def _commit(game: Game, before: Any, state: Any, seats: list[Seat], moves: list[Move]) -> None:
    """Write the new moves, snapshot and projections; schedule what comes after."""
    if moves:
        Move.objects.bulk_create(moves)
    game.needs_closing = kinds.of(game).needs_resolution(state)
    now = timezone.now()
    deadlines.update(game, state, seats, now)
    _store(game, state, seats)
    mails.after_change(game, before, state, seats)
    if game.needs_closing:
        schedule_closing(game.pk)


def _eager() -> bool:
    return bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))


def after_commit(callback: Any) -> None:
    """Run ``callback`` once this transaction has committed; inline when Celery runs
    eagerly (tests and one-process setups, where nothing else reads the data)."""
    if _eager():
        callback()
    else:
        transaction.on_commit(callback, robust=True)


def announce_end(game: Game) -> None:
    game_id, status = game.pk, "finished" if game.status == Game.Status.FINISHED else "aborted"
    after_commit(lambda: game_ended.send(sender=Game, game_id=game_id, status=status))


def _attach_seats(game: Game, seats: list[Seat]) -> None:
    """Hand the seats already loaded to ``game.seats.all()``, as prefetch_related would,
    so the caller renders its answer without reading them again."""
    queryset = game.seats.all()
    queryset._result_cache = list(seats)  # type: ignore[attr-defined]
    queryset._prefetch_done = True  # type: ignore[attr-defined]
    game._prefetched_objects_cache = {"seats": queryset}  # type: ignore[attr-defined]


def schedule_closing(game_id: int) -> None:
    """Have a worker reveal the round once this transaction is committed (inline when
    Celery runs eagerly: no other process would read the data then)."""
    if _eager():
        close_game_round(game_id)
    else:
        # Sent by the task's name: the tasks module imports the services, not the reverse.
        task = current_app.tasks[CLOSE_ROUND_TASK]
        transaction.on_commit(lambda: task.delay(game_id), robust=True)


def close_game_round(game_id: int) -> bool:
    """Reveal a complete round, score a season or the game, move on to the next round.

    Idempotent: a second call (late, or on another worker waiting on the row lock) finds
    nothing to close and changes nothing. Returns whether it closed anything.
    """
    with transaction.atomic():
        game, seats = _locked(game_id)
        if not game.needs_closing or game.status != Game.Status.ACTIVE:
            return False
        before = game.engine_state()
        state = before
        kind = kinds.of(game)
        moves: list[Move] = []
        while kind.needs_resolution(state):
            state = kind.resolve(state)  # reveal, score, the next round
            state = _progress(game, state, seats, moves)
        _commit(game, before, state, seats, moves)
        return True


def _store(game: Game, state: Any, seats: list[Seat]) -> None:
    """Save the snapshot and its projections; bump the version."""
    kind = kinds.of(game)
    old = game.state
    snapshot = kind.state_to_json(state)
    game.remember_state(snapshot, state)
    summary = kind.summary(state)
    game.phase, game.season, game.round = summary.phase, summary.season, summary.round
    game.version += 1
    ended = kind.is_over(state) and game.status == Game.Status.ACTIVE
    if ended:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
    game.save(update_fields=GAME_STATE_FIELDS)
    for seat, score in zip(seats, kind.scores(state), strict=True):
        seat.score = score
        loaded = getattr(seat, "_loaded", None)
        if loaded is None:
            changed = {name: getattr(seat, name) for name in SEAT_STATE_FIELDS}
        else:
            changed = {
                name: getattr(seat, name)
                for name, value in loaded.items()
                if getattr(seat, name) != value
            }
        if changed:
            Seat.objects.filter(pk=seat.pk).update(**changed)
        seat._loaded = {name: getattr(seat, name) for name in SEAT_STATE_FIELDS}  # type: ignore[attr-defined]
    kind.store_projections(game, old, state)
    if ended:
        # Last, after the final scores are written: when Celery runs eagerly the
        # receivers run at once and read them back.
        announce_end(game)


def rebuild_state(game: Game) -> Any:
    """Replay the Move rows from the seed (the source of truth)."""
    return game.record().replay()


# --- Standing orders and vacations ------------------------------------------------------------

VACATION_DAYS_PER_YEAR = 30


def set_standing_order(game_id: int, user: Any, ranking: list[str]) -> Seat:
    """Rank the cards of this round's pool: at this seat's pick, the first one still there is
    taken at once (no wait, no mail). Private; replaceable until used; an empty list clears it.
    """
    with transaction.atomic():
        game, seats = _locked(game_id)
        seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
        if seat is None:
            raise not_a_player()
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("This game is not being played."), "game_not_active")
        state = game.engine_state()
        kind = kinds.of(game)
        try:
            kind.check_standing_order(state, seat.position, ranking)
        except Refusal as exc:
            raise refused(exc) from exc
        seat.standing_order = list(ranking)
        seat.standing_order_round = kind.round_key(state) if ranking else ""
        moves: list[Move] = []
        after = _progress(game, state, seats, moves)
        if moves:
            _commit(game, state, after, seats, moves)
        else:
            seat.save(update_fields=["standing_order", "standing_order_round"])
        return seat


def start_vacation(user: Any, days: int, now: Any = None) -> Player:
    """Pause the player's clocks for ``days`` (at most 30 days a year in all)."""
    now = now or timezone.now()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(user=user)
        if player.vacation_year != now.year:
            player.vacation_year, player.vacation_days_used = now.year, 0
        if days < 1:
            raise ServiceError(_("A vacation lasts at least one day."), "bad_vacation")
        left = VACATION_DAYS_PER_YEAR - player.vacation_days_used
        if days > left:
            raise ServiceError(
                ngettext(
                    "You have %(left)d vacation day left this year.",
                    "You have %(left)d vacation days left this year.",
                    left,
                )
                % {"left": left},
                "vacation_exhausted",
            )
        if player.vacation_until and player.vacation_until > now:
            raise Conflict(_("You are already on vacation."), "already_on_vacation")
        until = now + timedelta(days=days)
        player.vacation_until = until
        player.vacation_days_used += days
        player.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
        for seat in Seat.objects.select_for_update().filter(user=user, deadline__isnull=False):
            assert seat.deadline is not None
            seat.deadline = until + max(seat.deadline - now, timedelta(0))
            seat.save(update_fields=["deadline"])
        return player


def end_vacation(user: Any, now: Any = None) -> Player:
    """Come back early: unused days are given back, clocks restart from now."""
    now = now or timezone.now()
    with transaction.atomic():
        player = Player.objects.select_for_update().get(user=user)
        until = player.vacation_until
        if until is None or until <= now:
            raise Conflict(_("You are not on vacation."), "not_on_vacation")
        unused = (until - now).days
        player.vacation_days_used = max(0, player.vacation_days_used - unused)
        player.vacation_until = None
        player.save(update_fields=["vacation_until", "vacation_days_used"])
        for seat in Seat.objects.select_for_update().filter(user=user, deadline__isnull=False):
            assert seat.deadline is not None
            seat.deadline = now + max(seat.deadline - until, timedelta(0))
            seat.save(update_fields=["deadline"])
        return player


# --- Events: seats handed to the bot, adjudication ------------------------------------------


def hand_seat_to_bot(game_id: int, position: int, bot: str = "") -> bool:
    """A computer player takes over the seat for the rest of the game (its user stays
    the seat's player: the result counts as theirs). Returns False, changing nothing, when
    the game is over or a computer player already plays the seat."""
    with transaction.atomic():
        game, seats = _locked(game_id)
        if game.status != Game.Status.ACTIVE:
            return False
        seat = seats[position]
        if seat.bot:
            return False
        seat.bot = bot or kinds.of(game).default_bot
        seat.handed_to_bot = True
        seat.awaiting_since = None
        before = game.engine_state()
        moves: list[Move] = []
        state = _progress(game, before, seats, moves)
        _commit(game, before, state, seats, moves)
        return True


def adjudicate_game(game_id: int, by_user: Any = None) -> Game:
    """End a stalled game now with the scores it has (a tournament organizer's ruling).

    The game is finished as if played out: status finished, clocks stopped, ``game_ended``
    sent; the result is the scores the seats show now (``Seat.score``, kept in step with
    the state by every move). Permission is the caller's to check. Raises ``Conflict``
    when the game is not being played.
    """
    with transaction.atomic():
        game, seats = _locked(game_id)
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


# --- Event tables: a game an event seats ------------------------------------------------------


@transaction.atomic
def create_table_game(
    users: Sequence[Any],
    *,
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
        players=len(users),
        rated=rated,
        days_per_move=days_per_move,
        hours_per_move=hours_per_move,
        time_bank_hours=time_bank_hours,
        timeout_policy=timeout_policy,
    )
    game = _lock_game(game.pk)
    game.created_by = created_by
    game.save(update_fields=["created_by"])
    for user in users[1:]:
        join_game(game.pk, user)
    for position in sorted(bot_seats):
        hand_seat_to_bot(game.pk, position)
    game.refresh_from_db()
    return game
