"""Players, games, seats, moves, notifications and ratings: the platform's tables.

The Move rows are the source of truth: a game is rebuilt by replaying them from its
seed. ``Game.state`` is a cached snapshot of its kind's state (secrets included: it is
never sent to a browser), and Seat scores (and a kind's own tables, such as Evergreen's
Fertility Zone) are projections kept in step with it for pages, queries and the admin.
What a game *is* comes from its kind (``Game.kind``, ``games.kinds``).
"""

from __future__ import annotations

import secrets
import zoneinfo
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import kinds, names


def _invite_code() -> str:
    return secrets.token_urlsafe(12)


def default_reminder_hours() -> list[int]:
    return [24, 2]


TIME_ZONE_CHOICES = [(tz, tz) for tz in sorted(zoneinfo.available_timezones())]


PHASE_CHOICES = [("draft", _("Draft")), ("action", _("Action")), ("over", _("Game over"))]
MOVE_KINDS = [("pick", _("card pick")), ("turn", _("turn"))]


def new_calendar_secret() -> str:
    """The private part of a player's calendar address (``games.signed_links``)."""
    return secrets.token_urlsafe(24)


class Player(models.Model):
    class EmailMode(models.TextChoices):
        EVERY_MOVE = "every", _("Every move")
        COALESCED = "coalesced", _("At most one mail per few hours per game")
        DIGEST = "digest", _("Daily digest")
        OFF = "off", _("Off")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="player",
        verbose_name=_("user"),
    )
    display_name = models.CharField(_("display name"), max_length=40)
    # The name's look-alike key (games.names.skeleton), kept by save(): no two players'
    # names look the same.
    name_key = models.CharField(max_length=160, unique=True, null=True, editable=False)
    # The private part of the calendar address (games.signed_links); "reset my calendar
    # link" draws a new one.
    calendar_secret = models.CharField(
        max_length=64, unique=True, default=new_calendar_secret, editable=False
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", choices=TIME_ZONE_CHOICES
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    email_mode = models.CharField(
        _("e-mail when it is my move"),
        max_length=12,
        choices=EmailMode.choices,
        default=EmailMode.COALESCED,
    )
    email_every_hours = models.PositiveSmallIntegerField(
        _("at most one mail per game every (hours)"), default=6
    )
    digest_hour = models.PositiveSmallIntegerField(_("daily digest at (hour)"), default=8)
    quiet_start = models.PositiveSmallIntegerField(_("quiet hours from"), null=True, blank=True)
    quiet_end = models.PositiveSmallIntegerField(_("quiet hours until"), null=True, blank=True)
    reminder_hours = models.JSONField(
        _("reminders before a deadline (hours)"), default=default_reminder_hours, blank=True
    )
    vacation_until = models.DateTimeField(_("on vacation until"), null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(_("vacation year"), default=0, editable=False)
    vacation_days_used = models.PositiveSmallIntegerField(
        _("vacation days used"), default=0, editable=False
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = names.skeleton(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    @classmethod
    def name_taken(cls, key: str) -> bool:
        """Whether a player's name has this look-alike key (``games.names.skeleton``)."""
        return cls.objects.filter(name_key=key).exists()

    @classmethod
    def for_user(cls, user: Any) -> Player:
        player = cls.objects.filter(user=user).first()
        if player is None:
            wanted = (user.email or user.get_username()).split("@")[0]
            player, _created = cls.objects.get_or_create(
                user=user, defaults={"display_name": names.free_name(wanted, cls.name_taken)}
            )
        return player


class GameQuerySet(models.QuerySet["Game"]):
    def for_user(self, user: Any) -> GameQuerySet:
        return self.filter(seats__user=user).distinct()


class Game(models.Model):
    class Status(models.IntegerChoices):
        # Ordered, so "playable" and "finished" are comparisons.
        OPEN = 10, _("open")
        ACTIVE = 20, _("active")
        FINISHED = 30, _("finished")
        ABORTED = 40, _("aborted")

    kind = models.CharField(_("game"), max_length=20, default="evergreen", db_index=True)
    edition = models.CharField(_("edition"), max_length=40, default="standard-v1", blank=True)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"), default=0, editable=False)
    players = models.PositiveSmallIntegerField(_("number of seats"), default=2)
    solo = models.BooleanField(_("solo"), default=False)
    sun_start = models.CharField(
        _("Sun start"), max_length=1, default="N", choices=[(s, s) for s in "NESW"]
    )
    days_per_move = models.PositiveSmallIntegerField(_("days per move"), null=True, blank=True)
    hours_per_move = models.PositiveSmallIntegerField(
        _("hours per move (fast games)"), null=True, blank=True
    )
    time_bank_hours = models.PositiveSmallIntegerField(_("time bank (hours)"), default=0)
    timeout_policy = models.CharField(
        _("when a player runs out of time"),
        max_length=10,
        choices=[
            ("bot", _("A computer player moves for them")),
            ("minimal", _("The smallest legal move is made for them")),
        ],
        default="bot",
    )
    needs_closing = models.BooleanField(
        _("round waiting to be closed"), default=False, db_index=True, editable=False
    )
    moves_count = models.PositiveIntegerField(_("number of moves"), default=0, editable=False)
    rated = models.BooleanField(_("rated"), default=False)
    status = models.PositiveSmallIntegerField(
        _("status"), choices=Status.choices, default=Status.OPEN, db_index=True
    )
    version = models.PositiveIntegerField(_("version"), default=0)
    state = models.JSONField(_("state snapshot"), null=True, blank=True, editable=False)
    phase = models.CharField(_("phase"), max_length=10, blank=True, choices=PHASE_CHOICES)
    season = models.PositiveSmallIntegerField(_("season"), default=0)
    round = models.PositiveSmallIntegerField(_("round"), default=0)
    invite_code = models.CharField(
        _("invitation code"), max_length=32, unique=True, default=_invite_code
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_games",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return str(_("Game #%(id)s") % {"id": self.pk})

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])

    @property
    def status_name(self) -> str:
        """The status as the pages and the API name it: open, active, finished, aborted."""
        return self.Status(self.status).name.lower()

    @property
    def is_playable(self) -> bool:
        return self.status == self.Status.ACTIVE

    @property
    def is_finished(self) -> bool:
        return self.status >= self.Status.FINISHED

    @property
    def move_hours(self) -> int | None:
        """Hours each player has for a move, or None without a time control."""
        if self.hours_per_move:
            return self.hours_per_move
        return self.days_per_move * 24 if self.days_per_move else None

    def setup(self) -> kinds.Setup:
        """What the game was set up from (the columns of older games, then the options)."""
        options = {"edition": self.edition, "sun_start": self.sun_start, **(self.options or {})}
        return kinds.Setup(self.players, self.seed, options)

    def engine_state(self) -> Any:
        """Its kind's state of the snapshot, read once per snapshot object (states are
        immutable, so sharing the parsed value is safe)."""
        if self.state is None:
            raise ValueError("the game has not started")
        cached = getattr(self, "_parsed_state", None)
        if cached is not None and cached[0] is self.state:
            return cached[1]
        state = kinds.of(self).state_from_json(self.state)
        self._parsed_state = (self.state, state)
        return state

    def remember_state(self, snapshot: dict[str, Any], state: Any) -> None:
        """Set the snapshot together with the state it was made from."""
        self.state = snapshot
        self._parsed_state = (snapshot, state)

    def record(self) -> Any:
        """The game record of its kind, rebuilt from the Move rows."""
        kind = kinds.of(self)
        names = [seat.name for seat in self.seats.order_by("position")]
        moves = [kind.move_from_json(m.payload, m.seat) for m in self.moves.order_by("number")]
        return kind.record(names, self.setup(), moves)


class Seat(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game")
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
    )
    bot = models.CharField(
        _("computer player"),
        max_length=10,
        blank=True,
        choices=kinds.bot_choices,  # the kinds' computer players, with their labels
    )
    score = models.IntegerField(_("score"), default=0)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    awaiting_since = models.DateTimeField(_("waiting since"), null=True, blank=True)
    time_bank_seconds = models.PositiveIntegerField(_("time bank left (seconds)"), default=0)
    timeouts_in_row = models.PositiveSmallIntegerField(_("missed deadlines in a row"), default=0)
    handed_to_bot = models.BooleanField(_("handed to a computer player"), default=False)
    standing_order = models.JSONField(_("card ranking"), default=list, blank=True)
    standing_order_round = models.CharField(
        _("round of the card ranking"), max_length=12, blank=True
    )
    last_acted_move = models.PositiveIntegerField(_("last move made"), default=0)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="seat_unique_user",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        if self.user_id is not None:
            player = getattr(self.user, "player", None)
            return player.display_name if player else self.user.get_username()
        if self.bot:
            return str(_("Computer (%(bot)s)") % {"bot": self.get_bot_display()})
        return str(_("Open seat"))

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot


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


# --- Ratings ----------------------------------------------------------------------------------

# OpenSkill (Weng-Lin, Plackett-Luce) starts everyone at mu 25, sigma 25/3. The rating shown
# is the ordinal mu - 3 sigma (a cautious estimate: the skill is 99.7 % likely to be higher)
# put on an Elo-like scale, so a new player shows 1000 and it grows as games make it surer.
RATING_MU = 25.0
RATING_SIGMA = 25.0 / 3.0
RATING_BASE = 1000
RATING_SCALE = 40


def shown_rating(mu: float, sigma: float) -> int:
    """The rating players see: ``1000 + 40 * (mu - 3 * sigma)``, rounded."""
    return round(RATING_BASE + RATING_SCALE * (mu - 3 * sigma))


class Rating(models.Model):
    """A player's current OpenSkill rating in one game (``kind``: a Verdant rating apart
    from the Evergreen one); rewritten by ``games.ratings`` only."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(_("game"), max_length=20, default="evergreen", db_index=True)
    mu = models.FloatField(_("skill (mu)"), default=RATING_MU)
    sigma = models.FloatField(_("uncertainty (sigma)"), default=RATING_SIGMA)
    rating = models.IntegerField(
        _("rating"),
        default=shown_rating(RATING_MU, RATING_SIGMA),
        db_index=True,
        help_text=_(  # xgettext:no-python-format (a percent sign, not a placeholder)
            "Shown to players: 1000 + 40 * (mu - 3 * sigma), the OpenSkill skill the player "
            "has at least with 99.7 % certainty (its ordinal), on an Elo-like scale. New "
            "players start at 1000; it rises as their games make the estimate surer."
        ),
    )
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["-rating", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind"], name="rating_unique_user_kind")
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating}"

    def set_skill(self, mu: float, sigma: float) -> None:
        self.mu, self.sigma = mu, sigma
        self.rating = shown_rating(mu, sigma)


class RatingChange(models.Model):
    """What one rated game did to one player's rating (at most one per game and player)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    place = models.PositiveSmallIntegerField(_("place"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    rating_before = models.IntegerField(_("rating before"))
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_after = models.IntegerField(_("rating after"))
    created_at = models.DateTimeField(_("rated at"), auto_now_add=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_unique")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.user_id}: {self.rating_before} → {self.rating_after}"

    @property
    def delta(self) -> int:
        return self.rating_after - self.rating_before
