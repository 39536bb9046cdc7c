"""Conversations in the mails: "Rowan wrote: …" lines in the "your move" mail and the
digest, and the optional "new message" mail.

The lines of every game a mail is about come from one query: the messages of those games
since the reader last moved there or was last mailed about it, neither hidden nor written
by the reader or by someone they muted or blocked. The "new message" mail goes through
the outbox (``games.outbox``), so it follows the reader's e-mail preferences and quiet
hours and is recorded once under its key; at most one waits per game and reader, and it
is rendered when sent, with every message that came meanwhile.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

from django.db.models import DateTimeField, F, Max, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce, Greatest
from django.urls import reverse

from games.models import Move, Notification, Seat
from games.outbox import CHAT, create, wants
from games.site import site_url

from .models import Message
from .shields import silenced_ids

LINES_PER_GAME = 5
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def unread(user: Any, game_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """The messages each game's mail shows ``user``, oldest first (one query)."""
    if not game_ids:
        return {}
    moved = (
        Move.objects.filter(game_id=OuterRef("game_id"), user=user)
        .values("game_id")
        .annotate(at=Max("created_at"))
        .values("at")[:1]
    )
    mailed = (
        Notification.objects.filter(
            game_id=OuterRef("game_id"), user=user, status=Notification.Status.SENT
        )
        .values("game_id")
        .annotate(at=Max("sent_at"))
        .values("at")[:1]
    )
    since = Coalesce(
        Greatest(
            Subquery(moved, output_field=DateTimeField()),
            Subquery(mailed, output_field=DateTimeField()),
        ),
        Value(EPOCH),
    )
    rows = (
        Message.objects.filter(game_id__in=game_ids, hidden=False, deleted_at__isnull=True)
        .exclude(author=user)
        .exclude(author__in=silenced_ids(user))
        .annotate(since=since)
        .filter(created_at__gt=F("since"))
        .order_by("-created_at", "-pk")
        .values("game_id", "text", "created_at", "author__player__display_name")[:200]
    )
    lines: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        game_lines = lines[row["game_id"]]
        if len(game_lines) < LINES_PER_GAME:
            game_lines.insert(
                0,
                {
                    "name": row["author__player__display_name"] or "?",
                    "text": row["text"],
                    "at": row["created_at"],
                },
            )
    return dict(lines)


def mail_extra(note: Notification, extra: dict[str, Any]) -> None:
    """Add the chat lines to what ``games.delivery`` renders for ``note``."""
    if note.kind == Notification.Kind.DIGEST:
        blocks = extra.get("games", [])
        chat = unread(note.user, [block["game_id"] for block in blocks])
        for block in blocks:
            block["chat"] = chat.get(block["game_id"], [])
    elif note.game_id is not None and note.kind in (Notification.Kind.YOUR_MOVE, CHAT):
        game = note.game
        if game is not None and game.last_message_at is None:
            extra["chat"] = []  # nobody has written in this game: nothing to look for
        else:
            extra["chat"] = unread(note.user, [note.game_id]).get(note.game_id, [])


def announce(message: Message) -> None:
    """Record the "new message" mail for each player of the game who wants one."""
    if message.game_id is None:
        return
    seats = (
        Seat.objects.filter(game_id=message.game_id, bot="", user__isnull=False)
        .exclude(user=message.author)
        .filter(user__chat_mail__new_messages=True)
        .exclude(user__shields__other=message.author)
        .select_related("user__player")
    )
    for seat in seats:
        user = seat.user
        assert user is not None  # the query asked for seats of users
        if not wants(getattr(user, "player", None), CHAT):
            continue
        waiting = Notification.objects.filter(
            user=user, game_id=message.game_id, kind=CHAT, status=Notification.Status.PENDING
        ).exists()
        if waiting:
            continue  # the mail waiting shows this message too, when it is sent
        create(
            user,
            message.game,
            CHAT,
            f"chat:{message.game_id}:{user.pk}:{message.pk}",
            {
                "game_id": message.game_id,
                "seat": seat.position,
                "game_url": site_url(reverse("games:detail", args=[message.game_id])),
            },
        )
