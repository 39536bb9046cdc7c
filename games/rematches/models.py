"""A rematch offered after a finished game: who has accepted, and the new game once all
the people of the old one have."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Rematch(models.Model):
    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="rematch", verbose_name=_("game")
    )
    # Seat positions of the old game whose players accepted (changed with the old game's
    # row locked, so two acceptances never lose one another).
    accepted = models.JSONField(_("accepted by seats"), default=list, blank=True)
    # The seat whose player offered it (the first to accept): the others are told who.
    offered_by = models.PositiveSmallIntegerField(_("offered by seat"), null=True, blank=True)
    new_game = models.OneToOneField(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch_of",
        verbose_name=_("new game"),
    )
    created_at = models.DateTimeField(_("offered"), auto_now_add=True)

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")

    def __str__(self) -> str:
        return str(_("Rematch of %(game)s") % {"game": self.game})
