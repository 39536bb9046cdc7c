"""The daily challenges' tables: one challenge per UTC day and game kind, and who took
it up with which game.

A player's result is not copied here: the score, the status and the moment their game
finished stay in the game's own rows (``games.Game``, ``games.Seat``), read by the
leaderboard, so nothing can drift apart.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class DailyChallenge(models.Model):
    """One kind's solo game of one UTC day: the seed everyone is dealt, and the computer
    player's score on it (the target), stored once it is known."""

    day = models.DateField(_("day (UTC)"))
    kind = models.CharField(_("game"), max_length=20)
    seed = models.BigIntegerField(_("seed"), editable=False)
    options = models.JSONField(_("options"), default=dict, blank=True, editable=False)
    target_bot = models.CharField(_("computer player of the target"), max_length=10, blank=True)
    target_score = models.IntegerField(_("target score"), null=True, blank=True)
    target_title = models.CharField(_("target title"), max_length=40, blank=True)
    target_at = models.DateTimeField(_("target computed"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("daily challenge")
        verbose_name_plural = _("daily challenges")
        ordering = ["-day", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["day", "kind"], name="challenge_unique_day_kind")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.day.isoformat()}"


class ChallengeEntry(models.Model):
    """A player's one game of a day's challenge."""

    challenge = models.ForeignKey(
        DailyChallenge,
        on_delete=models.CASCADE,
        related_name="entries",
        verbose_name=_("daily challenge"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenge_entries",
        verbose_name=_("user"),
    )
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="challenge_entry", verbose_name=_("game")
    )
    created_at = models.DateTimeField(_("started"), auto_now_add=True)

    class Meta:
        verbose_name = _("challenge entry")
        verbose_name_plural = _("challenge entries")
        ordering = ["challenge", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["challenge", "user"], name="challenge_entry_unique")
        ]

    def __str__(self) -> str:
        return f"{self.challenge}: {self.user_id}"
