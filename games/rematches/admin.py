"""Rematches in the Django admin, read-only: the game, who accepted, the new game.

A rematch changes only through ``services.accept`` (the players' button and the API);
like the games' admin, these pages are for staff given the permissions, and club
organizers hold none of them.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.admin import ModelAdmin, ReadOnlyMixin

from .models import Rematch


@admin.register(Rematch)
class RematchAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ("id", "game", "accepted_by", "new_game", "created_at")
    search_fields = ("=game__id", "=new_game__id", "game__seats__user__player__display_name")
    list_filter = (("new_game", admin.EmptyFieldListFilter),)
    date_hierarchy = "created_at"
    fields = ("game", "accepted_by", "new_game", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Rematch]:
        return (
            super()
            .get_queryset(request)
            .select_related("game", "new_game")
            .defer("game__state", "new_game__state")
            .prefetch_related("game__seats__user__player")
        )

    @admin.display(description=_("accepted by"))
    def accepted_by(self, rematch: Rematch) -> str:
        seats = {seat.position: seat.name for seat in rematch.game.seats.all()}
        return ", ".join(seats.get(position, str(position)) for position in rematch.accepted)
