"""Events and their settings, a round robin's or league's divisions, and the players
registered."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .clubs import Club

DEFAULT_TIEBREAKS = ("opponents", "score", "head_to_head")


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


def default_points_scheme() -> list[float]:
    """Empty: the default scheme, players at the table minus finishing place."""
    return []


class Event(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        KNOCKOUT = "knockout", _("Knockout cup")
        LEAGUE = "league", _("League season (divisions)")

    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("event", "draft")
        REGISTRATION = "registration", _("registration open")
        RUNNING = "running", _("running")
        FINISHED = "finished", pgettext_lazy("event", "finished")

    class TimeoutPolicy(models.TextChoices):
        BOT = "bot", _("A computer player finishes the seat; the table is ranked normally")
        LAST = "last", _("The timed-out player ranks last at that table")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="events", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name in links"), max_length=60)
    description = models.TextField(_("description"), blank=True)
    format = models.CharField(
        _("format"), max_length=12, choices=Format.choices, default=Format.SWISS
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT, db_index=True
    )
    # The game played at the tables (``games.kinds``); a table seats 2 to the most players
    # the game allows (Evergreen 4, Verdant 5), checked by ``services.check_event``.
    game = models.CharField(_("game"), max_length=20, default="evergreen")
    table_size = models.PositiveSmallIntegerField(
        _("players per table"),
        default=4,
        validators=[MinValueValidator(2), MaxValueValidator(5)],
    )
    min_table_size = models.PositiveSmallIntegerField(
        _("fewest players at a table"),
        default=3,
        validators=[MinValueValidator(2), MaxValueValidator(5)],
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        null=True,
        blank=True,
        help_text=_(
            "Swiss: required. Round robin and leagues: empty for every pairing to meet "
            "as evenly as possible. Knockout: ignored (played down to a final table)."
        ),
    )
    rated = models.BooleanField(_("rated"), default=True)
    # The time control of every game of the event, as on games.Game.
    days_per_move = models.PositiveSmallIntegerField(
        _("days per move"), null=True, blank=True, default=3
    )
    hours_per_move = models.PositiveSmallIntegerField(
        _("hours per move (fast games)"), null=True, blank=True
    )
    time_bank_hours = models.PositiveSmallIntegerField(_("time bank (hours)"), default=0)
    timeout_policy = models.CharField(
        _("when a player runs out of time"),
        max_length=4,
        choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.BOT,
    )
    timeouts_before_decision = models.PositiveSmallIntegerField(
        _("timeouts in a row before the timeout policy applies"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(3)],
    )
    bye_points = models.FloatField(_("points for a bye"), default=0.0)
    points_scheme = models.JSONField(
        _("tournament points by finishing place"),
        default=default_points_scheme,
        blank=True,
        help_text=_(
            "Points for 1st, 2nd, 3rd, 4th place, e.g. [3, 2, 1, 0]. Empty: players at "
            "the table minus place. Tied players share their places' points."
        ),
    )
    tiebreaks = models.JSONField(
        _("tie-break order"),
        default=default_tiebreaks,
        blank=True,
        help_text=_(
            "In order, any of: opponents (opponents' tournament points), score (total game "
            "score), head_to_head."
        ),
    )
    knockout_advance = models.PositiveSmallIntegerField(
        _("players advancing from each knockout table"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(3)],
    )
    division_size = models.PositiveSmallIntegerField(
        _("players per division (leagues)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(2)],
    )
    promote = models.PositiveSmallIntegerField(
        _("promoted from each division (leagues)"), default=1
    )
    relegate = models.PositiveSmallIntegerField(
        _("relegated from each division (leagues)"), default=1
    )
    previous_season = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="next_season",
        verbose_name=_("previous season"),
    )
    season = models.PositiveSmallIntegerField(_("season"), default=1)
    registration_opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    vacation_limit_days = models.PositiveSmallIntegerField(
        _("vacation allowed per player (days)"),
        default=7,
        help_text=_(
            "A player's vacation pauses their clocks in this event's games for at most "
            "this many days in all; 0: vacations do not pause this event's games."
        ),
    )
    seed = models.BigIntegerField(_("seed"), default=0)
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_events",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(pgettext_lazy("event", "finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="event_unique_slug"),
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2, table_size__lte=5),
                name="event_table_size_2_5",
            ),
            models.CheckConstraint(
                condition=models.Q(min_table_size__gte=2)
                & models.Q(min_table_size__lte=models.F("table_size")),
                name="event_min_table_size",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:event", args=[self.club.slug, self.slug])

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def has_divisions(self) -> bool:
        """Round robins and leagues seat players within divisions (of ``division_size``)."""
        return self.format in (self.Format.ROUND_ROBIN, self.Format.LEAGUE)

    @property
    def move_hours(self) -> int | None:
        if self.hours_per_move:
            return self.hours_per_move
        return self.days_per_move * 24 if self.days_per_move else None

    def scheme(self) -> list[float] | None:
        """The points scheme for tournaments.standings (None: the default)."""
        return [float(p) for p in self.points_scheme] if self.points_scheme else None


class Division(models.Model):
    """One division of a league season; number 1 is the top division."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("event")
    )
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    name = models.CharField(_("name"), max_length=60, blank=True)
    promote = models.PositiveSmallIntegerField(_("promoted to the division above"), default=1)
    relegate = models.PositiveSmallIntegerField(_("relegated to the division below"), default=1)
    # The whole round-robin schedule, fixed when the event starts: one entry per round,
    # {"tables": [[user ids in seat order], ...], "byes": [user ids]}.
    schedule = models.JSONField(_("schedule"), default=list, blank=True, editable=False)

    class Meta:
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="division_unique_number")
        ]

    def __str__(self) -> str:
        return self.name or str(_("Division %(number)s") % {"number": self.number})


class Registration(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("registered")
        WITHDRAWN = "withdrawn", _("withdrawn")

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("event")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="event_registrations",
        verbose_name=_("player"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE
    )
    division = models.ForeignKey(
        Division,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registrations",
        verbose_name=_("division"),
    )
    seed_rank = models.PositiveIntegerField(
        _("seeding rank"), null=True, blank=True, help_text=_("1 = strongest (knockout seeding)")
    )
    eliminated_in = models.PositiveSmallIntegerField(
        _("knocked out in round"), null=True, blank=True
    )
    registered_at = models.DateTimeField(_("registered"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["event", "registered_at"]
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="registration_unique_user")
        ]

    def __str__(self) -> str:
        return _("%(player)s in %(event)s") % {"player": self.user, "event": self.event}

    @property
    def is_active(self) -> bool:
        return self.status == self.Status.ACTIVE
