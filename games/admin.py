"""The Django admin for games: look, search, filter, and abort through the services.

Games change only through ``games.services``, so the admin shows them read-only; the
one write it offers is the "abort" action, which calls ``services.abort_game``. The
state snapshot and the seed (secrets) are not shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import kinds, services
from .models import Game, Move, Player, Seat

if TYPE_CHECKING:
    # django-stubs makes these generic (in the model); Django's own classes take no
    # subscript at run time.
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
else:
    ModelAdmin, TabularInline = admin.ModelAdmin, admin.TabularInline


class ReadOnlyMixin:
    """Shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyMixin, TabularInline):
    model = Seat
    fields = ("position", "user", "bot", "score", "hints_used", "joined_at")
    readonly_fields = fields
    extra = 0
    ordering = ("position",)


class MoveInline(ReadOnlyMixin, TabularInline):
    model = Move
    fields = ("number", "seat", "kind", "payload", "user", "created_at")
    readonly_fields = fields
    extra = 0
    ordering = ("number",)
    show_change_link = True


@admin.register(Game)
class GameAdmin(ModelAdmin):
    list_display = ("id", "kind", "status", "seat_names", "phase", "season", "round", "created_at")
    list_filter = ("kind", "status", "players", "solo", "rated")
    search_fields = (
        "=id",
        "=kind",
        "seats__user__player__display_name",
        "seats__user__email",
    )
    readonly_fields = (
        "kind",
        "edition",
        "players",
        "solo",
        "sun_start",
        "days_per_move",
        "rated",
        "status",
        "version",
        "phase",
        "season",
        "round",
        "invite_code",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
        "updated_at",
    )
    fields = readonly_fields
    inlines = (SeatInline, MoveInline)
    actions = ("abort_games",)
    date_hierarchy = "created_at"

    def get_inlines(self, request: HttpRequest, obj: Game | None = None) -> Any:
        """The seats, the game kind's own tables (Evergreen's Fertility Zone), the moves."""
        if obj is None:
            return self.inlines
        return (SeatInline, *kinds.of(obj).admin_inlines(), MoveInline)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return super().get_queryset(request).defer("state").prefetch_related("seats__user__player")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are created in the lobby, through the services

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # abort instead: the moves stay on record

    @admin.display(description=_("players"))
    def seat_names(self, game: Game) -> str:
        return ", ".join(seat.name for seat in game.seats.all())

    @admin.action(description=_("Abort selected games"), permissions=["change"])
    def abort_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        aborted = 0
        for game in queryset.only("pk"):
            try:
                services.abort_game(game.pk)
            except services.ServiceError as exc:
                self.message_user(request, f"{game}: {exc.message}", level=messages.WARNING)
            else:
                aborted += 1
        if aborted:
            self.message_user(
                request,
                ngettext("%(count)d game aborted.", "%(count)d games aborted.", aborted)
                % {"count": aborted},
                level=messages.SUCCESS,
            )


@admin.register(Player)
class PlayerAdmin(ModelAdmin):
    list_display = ("display_name", "user", "language", "time_zone", "email_mode")
    list_filter = ("language", "email_mode")
    search_fields = ("display_name", "user__email", "user__username")
    list_select_related = ("user",)
    raw_id_fields = ("user",)


@admin.register(Seat)
class SeatAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ("game", "position", "name", "bot", "score", "hints_used", "joined_at")
    list_filter = ("bot",)
    search_fields = ("user__player__display_name", "user__email", "=game__id")
    list_select_related = ("game", "user__player")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Seat]:
        return super().get_queryset(request).defer("game__state")


@admin.register(Move)
class MoveAdmin(ReadOnlyMixin, ModelAdmin):
    list_display = ("game", "number", "seat", "kind", "user", "created_at")
    list_filter = ("kind",)
    search_fields = ("=game__id", "user__player__display_name", "user__email")
    list_select_related = ("game", "user")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        return super().get_queryset(request).defer("game__state")

    readonly_fields = (
        "game",
        "number",
        "seat",
        "kind",
        "payload",
        "user",
        "idempotency_key",
        "result_version",
        "created_at",
    )
    fields = readonly_fields
