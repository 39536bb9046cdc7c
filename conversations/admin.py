"""Reports and messages in the admin: staff who moderate see every one; a club's
organizers see those of their club (the tournaments admin's scoping, ``OrganizerScopedAdmin``)
and can hide messages there. Hiding goes through ``conversations.services``."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin.scoping import OrganizerScopedAdmin

from . import access, services
from .models import Message, Report


class ModeratedAdmin(OrganizerScopedAdmin):
    """Moderators see every row; organizers the rows of their clubs, to view and to act on
    (the organizers' group holds no permission of this app: being an organizer is enough)."""

    def scope(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if access.is_moderator(request.user):
            return queryset
        return super().scope(request, queryset)

    def runs(self, request: HttpRequest, obj: Any = None) -> bool:
        return access.is_moderator(request.user) or super().runs(request, obj)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.runs(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.runs(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and self.runs(request, obj)  # rows change through the actions

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [f.name for f in self.model._meta.fields]

    def hide_all(self, request: HttpRequest, messages: list[Message]) -> None:
        self.run_each(
            request,
            messages,
            lambda message: services.hide(request.user, message),
            lambda n: ngettext("%(n)d message hidden.", "%(n)d messages hidden.", n) % {"n": n},
        )


@admin.register(Report)
class ReportAdmin(ModeratedAdmin):
    list_display = (
        "created_at",
        "message_text",
        "author",
        "reporter",
        "reason",
        "club",
        "resolved",
    )
    list_filter = ("resolved",)
    list_select_related = ("message__author__player", "reporter__player", "club")
    actions = ("hide_messages", "mark_resolved")

    @admin.display(description=_("message"))
    def message_text(self, report: Report) -> str:
        """The text as reported, whatever its author did with it since."""
        message = report.message
        notes = [gettext("hidden")] if message.hidden else []
        if message.deleted:
            notes.append(gettext("deleted by its author"))
        elif report.text and message.text != report.text:
            notes.append(gettext("edited since"))
        shown = (report.text or message.text)[:200]
        return shown + "".join(f" ({note})" for note in notes)

    @admin.display(description=_("author"))
    def author(self, report: Report) -> str:
        return str(getattr(report.message.author, "player", report.message.author))

    @admin.action(description=_("Hide the reported messages"))
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        self.hide_all(request, [report.message for report in queryset.select_related("message")])

    @admin.action(description=_("Mark as dealt with"))
    def mark_resolved(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        count = queryset.update(resolved=True)
        self.message_user(
            request,
            ngettext("%(n)d report dealt with.", "%(n)d reports dealt with.", count) % {"n": count},
        )


@admin.register(Message)
class MessageAdmin(ModeratedAdmin):
    list_display = ("created_at", "channel", "game", "club", "author", "text", "hidden")
    list_filter = ("channel", "hidden")
    search_fields = ("text",)
    list_select_related = ("author__player", "club", "game")
    actions = ("hide_messages",)

    @admin.action(description=_("Hide from everyone"))
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[Message]) -> None:
        self.hide_all(request, list(queryset))
