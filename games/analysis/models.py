"""One analysis per game and player: the reviews of that player's decisions, stored as
the task makes them (so the page shows the progress and a retried task resumes)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Analysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="analyses", verbose_name=_("game")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="analyses",
        verbose_name=_("user"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    budget = models.CharField(_("search budget"), max_length=20)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED
    )
    # The seat's moves looked at so far and in all; ``reviews`` holds one entry per
    # decision reviewed, in the game's order, each with its move's number (``move``).
    done = models.PositiveIntegerField(_("moves reviewed"), default=0)
    total = models.PositiveIntegerField(_("moves to review"), default=0)
    reviews = models.JSONField(_("reviews"), default=list, blank=True)
    # Why the last run broke (the exception, for the admin); cleared when it is queued again.
    error = models.TextField(_("error"), blank=True, default="")
    created_at = models.DateTimeField(_("asked for"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="analysis_once_per_game_user")
        ]
        indexes = [models.Index(fields=["user", "created_at"], name="analysis_user_day")]

    def __str__(self) -> str:
        return f"{self.game} / {self.user}"

    @property
    def is_done(self) -> bool:
        return self.status == self.Status.DONE

    @property
    def in_progress(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
