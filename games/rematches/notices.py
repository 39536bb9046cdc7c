"""Telling the other people of a game that a rematch is offered: one "rematch" mail each
through the outbox (``games.outbox``: their preferences and quiet hours, recorded once
under its key), never to someone who blocked the player who offered it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from conversations.shields import blocked_ids
from games.models import Game, Notification, Seat
from games.outbox import REMATCH, create
from games.site import site_url


def offered(game: Game, offerer: Seat, others: list[Seat]) -> list[Notification]:
    """Record the mail to each of ``others`` (people of ``game``) that ``offerer`` offers
    a rematch; returns the notifications recorded (none twice for one offer)."""
    context: dict[str, Any] = {
        "game_id": game.pk,
        "game_url": site_url(reverse("games:detail", args=[game.pk])),
        "offered_by": offerer.name,
    }
    notes = []
    for seat in others:
        user = seat.user
        if user is None or seat.bot:
            continue
        if blocked_ids(user).filter(other_id=offerer.user_id).exists():
            continue  # they blocked the one who offers: nothing of theirs reaches them
        note = create(
            user,
            game,
            REMATCH,
            f"rematch:{game.pk}:{user.pk}",
            {**context, "seat": seat.position},
        )
        if note is not None:
            notes.append(note)
    return notes
