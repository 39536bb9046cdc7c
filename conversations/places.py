"""Where a conversation lives (a game's chat, a club's announcements or discussion) and
what the viewing user may do there: the one thing the pages render."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from games import links
from games.access import game_for_viewer
from games.models import Game
from tournaments.access import club_or_404
from tournaments.models import Club

from . import access, reading
from .models import Message

Channel = Message.Channel


@dataclass
class Place:
    key: str  # "game:12" or "club:<slug>:<channel>": the hidden field of the forms
    dom_id: str
    title: str
    # The conversation's messages, as a query made when asked for: a game nobody has
    # written in yet is drawn without one (building a query costs more than its page's
    # chat otherwise does).
    query: Callable[[], QuerySet[Message]]
    may_read: bool
    may_write: bool
    may_hide: bool
    page_url: str
    panel_url: str
    post_url: str
    game: Game | None = None
    club: Club | None = None
    channel: str = Channel.GAME
    poll: bool = True

    @property
    def messages(self) -> QuerySet[Message]:
        return self.query()


def for_game(user: Any, game: Game) -> Place:
    club = access.club_of_game_for(user, game)
    return Place(
        key=f"game:{game.pk}",
        dom_id="chat-game",
        title=_("Chat"),
        query=lambda: reading.game_messages(game.pk),
        may_read=access.may_read_game(user, game),
        may_write=access.may_write_game(user, game),
        may_hide=access.is_moderator(user) or access.is_organizer(user, club),
        page_url=links.url("games:detail", game.pk),
        panel_url=links.url("conversations:game_chat", game.pk),
        post_url=links.url("conversations:game_post", game.pk),
        game=game,
        poll=not game.is_finished,  # like the game page: nothing moves once it is over
    )


def for_club(user: Any, club: Club, channel: str) -> Place:
    if channel not in (Channel.ANNOUNCEMENTS, Channel.DISCUSSION):
        raise Http404("No such channel")
    title = _("Announcements") if channel == Channel.ANNOUNCEMENTS else _("Discussion")
    return Place(
        key=f"club:{club.slug}:{channel}",
        dom_id=f"chat-{channel}",
        title=title,
        query=lambda: reading.club_messages(club.pk, channel),
        may_read=access.may_read_club(user, club, channel),
        may_write=access.may_write_club(user, club, channel),
        may_hide=access.is_moderator(user) or access.is_organizer(user, club),
        page_url=links.url("conversations:club_talk", club.slug) + f"#chat-{channel}",
        panel_url=links.url("conversations:club_panel", club.slug, channel),
        post_url=links.url("conversations:club_post", club.slug, channel),
        club=club,
        channel=channel,
    )


def from_key(user: Any, key: str) -> Place:
    """The place a form names in its hidden field; 404 for anything else."""
    parts = key.split(":")
    if len(parts) == 2 and parts[0] == "game" and parts[1].isdigit():
        game, _seat = game_for_viewer(int(parts[1]), user)
        return for_game(user, game)
    if len(parts) == 3 and parts[0] == "club":
        return for_club(user, club_or_404(parts[1]), parts[2])
    raise Http404("No such conversation")
