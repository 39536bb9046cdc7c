"""Accepting a rematch: the one write of rematches, for the page and the API alike.

The first acceptance offers it: each other person is mailed (``notices``). Nobody offers
or accepts a rematch with someone who blocked them, or whom they blocked.

The old game's row is locked first (as every write to a game does), so acceptances
arriving together are counted once each and the new game is made once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from conversations.shields import blocked_pairs
from games import services
from games.models import Game, Seat
from games.services.writes import lock_game

from . import notices
from .models import Rematch


@dataclass(frozen=True)
class Standing:
    """Where a rematch stands: the seats that accepted, the people still to, the new game."""

    accepted: tuple[int, ...]
    waiting: tuple[int, ...]
    new_game: int | None
    offered_by: int | None = None


def people(game: Game) -> list[Seat]:
    return [seat for seat in game.seats.order_by("position") if seat.user_id is not None]


def standing(game: Game) -> Standing | None:
    """The rematch of ``game``, or None if nobody offered one."""
    rematch = Rematch.objects.filter(game=game).first()
    if rematch is None:
        return None
    accepted = tuple(sorted(rematch.accepted))
    waiting = tuple(s.position for s in people(game) if s.position not in accepted)
    return Standing(accepted, waiting, rematch.new_game_id, rematch.offered_by)


def check_can_rematch(game: Game, user: Any) -> Seat:
    """The seat of ``user`` in ``game``; raises ``ServiceError`` when there is no rematch
    to accept (not a player, the game not over, nobody to play against)."""
    seat = next((s for s in people(game) if s.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise services.not_a_player()
    if game.status != Game.Status.FINISHED:
        raise services.Conflict(
            _("A rematch can be offered once the game is over."), "game_not_over"
        )
    return seat


def check_no_block(game: Game, seat: Seat) -> None:
    """Refuse a rematch between people of whom one blocked another: a blocked player
    cannot invite the one who blocked them, nor be invited by them (403 ``blocked``)."""
    pairs = blocked_pairs([s.user_id for s in people(game) if s.user_id is not None])
    if not pairs:
        return
    me = seat.user_id
    if any(blocked == me for _blocker, blocked in pairs):
        message = _("A player of this game does not take invitations from you.")
    elif any(blocker == me for blocker, _blocked in pairs):
        message = _("You blocked a player of this game: unblock them to play a rematch.")
    else:
        message = _("No rematch here: players of this game have blocked one another.")
    raise services.ServiceError(message, "blocked", status=403)


@transaction.atomic
def accept(game_id: int, user: Any) -> Standing:
    """``user`` accepts (or offers) a rematch of the finished game ``game_id``; when every
    person of the game has, the new game starts. Accepting twice changes nothing."""
    game = lock_game(game_id)
    seat = check_can_rematch(game, user)
    rematch = Rematch.objects.filter(game=game).first()
    if rematch is None or (rematch.new_game_id is None and seat.position not in rematch.accepted):
        check_no_block(game, seat)
    if rematch is None:
        rematch = Rematch.objects.create(game=game, offered_by=seat.position)
        notices.offered(game, seat, [s for s in people(game) if s.pk != seat.pk])
    if rematch.new_game_id is None and seat.position not in rematch.accepted:
        rematch.accepted = sorted([*rematch.accepted, seat.position])
        if all(s.position in rematch.accepted for s in people(game)):
            rematch.new_game = services.rematch_game(game)
        rematch.save()
        # The old game's pages poll its version: they show the acceptance at once.
        game.version += 1
        game.save(update_fields=["version", "updated_at"])
    result = standing(game)
    assert result is not None
    return result
