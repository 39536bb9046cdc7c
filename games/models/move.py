"""A move as it was made: the source of truth a game is replayed from."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game

MOVE_KINDS = [("pick", _("card pick")), ("turn", _("turn"))]


class Move(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="moves", verbose_name=_("game")
    )
    number = models.PositiveIntegerField(_("number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    kind = models.CharField(_("kind"), max_length=8, choices=MOVE_KINDS)
    payload = models.JSONField(_("move"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("user"),
    )
    idempotency_key = models.CharField(_("idempotency key"), max_length=80, null=True, blank=True)
    result_version = models.PositiveIntegerField(_("game version after the move"), default=0)
    created_at = models.DateTimeField(_("made"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="move_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.number}"
