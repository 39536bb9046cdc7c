"""A seat at a game: who plays it (a user or a computer player), its score and its clock."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .. import kinds
from .game import Game


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
    # Raised by one UPDATE of its own per hint given (``games.analysis.hints``), never
    # written back by a game's writes (``Seats.save`` writes only the fields changed).
    hints_used = models.PositiveIntegerField(_("hints used"), default=0)

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
        user = self.user if self.user_id is not None else None
        if user is not None:
            player = getattr(user, "player", None)
            return player.display_name if player else user.get_username()
        if self.bot:
            return str(_("Computer (%(bot)s)") % {"bot": kinds.bot_label(self.bot)})
        return str(_("Open seat"))

    @property
    def is_open(self) -> bool:
        return self.user_id is None and not self.bot


class Seats(list[Seat]):
    """A game's seats during one write, in seat order, with what the write changed on them.

    Every change of a seat's state goes through ``change``: it sets the values on the seat
    at once (the rest of the write and the answer read them there) and notes each field
    whose value it changed. ``save`` writes those fields and nothing else, one UPDATE for
    the seats changed alike (clocks started together): a seat the write left alone costs
    no query, and a field it did not change is never written back over someone else's.
    """

    def __init__(self, seats: Iterable[Seat] = ()) -> None:
        super().__init__(seats)
        self._changed: dict[int, set[str]] = {}  # the seat's position: the fields changed

    def change(self, seat: Seat, **values: Any) -> None:
        for name, value in values.items():
            if getattr(seat, name) != value:
                setattr(seat, name, value)
                self._changed.setdefault(seat.position, set()).add(name)

    def save(self) -> None:
        """Write what changed since the last ``save``."""
        for values, pks in self.changes():
            Seat.objects.filter(pk__in=pks).update(**values)

    def changes(self) -> list[tuple[dict[str, Any], list[int]]]:
        """The UPDATEs that write what changed since the last ``save`` or ``changes``, as
        (values, the seats' ids) each, and forget it (the caller writes them)."""
        alike: list[tuple[dict[str, Any], list[int]]] = []
        for seat in self:
            names = self._changed.get(seat.position)
            if not names:
                continue
            values = {name: getattr(seat, name) for name in sorted(names)}
            group = next((pks for same, pks in alike if same == values), None)
            if group is None:
                alike.append((values, [seat.pk]))
            else:
                group.append(seat.pk)
        self._changed.clear()
        return alike
