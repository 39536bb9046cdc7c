"""Evergreen's part of a game's admin page: its Fertility Zone (read only), shown by the
platform's ``GameAdmin`` through the kind (``admin_inlines``)."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.admin import ReadOnlyMixin, TabularInline

from .models import FertilityCard
from .words import card_name


class FertilityCardInline(ReadOnlyMixin, TabularInline):
    model = FertilityCard
    fields = ("biome", "order", "card_name", "face_up", "fertility")
    readonly_fields = fields

    @admin.display(description=_("card"))
    def card_name(self, card: FertilityCard) -> str:
        return card_name(card.card)

    extra = 0
