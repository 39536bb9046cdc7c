"""The analyses in the Django admin: looked at, never edited (the hints each seat took
are shown with the seats, ``games.admin``).

An analysis changes only through ``services`` (the task's runs); the one write offered
is the "run again" action for failed ones (``services.rerun``). Like the games' admin,
these pages are for staff given the permissions; club organizers hold none of them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.admin import ModelAdmin

from . import services
from .models import Analysis


@admin.register(Analysis)
class AnalysisAdmin(ModelAdmin):
    list_display = ("id", "game", "player", "seat", "status", "progress", "budget", "created_at")
    list_filter = ("status", "budget")
    search_fields = ("=game__id", "user__player__display_name", "user__email")
    list_select_related = ("game", "user__player")
    date_hierarchy = "created_at"
    readonly_fields = (
        "game",
        "user",
        "seat",
        "budget",
        "status",
        "progress",
        "error",
        "created_at",
        "finished_at",
        "reviews",
    )
    fields = readonly_fields
    actions = ("run_again",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Analysis]:
        return super().get_queryset(request).defer("game__state")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players ask for them, from the replay or the API

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a deleted analysis would be asked for again and counted again

    @admin.display(description=_("player"), ordering="user__player__display_name")
    def player(self, analysis: Analysis) -> str:
        player = getattr(analysis.user, "player", None)
        return player.display_name if player is not None else str(analysis.user)

    @admin.display(description=_("progress"))
    def progress(self, analysis: Analysis) -> str:
        return f"{analysis.done} / {analysis.total}"

    @admin.action(description=_("Run the selected failed analyses again"), permissions=["change"])
    def run_again(self, request: HttpRequest, queryset: QuerySet[Analysis]) -> None:
        chosen = list(queryset.values_list("pk", flat=True))
        queued = sum(services.rerun(pk) for pk in chosen)
        if queued:
            self.message_user(
                request,
                ngettext(
                    "%(count)d analysis queued again.", "%(count)d analyses queued again.", queued
                )
                % {"count": queued},
                level=messages.SUCCESS,
            )
        if queued < len(chosen):
            skipped = len(chosen) - queued
            self.message_user(
                request,
                ngettext(
                    "%(count)d analysis had not failed: left as it was.",
                    "%(count)d analyses had not failed: left as they were.",
                    skipped,
                )
                % {"count": skipped},
                level=messages.WARNING,
            )
