"""Evergreen's own table: the Fertility Zone, a projection of the state snapshot kept for
the admin and queries (the table kept its name from when the platform owned it)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game

from . import rules

# The biomes as the admin names them (the same words as the board, ``words.BIOME_NAMES``).
BIOME_CHOICES = [
    ("snow", _("Snow")),
    ("swamp", _("Swamp")),
    ("rock", _("Rock")),
    ("flowers", _("Flowers")),
    ("wheat", _("Wheat")),
    ("grassland", _("Grassland")),
]


class FertilityCard(models.Model):
    """One card of the Fertility Zone, kept in step with the state snapshot."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="fertility_cards", verbose_name=_("game")
    )
    biome = models.CharField(_("biome"), max_length=12, choices=BIOME_CHOICES)
    order = models.PositiveSmallIntegerField(_("order in stack"))
    card = models.CharField(_("card"), max_length=24)
    face_up = models.BooleanField(_("face up"), default=True)
    fertility = models.PositiveSmallIntegerField(_("Fertility icons"), default=0)

    class Meta:
        db_table = "games_fertilitycard"
        verbose_name = _("Fertility Zone card")
        verbose_name_plural = _("Fertility Zone")
        ordering = ["game", "biome", "order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "biome", "order"], name="fz_unique_slot")
        ]

    def __str__(self) -> str:
        from .words import card_name

        return card_name(self.card)


def sync_fertility_zone(game: Game, state: rules.GameState) -> None:
    """Rewrite the game's Fertility Zone rows from ``state``."""
    cards = rules.load_edition(state.edition).cards
    FertilityCard.objects.filter(game=game).delete()
    FertilityCard.objects.bulk_create(
        FertilityCard(
            game=game,
            biome=biome,
            order=order,
            card=card,
            face_up=up,
            fertility=cards[card].fertility,
        )
        for biome, stack in zip(rules.BIOMES, state.fertility_zone, strict=True)
        for order, (card, up) in enumerate(stack)
    )
