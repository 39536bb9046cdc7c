"""A game: its kind, options and time control, the snapshot of its state and its version.

``Game.state`` is a cached snapshot of its kind's state (secrets included: it is never sent
to a browser); the Move rows are the source of truth (``Game.record``).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import prefetch_related_objects
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .. import kinds


def _invite_code() -> str:
    return secrets.token_urlsafe(12)


PHASE_CHOICES = [("draft", _("Draft")), ("action", _("Action")), ("over", _("Game over"))]


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
    # When the game's chat last had a message (set by conversations): a mail about a game
    # nobody has written in spends no query looking for chat lines.
    last_message_at = models.DateTimeField(null=True, blank=True, editable=False)
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

    def attach_seats(self, seats: list[Any]) -> None:
        """Hand the game its seats in seat order (read with it: ``games.rowcache``): what
        ``seats_in_order`` and ``ordered_seats`` give from then on, without a query, each
        seat's ``game`` this game (not read again through the seat). Read with the game in
        one round trip rather than prefetched, a game whose rows changed costs a quarter
        of the CPU to read (``games.rowsread``), and Django has no public way to put seats
        read so in ``game.seats.all()``."""
        for seat in seats:
            seat.game = self
        self._attached_seats = seats

    def has_seats_attached(self) -> bool:
        """Whether its reader attached its seats (``attach_seats``)."""
        return "_attached_seats" in self.__dict__

    def seats_in_order(self) -> list[Any]:
        """Its seats in seat order: those its reader attached (``attach_seats``), else
        ``self.seats.all()`` (one query, none when the reader prefetched them)."""
        attached: list[Any] | None = self.__dict__.get("_attached_seats")
        if attached is not None:
            return attached
        return sorted(self.seats.all(), key=lambda seat: seat.position)

    def ordered_seats(self) -> list[Any]:
        """Its seats in seat order, with their players: those its reader attached (with
        their users), else read in one query, or none when the caller prefetched them (the
        services, the mail delivery)."""
        if not self.has_seats_attached():
            prefetch_related_objects([self], "seats__user__player")
        return self.seats_in_order()

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        """Django's, which also forgets the seats attached (as it forgets prefetched ones)."""
        self.__dict__.pop("_attached_seats", None)
        super().refresh_from_db(*args, **kwargs)

    def record(self) -> Any:
        """The game record of its kind, rebuilt from the Move rows."""
        kind = kinds.of(self)
        names = [seat.name for seat in self.ordered_seats()]
        # Two columns rather than Move instances: a third less work for a long game.
        rows = self.moves.order_by("number").values_list("payload", "seat")
        moves = [kind.move_from_json(payload, seat) for payload, seat in rows]
        return kind.record(names, self.setup(), moves)
