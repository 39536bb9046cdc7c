"""A message's author changes or deletes it: the pages and the API call these.

Editing is open for ``EDIT_WINDOW_MINUTES`` after writing (a typo fixed, not an answer
rewritten), with the length and rate limits of a new message; deleting is open at any
time and leaves the message's place, shown as "message deleted". Reports keep the text
they were about (``Report.text``), so neither takes anything from the staff. Both bump
the message's ``revision``, which the panels' poll stamp reads.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.services import ServiceError

from . import limits
from .models import EDIT_WINDOW_MINUTES, Message

EDIT_WINDOW = timedelta(minutes=EDIT_WINDOW_MINUTES)


def may_edit(user: Any, message: Message, now: Any = None) -> bool:
    """Whether ``user`` may still change ``message`` (theirs, neither deleted nor hidden,
    written less than the window ago)."""
    return (
        message.author_id == getattr(user, "pk", None)
        and not message.deleted
        and not message.hidden
        and (now or timezone.now()) - message.created_at < EDIT_WINDOW
    )


def _own(user: Any, message: Message) -> None:
    if message.author_id != getattr(user, "pk", None):
        raise ServiceError(
            _("Only its author can change or delete a message."), "not_your_message", status=403
        )
    if message.deleted:
        raise ServiceError(_("This message is deleted."), "message_deleted", status=409)


def _locked(message: Message) -> Message:
    return Message.objects.select_for_update().get(pk=message.pk)


def edit(user: Any, message: Message, text: str) -> Message:
    """Change the text of ``user``'s own message within the window; raises ``ServiceError``
    (not_your_message 403, message_deleted 409, edit_window_closed 409, message_hidden
    409, message_empty / message_too_long 400) or ``RateLimited`` (429)."""
    _own(user, message)
    text = limits.clean_text(text)
    with transaction.atomic():
        message = _locked(message)
        _own(user, message)
        if message.hidden:
            raise ServiceError(
                _("A hidden message cannot be changed."), "message_hidden", status=409
            )
        if not may_edit(user, message):
            raise ServiceError(
                ngettext(
                    "A message can be changed for %(minutes)d minute after writing it.",
                    "A message can be changed for %(minutes)d minutes after writing it.",
                    EDIT_WINDOW_MINUTES,
                )
                % {"minutes": EDIT_WINDOW_MINUTES},
                "edit_window_closed",
                status=409,
            )
        if text == message.text:
            return message
        limits.check_rate(user)
        _keep_reported(message)
        message.text = text
        message.edited_at = timezone.now()
        message.revision = F("revision") + 1
        message.save(update_fields=["text", "edited_at", "revision"])
    message.refresh_from_db()
    return message


def delete(user: Any, message: Message) -> Message:
    """Delete ``user``'s own message (at any time): its text is emptied and its place
    says "message deleted". Raises ``ServiceError`` (not_your_message 403,
    message_deleted 409)."""
    _own(user, message)
    with transaction.atomic():
        message = _locked(message)
        _own(user, message)
        _keep_reported(message)
        message.text = ""
        message.deleted_at = timezone.now()
        message.revision = F("revision") + 1
        message.save(update_fields=["text", "deleted_at", "revision"])
    message.refresh_from_db()
    return message


def _keep_reported(message: Message) -> None:
    """Reports made before ``Report.text`` existed learn the text before it changes."""
    message.reports.filter(text="").update(text=message.text)
