"""Moves: submitting a pick or a turn (idempotent with a key), and asking whether one
may be made now."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from .. import kinds
from ..kinds import GameKind, Refusal
from ..models import Game, Move, Seat, Seats
from .errors import Conflict, ServiceError, not_a_player, refused
from .unseen import unseen_changes_only
from .writes import commit, lock_game_and_seats, move_row, progress


@dataclass(frozen=True)
class SubmitResult:
    game: Game
    seats: list[Seat]  # the game's, in seat order, as the write left them (with their users)
    move: Move
    state: Any  # the game kind's state after the move
    repeated: bool = False  # True when an idempotency key returned an earlier result


def seat_of(game: Game, user: Any, seats: Iterable[Seat] | None = None) -> Seat | None:
    """``user``'s seat among ``seats`` (by default the game's), None for a spectator."""
    if not getattr(user, "is_authenticated", False):
        return None
    for seat in game.seats_in_order() if seats is None else seats:
        if seat.user_id == user.pk:
            return seat
    return None


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
            game, seats = lock_game_and_seats(game_id, user)
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
            game, seats = lock_game_and_seats(game_id, user)
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
    return SubmitResult(game, seats, earlier, game.engine_state(), repeated=True)


def _play(
    game: Game,
    seats: Seats,
    seat: Seat,
    user: Any,
    move: Any,
    idempotency_key: str | None,
    expected_version: int | None,
) -> SubmitResult:
    if game.status != Game.Status.ACTIVE:
        raise Conflict(_("This game is not being played."), "game_not_active")
    if (
        expected_version is not None
        and expected_version != game.version
        and not unseen_changes_only(game, seat.position, expected_version)
    ):
        raise Conflict(
            _(
                "Someone has moved since this page was loaded (perhaps you, in another "
                "tab): here is the game as it is now. Look again, then play."
            ),
            "stale_version",
        )
    before = game.engine_state()
    kind = kinds.of(game)
    try:
        parsed = _parse(kind, move, seat.position)
        state = kind.apply(before, parsed)
    except Refusal as exc:
        raise refused(exc) from exc
    record = move_row(game, parsed, user, idempotency_key)
    moves = [record]
    # A fresh deadline for whatever this seat must do next (awaiting_since cleared).
    seats.change(seat, timeouts_in_row=0, last_acted_move=record.number, awaiting_since=None)
    state = progress(game, state, seats, moves)
    commit(game, before, state, seats, moves)
    return SubmitResult(game, seats, record, game.engine_state())
