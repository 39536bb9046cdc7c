"""What a reader sees of a conversation: the messages in order, without hidden ones (a
moderator sees them, marked) nor those of players the reader blocked, and a stamp that
changes whenever that list does (the pages poll it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from .editing import may_edit
from .models import Message
from .shields import blocked_ids

SHOWN = 100  # the latest messages a page shows


@dataclass(frozen=True)
class Line:
    pk: int
    author_id: int
    name: str
    text: str
    at: datetime
    mine: bool
    hidden: bool
    shield: str | None = None  # what the reader chose about the author: mute or block
    edited: bool = False
    deleted: bool = False  # shown as "message deleted", without its text
    editable: bool = False  # the reader wrote it and may still change it


def _visible(messages: QuerySet[Message], reader: Any, see_hidden: bool) -> QuerySet[Message]:
    if not see_hidden:
        messages = messages.filter(hidden=False)
    if getattr(reader, "is_authenticated", False):
        messages = messages.exclude(author__in=blocked_ids(reader))
    return messages


def game_messages(game_id: int) -> QuerySet[Message]:
    return Message.objects.filter(game_id=game_id, channel=Message.Channel.GAME)


def club_messages(club_id: int, channel: str) -> QuerySet[Message]:
    return Message.objects.filter(club_id=club_id, channel=channel)


def lines(
    messages: QuerySet[Message],
    reader: Any,
    *,
    see_hidden: bool = False,
    shields: dict[int, str] | None = None,
) -> list[Line]:
    """The latest messages the reader may see, oldest first."""
    shields = shields or {}
    rows = (
        _visible(messages, reader, see_hidden)
        .select_related("author__player")
        .order_by("-created_at", "-pk")[:SHOWN]
    )
    now = timezone.now()
    return [_line(m, reader, shields, now) for m in reversed(rows)]


def window(messages: QuerySet[Message]) -> list[Message]:
    """The latest messages of a conversation, hidden ones and everyone's (one query)."""
    rows = messages.select_related("author__player").order_by("-created_at", "-pk")[:SHOWN]
    return list(reversed(rows))


def lines_of(
    rows: list[Message], reader: Any, *, see_hidden: bool, shields: dict[int, str]
) -> list[Line]:
    """``window``'s messages as the reader sees them: no hidden ones unless they moderate,
    none of the players they blocked."""
    now = timezone.now()
    return [
        _line(m, reader, shields, now)
        for m in rows
        if (see_hidden or not m.hidden) and shields.get(m.author_id) != "block"
    ]


def _line(m: Message, reader: Any, shields: dict[int, str], now: datetime) -> Line:
    me = getattr(reader, "pk", None)
    return Line(
        pk=m.pk,
        author_id=m.author_id,
        name=_name(m.author),
        text=m.text,
        at=m.created_at,
        mine=m.author_id == me,
        hidden=m.hidden,
        shield=shields.get(m.author_id),
        edited=m.edited_at is not None,
        deleted=m.deleted,
        editable=may_edit(reader, m, now),
    )


def stamp_of(rows: list[tuple[int, bool, int]]) -> str:
    """Changes when a message is written, hidden, edited or deleted: the newest message,
    the hidden ones among the latest and their revisions (the same for every reader)."""
    newest = max((pk for pk, _hidden, _revision in rows), default=0)
    hidden = sum(1 for _pk, is_hidden, _revision in rows if is_hidden)
    return f"{newest}-{hidden}-{sum(revision for _pk, _hidden, revision in rows)}"


def _name(user: Any) -> str:
    player = getattr(user, "player", None)
    return player.display_name if player is not None else str(user.get_username())


def stamp(messages: QuerySet[Message]) -> str:
    """``stamp_of`` the latest messages, read alone (one small query: the polls')."""
    rows = messages.order_by("-created_at", "-pk").values_list("pk", "hidden", "revision")[:SHOWN]
    return stamp_of(list(rows))
