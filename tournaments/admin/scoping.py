"""What every model admin of the tournaments app stands on: rows limited to the clubs
the user organizes (superusers see everything), read-only rows and inlines, refusals of
the services shown as messages, and the "are you sure?" page of an irreversible action.

A row of another club is not found (404), an action never reaches it (the changelist's
queryset is scoped) and a custom view looks its object up through the same queryset.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse

from games.services import ServiceError

from ..access import organized_club_ids
from ..models import Club, Division, Event

if TYPE_CHECKING:
    # django-stubs makes these generic (in the model); Django's own classes take no
    # subscript at run time.
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
    ModelForm = forms.ModelForm[Any]
else:
    ModelAdmin, TabularInline, ModelForm = admin.ModelAdmin, admin.TabularInline, forms.ModelForm


def _club_ids(request: HttpRequest) -> set[int] | None:
    """The clubs this request's user runs; None: every club (a superuser). Cached per request."""
    if request.user.is_superuser:
        return None
    cached = getattr(request, "_organized_club_ids", None)
    if cached is None:
        cached = organized_club_ids(request.user)
        request._organized_club_ids = cached  # type: ignore[attr-defined]
    return cached


class OrganizerScopedAdmin(ModelAdmin):
    """A model admin that shows and changes only rows of the user's own clubs.

    ``club_lookup`` is the path from the model to its club ("pk" for Club itself). The
    Django permissions (the organizers' group, see tournaments.access) still apply on
    top: this narrows them to the user's clubs.
    """

    club_lookup = "club"

    def scope(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        ids = _club_ids(request)
        if ids is None:
            return queryset
        return queryset.filter(**{f"{self.club_lookup}__in": ids})

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return self.scope(request, super().get_queryset(request))

    def club_id_of(self, obj: Model) -> int:
        value: Any = obj
        parts = self.club_lookup.split("__")
        for part in parts[:-1]:
            value = getattr(value, part)
        last = parts[-1]
        return int(value.pk if last == "pk" else getattr(value, f"{last}_id"))

    def runs(self, request: HttpRequest, obj: Model | None) -> bool:
        ids = _club_ids(request)
        if ids is None:
            return True
        if obj is None:
            return bool(ids)
        return self.club_id_of(obj) in ids

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.runs(request, None) and super().has_module_permission(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.runs(request, obj) and super().has_view_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.runs(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.runs(request, obj) and super().has_delete_permission(request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return self.runs(request, None) and super().has_add_permission(request, *args)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        ids = _club_ids(request)
        if ids is not None:
            if db_field.related_model is Club:
                kwargs["queryset"] = Club.objects.filter(pk__in=ids)
            elif db_field.related_model is Event:
                kwargs["queryset"] = Event.objects.filter(club_id__in=ids)
            elif db_field.related_model is Division:
                kwargs["queryset"] = Division.objects.filter(event__club_id__in=ids)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def run_each(
        self,
        request: HttpRequest,
        objects: Iterable[Any],
        write: Callable[[Any], Any],
        done: Callable[[int], str],
    ) -> int:
        """Call ``write`` for each object; report refusals one by one and the count done."""
        count = 0
        for obj in objects:
            try:
                write(obj)
            except ServiceError as exc:
                self.message_user(request, f"{obj}: {exc.message}", level=messages.ERROR)
            else:
                count += 1
        if count:
            self.message_user(request, done(count), level=messages.SUCCESS)
        return count

    def confirmation(
        self, request: HttpRequest, queryset: QuerySet[Any], question: str, warning: str
    ) -> TemplateResponse | None:
        """For an action that cannot be undone: a page that asks first (None once confirmed)."""
        if request.POST.get("post") == "yes":
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": question,
            "warning": warning,
            "objects": list(queryset),
            "action": request.POST.get("action", ""),
            "opts": self.model._meta,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "tournaments/admin/confirm_action.html", context)


class ReadOnlyInline(TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(OrganizerScopedAdmin):
    """Shown to organizers, changed only through the services (actions)."""

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Actions ask without an object; an object's page is for viewing only.
        return obj is None and super().has_change_permission(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return [f.name for f in self.model._meta.fields]


class RefusalsAsMessages:
    """A refusal the services find only when saving (e.g. an event that started
    meanwhile, a short name taken by another club) comes back as a message."""

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(  # type: ignore[misc,no-any-return]
                request, object_id, form_url, extra_context
            )
        except ServiceError as exc:
            self.message_user(request, exc.message, level=messages.ERROR)  # type: ignore[attr-defined]
            return HttpResponseRedirect(request.get_full_path())
