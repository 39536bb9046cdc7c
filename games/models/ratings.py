"""Ratings: each player's OpenSkill rating per game kind, and what each rated game did
to it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .game import Game

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
