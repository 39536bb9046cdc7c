"""Every write to a conversation: posting, hiding, reporting, mute and block, the game's
chat setting and the "new message" mail choice. The pages and the API call these."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import fragments
from games.models import Game
from games.services import ServiceError, not_a_player
from tournaments.models import Club

from . import access, limits
from .mailchat import announce
from .mailclub import mail_members
from .models import ChatMail, GameChat, Message, Report, Shield
from .shields import choices_name

Channel = Message.Channel


def set_spectators_read(game: Game, allowed: bool) -> None:
    """The creator's choice, made with the game: may spectators read its chat?"""
    GameChat.objects.update_or_create(game=game, defaults={"spectators_read": allowed})
    fragments.restamp_on_commit(access.spectators_read_name(game.pk))


def post_to_game(user: Any, game: Game, text: str) -> Message:
    if not access.may_write_game(user, game):
        raise not_a_player()
    text = limits.clean_text(text)
    limits.check_rate(user)
    with transaction.atomic():
        message = Message.objects.create(channel=Channel.GAME, game=game, author=user, text=text)
        Game.objects.filter(pk=game.pk).update(last_message_at=message.created_at)
        game.last_message_at = message.created_at  # the caller's panel shows the message
        announce(message)
    return message


def check_channel(channel: str) -> None:
    if channel not in (Channel.ANNOUNCEMENTS, Channel.DISCUSSION):
        raise ServiceError(_("There is no such channel."), "no_such_channel", status=404)


def post_to_club(user: Any, club: Club, channel: str, text: str) -> Message:
    check_channel(channel)
    if not access.may_write_club(user, club, channel):
        if channel == Channel.ANNOUNCEMENTS:
            raise access.Refused(
                _("Only the club's organizers write announcements."), "not_an_organizer"
            )
        raise access.Refused(_("Only the members of this club can write here."), "not_a_member")
    text = limits.clean_text(text)
    limits.check_rate(user)
    with transaction.atomic():
        message = Message.objects.create(channel=channel, club=club, author=user, text=text)
        if channel == Channel.ANNOUNCEMENTS:
            mail_members(message)
    return message


def message_or_404(pk: int) -> Message:
    message = Message.objects.select_related("game", "club").filter(pk=pk).first()
    if message is None:
        raise ServiceError(_("There is no such message."), "no_such_message", status=404)
    return message


def may_read(user: Any, message: Message) -> bool:
    if message.game is not None:
        return access.may_read_game(user, message.game)
    assert message.club is not None
    return access.may_read_club(user, message.club, message.channel)


@transaction.atomic
def hide(user: Any, message: Message, hidden: bool = True) -> Message:
    """Hide a message from everyone (or show it again): moderators, organizers in their club."""
    if not access.may_hide(user, message):
        raise access.Refused(
            _("Only the site's staff and the club's organizers can hide messages."),
            "not_a_moderator",
        )
    message.hidden = hidden
    message.hidden_by = user if hidden else None
    message.hidden_at = timezone.now() if hidden else None
    message.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    if hidden:
        Report.objects.filter(message=message).update(resolved=True)
    return message


def report(user: Any, message: Message, reason: str = "") -> Report:
    """Report a message to the staff and, in a club, its organizers. Once per reader."""
    if not may_read(user, message):
        raise ServiceError(_("There is no such message."), "no_such_message", status=404)
    if message.author_id == user.pk:
        raise ServiceError(_("You cannot report your own message."), "own_message")
    if message.deleted:
        raise ServiceError(_("This message is deleted."), "message_deleted", status=409)
    club = message.club if message.club_id else access.club_of_game(message.game)  # type: ignore[arg-type]
    report, _created = Report.objects.get_or_create(
        message=message,
        reporter=user,
        defaults={"club": club, "reason": (reason or "").strip()[:300], "text": message.text},
    )
    return report


def shield(owner: Any, other_id: int, kind: str | None) -> None:
    """Mute (``"mute"``), block (``"block"``) or neither (None) another player."""
    if other_id == owner.pk:
        raise ServiceError(_("You cannot mute or block yourself."), "self")
    if not get_user_model().objects.filter(pk=other_id).exists():
        raise ServiceError(_("There is no such player."), "no_such_player", status=404)
    if kind is not None and kind not in Shield.Kind.values:
        raise ServiceError(_("Choose to mute or to block."), "bad_choice")
    if kind is None:
        Shield.objects.filter(owner=owner, other_id=other_id).delete()
    else:
        try:
            with transaction.atomic():
                Shield.objects.update_or_create(
                    owner=owner, other_id=other_id, defaults={"kind": kind}
                )
        except IntegrityError:  # two clicks at once: the other one won, with the same choice
            pass
    fragments.restamp_on_commit(choices_name(owner.pk))


def set_mail(user: Any, wanted: bool) -> None:
    ChatMail.objects.update_or_create(user=user, defaults={"new_messages": wanted})
    fragments.restamp_on_commit(choices_name(user.pk))
