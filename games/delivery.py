"""Delivering an e-mail: claim it, check it still makes sense, render it in the player's
language and time zone (with what the game's kind says about it) and send it; a failure
leaves it pending with a later ``send_after``."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Prefetch
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime

from conversations.mailchat import mail_extra

from . import kinds, mailsending, usercache
from .models import Game, Notification, Seat
from .outbox import MAX_BACKOFF, Kind, player_of, quiet_until, wants, zone_of
from .signed_links import unsubscribe_url
from .site import host, site_url


def _names(game: Game) -> list[str]:
    return [seat.name for seat in game.ordered_seats()]


def _game_block(game: Game, position: int) -> dict[str, Any]:
    """A game as the mail shows it to seat ``position``: recap, where it stands, link."""
    names = _names(game)
    block: dict[str, Any] = {
        "game_id": game.pk,
        "game_url": site_url(reverse("games:detail", args=[game.pk])),
        "names": names,
        "recap": [],
        "standing": "",
    }
    try:
        block["recap"], block["standing"] = kinds.of(game).recap(game, position, names)
    except (kinds.Refusal, ValueError, Seat.DoesNotExist):
        return block  # a mail without its recap is better than no mail at all
    return block


def _rows_with_names(rows: Iterable[dict[str, Any]], names: list[str], me: int) -> list[Any]:
    return [
        {
            **row,
            "name": names[row["seat"]] if row["seat"] < len(names) else "?",
            "me": row["seat"] == me,
        }
        for row in rows
    ]


def _extra_context(note: Notification) -> dict[str, Any]:
    """What the templates need beyond the stored context, computed in the player's language."""
    ctx = note.context
    extra: dict[str, Any] = {
        "unsubscribe_url": unsubscribe_url(note.user),
        "profile_url": site_url(reverse("games:profile")),
        "site_url": settings.SITE_URL,
    }
    if ctx.get("deadline"):
        extra["deadline_at"] = parse_datetime(ctx["deadline"])
    game = note.game
    me = ctx.get("seat", -1)
    if game is not None and game.kind != kinds.default_name():
        extra["game_title"] = str(kinds.of(game).title)  # mails of the first game keep its name
    if game is not None and game.state is not None:
        names = _names(game)
        extra["names"] = names
        if note.kind == Kind.YOUR_MOVE:
            extra.update(_game_block(game, me))
        if "breakdown" in ctx:
            extra["breakdown"] = _rows_with_names(ctx["breakdown"], names, me)
        if "ranking" in ctx:
            extra["ranking"] = _rows_with_names(ctx["ranking"], names, me)
        extra.update(kinds.of(game).mail_words(ctx, names, me))
    if note.kind == Kind.DIGEST:
        blocks = []
        for entry in ctx.get("games", []):
            g = Game.objects.filter(pk=entry["game_id"]).first()
            if g is not None and g.state is not None:
                blocks.append(_game_block(g, entry["seat"]))
        finished = []
        for entry in ctx.get("finished", []):
            g = Game.objects.filter(pk=entry["game_id"]).first()
            if g is not None and g.state is not None:
                state = g.engine_state()
                kind = kinds.of(g)
                scores = kind.scores(state)
                names = _names(g)
                finished.append(
                    {
                        "game_id": g.pk,
                        "game_url": site_url(reverse("games:detail", args=[g.pk])),
                        "ranking": [
                            {
                                "name": names[i],
                                "score": scores[i],
                                "me": i == entry["seat"],
                            }
                            for i in kind.ranking(state)
                        ],
                    }
                )
        extra["games"] = blocks
        extra["finished"] = finished
    mail_extra(note, extra)  # the chat lines ("Rowan wrote: …"), one query for every game
    return extra


def message_id(note: Notification) -> str:
    """The same for every attempt to send this notification."""
    digest = hashlib.sha256(note.key.encode()).hexdigest()[:16]
    return f"<evergreen.{note.pk}.{digest}@{host()}>"


