"""The outbox: every e-mail recorded once before it is sent."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game


class Notification(models.Model):
    """An e-mail to send, recorded under a unique key before it is sent.

    The key makes creation idempotent (a retried task finds the row and sends nothing
    new); delivery claims the row with a conditional update, so two workers never send
    the same mail; a failed attempt stays pending with a later ``send_after``.
    """

    class Kind(models.TextChoices):
        YOUR_MOVE = "your_move", _("Your move")
        REMINDER = "reminder", _("Deadline reminder")
        SEASON = "season", _("Season scored")
        GAME_OVER = "game_over", _("Game over")
        DIGEST = "digest", _("Daily digest")
        HANDOVER = "handover", _("Seat handed to a computer player")
        EVENT_TABLE = "event_table", _("Event round seated")
        CHAT = "chat", _("New messages in a game's chat")
        REMATCH = "rematch", _("Rematch offered")
        ANNOUNCEMENT = "announcement", _("Club announcement")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        SKIPPED = "skipped", _("skipped")

    key = models.CharField(_("key"), max_length=160, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        verbose_name=_("user"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="notifications",
        verbose_name=_("game"),
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    context = models.JSONField(_("content"), default=dict, blank=True)
    send_after = models.DateTimeField(_("send after"), db_index=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    claimed_at = models.DateTimeField(_("claimed"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.key
