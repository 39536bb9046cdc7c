"""Every write to a game goes through here: one function per kind of write.

HTML views, the API, Celery tasks and the admin all call these functions, so a rule,
permission or transition is written once. Each write runs in one transaction with the
game row locked (``select_for_update``: PostgreSQL serialises concurrent submissions;
SQLite serialises all writes anyway); the engine validates; a Move row is appended; the
snapshot and its projections are updated and the version bumped.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from evergreen import rules
from evergreen.rules.bots import make_bot

from .models import FertilityCard, Game, Move, Player, Seat

# Engine refusals that mean "not now" rather than "never": answered 409.
CONFLICT_CODES = frozenset(
    {"not_your_turn", "wrong_phase", "turn_already_submitted", "no_card", "game_over"}
)


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


@dataclass(frozen=True)
class SubmitResult:
    game: Game
    move: Move
    state: rules.GameState
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
    players: int = 2,
    computer_seats: int = 0,
    bot: str = "greedy",
    sun_start: str = "N",
    rated: bool = False,
    days_per_move: int | None = None,
) -> Game:
    """Open a game with ``user`` in seat 0 and ``computer_seats`` bots; start it when full.

    ``players == 1`` is solo mode against the A.I. drafter.
    """
    if not 1 <= players <= 4:
        raise ServiceError(_("A game has 1 to 4 players."), "bad_player_count")
    if not 0 <= computer_seats < players:
        raise ServiceError(
            _("Computer players can fill at most all seats but yours."), "bad_computer_seats"
        )
    if sun_start not in rules.SUNS:
        raise ServiceError(_("The Sun starts at N, E, S or W."), "bad_sun")
    if bot not in ("random", "greedy"):
        raise ServiceError(_("Unknown computer player."), "bad_bot")
    Player.for_user(user)
    game = Game.objects.create(
        players=players,
        solo=players == 1,
        sun_start=sun_start,
        rated=rated and players > 1 and computer_seats == 0,
        days_per_move=days_per_move,
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
    if invite_code is not None and not secrets.compare_digest(invite_code, game.invite_code):
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
    state = rules.new_game(game.players, game.seed, edition=game.edition, sun=game.sun_start)
    game.status = Game.Status.ACTIVE
    game.started_at = timezone.now()
    seats = list(game.seats.order_by("position"))
    state = _play_bots(game, state, seats, next_number=1)
    _store(game, state, seats)


@transaction.atomic
def abort_game(game_id: int) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.is_finished:
        raise Conflict(_("This game is already over."), "game_over")
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.version += 1
    game.save(update_fields=["status", "finished_at", "version", "updated_at"])
    return game


# --- Moves ------------------------------------------------------------------------------------


def earlier_move(game_id: int, user: Any, idempotency_key: str | None) -> dict[str, Any] | None:
    """The move ``user`` already sent with ``idempotency_key`` in this game, if any.

    Lets a page that can no longer rebuild a submitted turn repeat it exactly.
    """
    if not idempotency_key or not getattr(user, "is_authenticated", False):
        return None
    payload = (
        Move.objects.filter(game_id=game_id, user=user, idempotency_key=idempotency_key)
        .values_list("payload", flat=True)
        .first()
    )
    return payload


def _parse(move: rules.Move | dict[str, Any], seat: int) -> rules.Move:
    """The move for ``seat``: the seat always comes from who is asking, not from the payload."""
    if isinstance(move, dict):
        move = rules.move_from_json({**move, "seat": seat})
    elif move.seat != seat:
        move = (
            rules.Pick(seat, move.card)
            if isinstance(move, rules.Pick)
            else rules.Turn(seat, move.action, move.effects, move.power)
        )
    return move


def submit_move(
    game_id: int,
    user: Any,
    move: rules.Move | dict[str, Any],
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
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        seats = list(game.seats.select_related("user__player").order_by("position"))
        seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
        if seat is None:
            raise NotAPlayer(_("You are not a player of this game."), "not_a_player")
        if idempotency_key:
            earlier = game.moves.filter(idempotency_key=idempotency_key).first()
            if earlier is not None:
                try:
                    same = _parse(move, seat.position).to_json() == earlier.payload
                except rules.RulesError:
                    same = False
                if earlier.seat != seat.position or not same:
                    raise Conflict(
                        _("This idempotency key was used for another move."),
                        "idempotency_key_reused",
                    )
                return SubmitResult(game, earlier, game.engine_state(), repeated=True)
        if game.status != Game.Status.ACTIVE:
            raise Conflict(_("This game is not being played."), "game_not_active")
        if expected_version is not None and expected_version != game.version:
            raise Conflict(
                _("The game has moved on since you loaded it: look again and resubmit."),
                "stale_version",
            )
        try:
            parsed = _parse(move, seat.position)
            state = rules.apply(game.engine_state(), parsed)
        except rules.RulesError as exc:
            cls = Conflict if exc.code in CONFLICT_CODES else ServiceError
            raise cls(exc.message, exc.code) from exc
        number = game.moves.count() + 1
        record = Move.objects.create(
            game=game,
            number=number,
            seat=seat.position,
            kind="pick" if isinstance(parsed, rules.Pick) else "turn",
            payload=parsed.to_json(),
            user=user,
            idempotency_key=idempotency_key or None,
            result_version=game.version + 1,
        )
        state = _play_bots(game, state, seats, next_number=number + 1)
        _store(game, state, seats)
        return SubmitResult(game, record, state)


def _play_bots(
    game: Game, state: rules.GameState, seats: list[Seat], next_number: int
) -> rules.GameState:
    """Let computer players move while the game waits only on them."""
    number = next_number
    while not state.is_over:
        waiting_bots = [s for s in state.awaiting if seats[s].bot]
        if not waiting_bots:
            break
        position = waiting_bots[0]
        bot = make_bot(seats[position].bot, seed=game.seed ^ (number * 7919 + position))
        move = bot.choose(state, position)
        state = rules.apply(state, move)
        Move.objects.create(
            game=game,
            number=number,
            seat=position,
            kind="pick" if isinstance(move, rules.Pick) else "turn",
            payload=move.to_json(),
            result_version=game.version + 1,
        )
        number += 1
    return state


def _store(game: Game, state: rules.GameState, seats: list[Seat]) -> None:
    """Save the snapshot and its projections; bump the version."""
    old_zone = game.state["fertility_zone"] if game.state else None
    snapshot = rules.state_to_json(state)
    game.state = snapshot
    game.phase = state.phase.value
    game.season = state.season
    game.round = state.round
    game.version += 1
    if state.is_over and game.status == Game.Status.ACTIVE:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
    game.save()
    for seat, seat_state in zip(seats, state.seats, strict=True):
        if seat.score != seat_state.score:
            seat.score = seat_state.score
            seat.save(update_fields=["score"])
    if snapshot["fertility_zone"] != old_zone:
        sync_fertility_zone(game, state)


def sync_fertility_zone(game: Game, state: rules.GameState) -> None:
    cards = rules.load_edition(state.edition).cards
    FertilityCard.objects.filter(game=game).delete()
    FertilityCard.objects.bulk_create(
        FertilityCard(
            game=game,
            biome=biome,
            order=order,
            card=card,
            face_up=up,
            fertility=cards[card].fertility,
        )
        for biome, stack in zip(rules.BIOMES, state.fertility_zone, strict=True)
        for order, (card, up) in enumerate(stack)
    )


def rebuild_state(game: Game) -> rules.GameState:
    """Replay the Move rows from the seed (the source of truth)."""
    return game.record().replay()
