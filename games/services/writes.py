"""The write path every service shares: lock the game row, let the game progress without
waiting for a person, then store the snapshot, its projections and the new Move rows, and
schedule what comes after (the round's closing, the end of the game's announcement).

Each write runs in one transaction with the game row locked (``FOR UPDATE``: PostgreSQL
serialises concurrent submissions); the version is bumped on every change.
"""

from __future__ import annotations

from typing import Any

from celery import current_app
from django.db import connection, transaction
from django.utils import timezone

from .. import deadlines, handoff, kinds, mails, pollcache, usercache
from ..kinds import GameKind
from ..models import Game, Move, Seat, Seats
from ..rowsread import read_together
from ..signals import game_ended
from .onetrip import OneTrip

CLOSE_ROUND_TASK = "games.tasks.close_round"

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

# What a write may change on a seat (through ``Seats.change``; the rest is the lobby's).
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


def lock_game(game_id: int) -> Game:
    """The game row, locked (``FOR UPDATE`` where the database has it); raises
    ``Game.DoesNotExist`` as ``get`` does.

    Written out rather than built by the ORM (``select_for_update().get()``): every write
    starts here, and compiling that query for the game's 28 columns was a tenth of the
    ORM's work in a turn submitted through the API (0.49 -> 0.34 ms CPU; the columns
    become fields by their names, as in any ``raw`` query)."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    table = connection.ops.quote_name(Game._meta.db_table)
    found = list(Game.objects.raw(f"SELECT * FROM {table} WHERE id = %s{lock}", [game_id]))
    if not found:
        raise Game.DoesNotExist(f"No game {game_id}.")
    return found[0]


def lock_game_and_seats(game_id: int, asking: Any = None) -> tuple[Game, Seats]:
    """The game row locked for this transaction, then its seats (locked as well) with their
    players, in seat order: the same lock order in every write, in one round trip
    (``rowsread.read_together``). The seats are handed on (an answer drawn after the write
    takes them from ``SubmitResult.seats``): ``game.seats.all()`` would read them again.
    The user ``asking`` (loaded for the request) is the seat's own: not looked up again."""
    game, seats = read_together(Game, game_id, Seat, "game", "position", lock=True)
    for seat in seats:
        seat.game = game  # the game read, not read again through the seat
    usercache.give_users(seats, known=[asking])
    return game, Seats(seats)


def move_row(game: Game, move: Any, user: Any = None, key: str | None = None) -> Move:
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


def progress(game: Game, state: Any, seats: Seats, moves: list[Move]) -> Any:
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
                seats.change(seat, last_acted_move=game.moves_count + 1, awaiting_since=None)
                break
        if move is None:
            break
        state = kind.advance(kind.apply(state, move))
        moves.append(move_row(game, move))
    return state


def commit(game: Game, before: Any, state: Any, seats: Seats, moves: list[Move]) -> None:
    """Write the new moves, snapshot and projections; schedule what comes after."""
    game.needs_closing = kinds.of(game).needs_resolution(state)
    now = timezone.now()
    deadlines.update(game, state, seats, now)
    _store(game, state, seats, moves)
    mails.after_change(game, before, state, seats)
    if game.needs_closing:
        schedule_closing(game.pk)


def after_commit(callback: Any) -> None:
    """Run ``callback`` once this transaction has committed (never for one rolled back),
    whatever runs the tasks: the data it announces must be there for any reader."""
    transaction.on_commit(callback, robust=True)


def announce_end(game: Game) -> None:
    game_id, status = game.pk, "finished" if game.status == Game.Status.FINISHED else "aborted"
    after_commit(lambda: game_ended.send(sender=Game, game_id=game_id, status=status))


def schedule_closing(game_id: int) -> None:
    """Have a worker reveal the round once this transaction is committed."""
    # Sent by the task's name: the tasks module imports the services, not the reverse.
    task = current_app.tasks[CLOSE_ROUND_TASK]
    handoff.send_after_commit(task, game_id)


def close_game_round(game_id: int) -> bool:
    """Reveal a complete round, score a season or the game, move on to the next round.

    Idempotent: a second call (late, or on another worker waiting on the row lock) finds
    nothing to close and changes nothing. Returns whether it closed anything.
    """
    with transaction.atomic():
        game, seats = lock_game_and_seats(game_id)
        if not game.needs_closing or game.status != Game.Status.ACTIVE:
            return False
        before = game.engine_state()
        state = before
        kind = kinds.of(game)
        moves: list[Move] = []
        while kind.needs_resolution(state):
            state = kind.resolve(state)  # reveal, score, the next round
            state = progress(game, state, seats, moves)
        commit(game, before, state, seats, moves)
        return True


def _store(game: Game, state: Any, seats: Seats, moves: list[Move]) -> None:
    """Save the new moves, the snapshot, the seats' changes and the projections (the first
    three in one round trip); bump the version and publish it."""
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
    for seat, score in zip(seats, kind.scores(state), strict=True):
        seats.change(seat, score=score)
    trip = OneTrip()
    trip.update_object(game, GAME_STATE_FIELDS)
    # Only the seats and fields this write changed: a turn changes its own seat's move
    # count and clock, and leaves the other seats alone until the round is revealed.
    # (A plain UPDATE each, or one for seats changed alike: bulk_update's CASE
    # expressions took three times as long to build and run.)
    for values, pks in seats.changes():
        trip.update(Seat, pks, values)
    trip.insert(moves)
    trip.run()
    pollcache.publish(game)  # as a save() of the game would (its post_save)
    kind.store_projections(game, old, state)
    if ended:
        # Last, after the final scores are written: the receivers read them back.
        announce_end(game)


def rebuild_state(game: Game) -> Any:
    """Replay the Move rows from the seed (the source of truth)."""
    return game.record().replay()
