"""Clubs, their members and the events they run: Swiss tournaments, round-robin leagues
(in divisions, season after season) and knockout cups.

An event is seated round by round; each table of a round is one ``games.Game`` whose
Seat rows say who sat where and what they scored, so results are read from the games
and never copied. All writes go through ``tournaments.services``.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

DEFAULT_TIEBREAKS = ("opponents", "score", "head_to_head")


def _invite_code() -> str:
    return secrets.token_urlsafe(12)


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


def default_points_scheme() -> list[float]:
    """Empty: the default scheme, players at the table minus finishing place."""
    return []


class Club(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: anyone can join")
        INVITE = "invite", _("Invite only: by invitation link or accepted request")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("short name in links"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)
    visibility = models.CharField(
        _("who can join"), max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    invite_code = models.CharField(
        _("invitation code"), max_length=32, unique=True, default=_invite_code
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_clubs",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:club", args=[self.slug])

    @property
    def is_public(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC

    def is_organizer(self, user: Any) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        return self.memberships.filter(user=user, role=Membership.Role.ORGANIZER).exists()

    def is_member(self, user: Any) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        return self.memberships.filter(user=user).exists()


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"

    @property
    def is_organizer(self) -> bool:
        return self.role == self.Role.ORGANIZER


class JoinRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="join_requests", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_join_requests",
        verbose_name=_("user"),
    )
    message = models.TextField(_("message to the organizers"), blank=True, max_length=1000)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )

    class Meta:
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status="pending"),
                name="joinrequest_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club} ({self.get_status_display()})"


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
