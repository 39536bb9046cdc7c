"""Who may read, write and hide which messages: one place for the pages, the API, the
mails and the admin.

* A game's chat: its seated players read and write; spectators read if the game's creator
  allowed it when making the game; moderators and the organizers of the club whose event
  the game belongs to read it (to deal with reports).
* A club's announcements: everyone who may see the club reads them (members only for an
  invite-only club), its organizers write them. Its discussion: members read and write.
* Hiding: moderators (staff with the right to change messages) everywhere, organizers in
  their club (its channels and its events' games).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import fragments
from games.models import Game
from games.services import ServiceError
from tournaments.models import Club, Membership

from .models import GameChat, Message


class Refused(ServiceError):
    status = 403


def is_moderator(user: Any) -> bool:
    """Staff who look after every conversation of the site."""
    return bool(
        getattr(user, "is_authenticated", False)
        and user.is_active
        and user.is_staff
        and (user.is_superuser or user.has_perm("conversations.change_message"))
    )


def club_of_game(game: Game) -> Club | None:
    """The club whose event seated this game, or None for a friendly game."""
    return Club.objects.filter(events__rounds_played__tables__game=game).first()


def _role(user: Any, club: Club) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def is_organizer(user: Any, club: Club | None) -> bool:
    return club is not None and _role(user, club) == Membership.Role.ORGANIZER


def seated(user: Any, game: Game) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return any(seat.user_id == user.pk and not seat.bot for seat in game.seats_in_order())


def spectators_read_name(game_id: int) -> str:
    """What ``spectators_read`` is kept under (``games.fragments.stamped``)."""
    return f"chat-spectators:{game_id}"


def spectators_read(game: Game) -> bool:
    """The creator's choice, kept in the cache until ``services.set_spectators_read``
    changes it (it is made with the game): the game page asks it on every view, and a
    move does not change it."""
    return fragments.stamped(
        spectators_read_name(game.pk),
        lambda: GameChat.objects.filter(game=game, spectators_read=True).exists(),
    )


def club_of_game_for(user: Any, game: Game) -> Club | None:
    """``club_of_game``, looked up only for staff: organizers always are
    (``tournaments.access.grant_organizer_access``), so for anyone else it cannot matter."""
    if not getattr(user, "is_staff", False):
        return None
    return club_of_game(game)


def may_read_game(user: Any, game: Game) -> bool:
    if seated(user, game) or is_moderator(user) or spectators_read(game):
        return True
    return is_organizer(user, club_of_game_for(user, game))


def may_write_game(user: Any, game: Game) -> bool:
    return seated(user, game)


def may_read_club(user: Any, club: Club, channel: str) -> bool:
    if is_moderator(user):
        return True
    if channel == Message.Channel.ANNOUNCEMENTS and club.is_public:
        return True
    return _role(user, club) is not None


def may_write_club(user: Any, club: Club, channel: str) -> bool:
    role = _role(user, club)
    if channel == Message.Channel.ANNOUNCEMENTS:
        return role == Membership.Role.ORGANIZER
    return role is not None


def may_hide(user: Any, message: Message) -> bool:
    if is_moderator(user):
        return True
    if message.club_id:
        return is_organizer(user, message.club)
    assert message.game is not None  # a message is a club's or a game's (a constraint)
    return is_organizer(user, club_of_game_for(user, message.game))


def check_read_game(user: Any, game: Game) -> None:
    if not may_read_game(user, game):
        raise Refused(
            _("Only the players of this game can read its chat."), "chat_private", status=403
        )


def check_read_club(user: Any, club: Club, channel: str) -> None:
    if not may_read_club(user, club, channel):
        raise Refused(_("Only the members of this club can read this."), "not_a_member", status=403)
