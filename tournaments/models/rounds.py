"""What happens as an event runs: rounds, their tables (each one game), byes, the
timeout policy's decisions and the vacation pauses granted in an event."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .events import Division, Event


class Round(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("being played")
        FINISHED = "finished", pgettext_lazy("round", "finished")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="rounds_played", verbose_name=_("event")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RUNNING
    )
    is_final = models.BooleanField(_("final table"), default=False)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(pgettext_lazy("round", "finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["event", "number"]
        constraints = [
            # Seating a round twice (two workers, a retried task) fails here.
            models.UniqueConstraint(fields=["event", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return str(_("Round %(number)s") % {"number": self.number})

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED


class Table(models.Model):
    """One table of a round: its game's seats say who sits where and what they scored."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    division = models.ForeignKey(
        Division,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tables",
        verbose_name=_("division"),
    )
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.PROTECT,
        related_name="event_table",
        verbose_name=_("game"),
    )
    adjudicated = models.BooleanField(_("adjudicated"), default=False)
    adjudicated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("adjudicated by"),
    )
    adjudicated_at = models.DateTimeField(_("adjudicated at"), null=True, blank=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")
        ]

    def __str__(self) -> str:
        return str(
            _("Round %(round)s, table %(table)s")
            % {"round": self.round.number, "table": self.number}
        )


class Bye(models.Model):
    """A player left without a table in a round; scores the event's bye points."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="byes", verbose_name=_("round")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="event_byes",
        verbose_name=_("player"),
    )
    points = models.FloatField(_("points"), default=0.0)

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        ordering = ["round", "user"]
        constraints = [models.UniqueConstraint(fields=["round", "user"], name="bye_unique_user")]

    def __str__(self) -> str:
        return f"{self.user} ({self.round})"


class TimeoutDecision(models.Model):
    """What the event's timeout policy decided for one seat of one game, and any
    organizer override. One row per seat and game, updated as timeouts repeat."""

    class Outcome(models.TextChoices):
        TIMED_OUT = "timed out", _("timed out (a move was made for them)")
        BOT_FINISHES = "bot", _("a computer player finishes the seat")
        RANKS_LAST = "last", _("ranks last at the table")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="timeout_decisions", verbose_name=_("table")
    )
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        related_name="timeout_decisions",
        verbose_name=_("game"),
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
    )
    policy = models.CharField(
        _("policy applied"), max_length=4, choices=Event.TimeoutPolicy.choices
    )
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices)
    timeouts = models.PositiveSmallIntegerField(_("most timeouts in a row"), default=1)
    ranks_last = models.BooleanField(_("ranks last at the table"), default=False)
    overridden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("overridden by"),
    )
    overridden_at = models.DateTimeField(_("overridden at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)
    created_at = models.DateTimeField(_("decided"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("timeout decision")
        verbose_name_plural = _("timeout decisions")
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="timeout_unique_seat")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.position}: {self.get_outcome_display()}"

    @property
    def is_overridden(self) -> bool:
        return self.overridden_at is not None


class VacationUse(models.Model):
    """Vacation days a player's vacation paused their clocks in one event (the event's
    ``vacation_limit_days`` caps the total)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="vacation_uses", verbose_name=_("event")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    seconds = models.PositiveIntegerField(_("paused in all (seconds)"), default=0)
    # The vacation this row last accounted for, and the pause it granted in this event.
    vacation_until = models.DateTimeField(_("vacation until"), null=True, blank=True)
    paused_from = models.DateTimeField(_("paused from"), null=True, blank=True)
    paused_until = models.DateTimeField(_("paused until"), null=True, blank=True)
    # Earlier pauses in this event, [[from, until], ...] (ISO times): a clock that ran
    # through several vacations is paused by each of them.
    earlier_pauses = models.JSONField(_("earlier pauses"), default=list, blank=True, editable=False)

    class Meta:
        verbose_name = _("vacation use")
        verbose_name_plural = _("vacation uses")
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="vacationuse_unique_user")
        ]

    def __str__(self) -> str:
        return _("%(player)s in %(event)s") % {"player": self.user, "event": self.event}