def render(note: Notification) -> EmailMultiAlternatives:
    """The mail for ``note``: subject, plain text and HTML, in the recipient's language and
    time zone, with the unsubscribe headers."""
    player = player_of(note.user)
    language = player.language if player else settings.LANGUAGE_CODE
    with translation.override(language), timezone.override(zone_of(player)):
        context = {**note.context, "user": note.user, "player": player, "kind": note.kind}
        context.update(_extra_context(note))
        subject = render_to_string(f"emails/{note.kind}_subject.txt", context).strip()
        text = render_to_string(f"emails/{note.kind}.txt", context)
        html = render_to_string(f"emails/{note.kind}.html", context)
    unsubscribe = context["unsubscribe_url"]
    message = EmailMultiAlternatives(
        subject=" ".join(subject.split()),
        body=text,
        to=[note.user.email],
        headers={
            "Message-ID": message_id(note),
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _read(note_id: int) -> Notification:
    """The notification with its game, the game's seats and the users of both with their
    players, read once for the checks and the rendering (five queries in all for a "your
    move" mail: the claim, this, the seats, the moves of the recap, sent). The users come
    from the cache of users where it is kept (``games.usercache``, one look-up for the
    recipient and the seated alike), else joined to the rows."""
    seats = usercache.seats_with_users(Seat.objects.all())
    note = (
        Notification.objects.select_related(
            "game", *(() if usercache.keeping() else ("user__player",))
        )
        .prefetch_related(Prefetch("game__seats", queryset=seats))
        .get(pk=note_id)
    )
    if usercache.keeping():
        seated = list(note.game.seats.all()) if note.game is not None else []
        ids = [note.user_id, *(seat.user_id for seat in seated if seat.user_id is not None)]
        users = usercache.users(ids)
        note.user = users[note.user_id]
        usercache.attach(seated, known=users.values())
    return note


def deliver(note_id: int) -> str:
    """Send one notification if it is due and nobody else is sending it; returns what happened.

    Raises the mail error after recording it (pending again, ``attempts`` + 1, a later
    ``send_after``), so a task can retry; ``deliver_due`` picks it up in any case.
    """
    now = timezone.now()
    claimed = Notification.objects.filter(
        pk=note_id, status=Notification.Status.PENDING, send_after__lte=now
    ).update(status=Notification.Status.SENDING, claimed_at=now)
    if claimed != 1:
        return "not due or already taken"
    note = _read(note_id)
    if not still_relevant(note):
        Notification.objects.filter(pk=note_id).update(status=Notification.Status.SKIPPED)
        return "skipped"
    later = quiet_until(player_of(note.user), now) if note.kind != Kind.DIGEST else None
    if later is not None:
        Notification.objects.filter(pk=note_id).update(
            status=Notification.Status.PENDING, send_after=later
        )
        return "deferred"
    try:
        mailsending.send(render(note))
    except Exception as exc:
        attempts = note.attempts + 1
        base = getattr(settings, "NOTIFICATION_RETRY_SECONDS", 30)
        backoff = min(timedelta(seconds=base * 2 ** (attempts - 1)), MAX_BACKOFF)
        Notification.objects.filter(pk=note_id).update(
            status=Notification.Status.PENDING,
            attempts=attempts,
            last_error=f"{type(exc).__name__}: {exc}"[:1000],
            send_after=timezone.now() + backoff,
        )
        raise
    Notification.objects.filter(pk=note_id).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), attempts=note.attempts + 1
    )
    return "sent"


def still_relevant(note: Notification) -> bool:
    """Whether the mail still makes sense: the player still wants this kind of mail, and a
    "your move" or reminder mail is only sent while that very move is still to be made."""
    if not wants(player_of(note.user), note.kind):
        return False
    if note.kind not in (Kind.YOUR_MOVE, Kind.REMINDER):
        return True
    game = note.game
    if game is None or game.status != Game.Status.ACTIVE or game.state is None:
        return False
    state = game.engine_state()
    kind = kinds.of(game)
    seat = note.context.get("seat")
    if seat not in kind.awaiting(state) or kind.decision_key(state) != note.key.split(":")[-1]:
        return False
    return any(
        s.position == seat and s.user_id == note.user_id and not s.bot for s in game.ordered_seats()
    )
