"""Events in the admin: their settings (``services.EVENT_SETTINGS``), the buttons on an
event's page (open registration, start, seat the next round, close, the next season),
the same as actions on the list, seeding ranks, and the standings export."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from django.contrib import admin, messages
from django.core.exceptions import BadRequest, PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games.services import ServiceError

from .. import presenters, services
from ..models import Division, Event, Registration
from .eventform import EventForm
from .export import standings_csv
from .scoping import (
    OrganizerScopedAdmin,
    ReadOnlyInline,
    RefusalsAsMessages,
    TabularInline,
)


class RegistrationInline(TabularInline):
    model = Registration
    fields = ("player", "status", "division", "seed_rank", "eliminated_in", "registered_at")
    readonly_fields = ("player", "status", "division", "eliminated_in", "registered_at")
    extra = 0
    can_delete = False
    ordering = ("status", "seed_rank", "registered_at")
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # players register themselves, on the event's page or the API

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Seeding ranks matter until the event starts.
        return (
            obj is not None
            and obj.status in (Event.Status.DRAFT, Event.Status.REGISTRATION)
            and super().has_change_permission(request, obj)
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Registration]:
        return super().get_queryset(request).select_related("user__player", "division")

    @admin.display(description=_("player"))
    def player(self, registration: Registration) -> str:
        return format_html(
            '<a href="{}">{}</a>',
            reverse("tournaments:player", args=[registration.user_id]),
            presenters.player_name(registration.user),
        )


class DivisionInline(ReadOnlyInline):
    model = Division
    fields = ("number", "name", "promote", "relegate")
    readonly_fields = fields


EVENT_OPERATIONS: dict[str, tuple[Callable[[Event, Any], Any], Any]] = {
    "open": (services.open_registration, _("Registration is open.")),
    "start": (services.start_event, _("The event has started: round 1 is seated.")),
    "next": (services.seat_next_round, _("The next round is seated.")),
    "close": (services.close_event, _("The event is closed.")),
    "season": (
        services.create_next_season,
        _("The next season is ready: its divisions are formed and registration is open."),
    ),
}


class EventAdmin(RefusalsAsMessages, OrganizerScopedAdmin):
    form = EventForm
    list_display = ("name", "club", "format", "status", "players", "current_round", "created_at")
    list_filter = (("club", admin.RelatedOnlyFieldListFilter), "status", "format")
    search_fields = ("name", "slug", "club__name")
    list_select_related = ("club",)
    prepopulated_fields: ClassVar[dict[str, Sequence[str]]] = {"slug": ("name",)}
    inlines = (RegistrationInline, DivisionInline)
    actions = (
        "open_registration",
        "start_events",
        "seat_next_rounds",
        "close_events",
        "export_standings",
    )
    change_form_template = "tournaments/admin/event_change_form.html"
    fieldsets = (
        (None, {"fields": ("club", "name", "slug", "description", "status", "public_page")}),
        (
            _("Format and tables"),
            {
                "fields": (
                    "game",
                    "format",
                    ("table_size", "min_table_size"),
                    "rounds",
                    "knockout_advance",
                    ("division_size", "promote", "relegate"),
                    ("season", "previous_season"),
                )
            },
        ),
        (
            _("Points and tie-breaks"),
            {"fields": ("points_scheme", "bye_points", "tiebreaks", "rated")},
        ),
        (
            _("Time control and timeouts"),
            {
                "fields": (
                    ("days_per_move", "hours_per_move", "time_bank_hours"),
                    "timeout_policy",
                    "timeouts_before_decision",
                    "vacation_limit_days",
                )
            },
        ),
        (_("Registration"), {"fields": (("registration_opens", "registration_closes"),)}),
        (
            _("Progress"),
            {"fields": ("current_round", "created_by", "created_at", "started_at", "finished_at")},
        ),
    )
    FIXED = (
        "status",
        "public_page",
        "season",
        "previous_season",
        "current_round",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Event]:
        events: QuerySet[Event] = super().get_queryset(request)
        return events.annotate(
            active=Count(
                "registrations", filter=Q(registrations__status=Registration.Status.ACTIVE)
            )
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return self.FIXED
        if obj.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
            return (*self.FIXED, "club", "slug")
        return (*self.FIXED, "club", "slug", *services.EVENT_SETTINGS)

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> dict[str, Any]:
        return self.prepopulated_fields if obj is None else {}

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial: dict[str, Any] = super().get_changeform_initial_data(request)
        club = request.GET.get("club", "")
        if club:
            # "²" is a digit but no number; a number of thousands of digits is no club either.
            if not (club.isascii() and club.isdecimal() and len(club) <= 18):
                raise BadRequest("The club is given by its number.")
            initial["club"] = int(club)
        return initial

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # Only an event nobody has registered for yet: the others have players (and
        # then games and results) whose history stays.
        deletable = obj is None or (
            obj.status in (Event.Status.DRAFT, Event.Status.REGISTRATION)
            and not obj.registrations.exists()
        )
        return deletable and super().has_delete_permission(request, obj)

    @admin.display(description=_("players"), ordering="active")
    def players(self, event: Event) -> int:
        return event.active  # type: ignore[attr-defined,no-any-return]

    @admin.display(description=_("public page"))
    def public_page(self, event: Event) -> str:
        if not event.pk:
            return "—"
        return format_html('<a href="{0}">{0}</a>', event.get_absolute_url())

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        fields = {
            name: form.cleaned_data[name]
            for name in form.changed_data
            if name in services.EVENT_FIELDS and name in form.cleaned_data
        }
        if change:
            updated = services.update_event(obj, request.user, **fields)
            obj.__dict__.update({k: getattr(updated, k) for k in fields})
            return
        everything = {
            name: form.cleaned_data[name]
            for name in form.cleaned_data
            if name in services.EVENT_FIELDS
        }
        event = services.create_event(obj.club, request.user, **everything)
        obj.pk, obj.seed, obj.created_by = event.pk, event.seed, event.created_by
        obj.created_at = event.created_at
        obj._state.adding = False

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        # The registrations' seeding ranks are the inline's only editable field.
        if formset.model is not Registration:
            super().save_formset(request, form, formset, change)
            return
        formset.save(commit=False)  # nothing saved: it lists the changes for the history
        ranks = {
            f.instance.pk: f.cleaned_data.get("seed_rank")
            for f in formset.forms
            if f.instance.pk and "seed_rank" in f.changed_data
        }
        if ranks:
            services.set_seed_ranks(form.instance, request.user, ranks)

    # The buttons on the event's page, and the standings export.

    def get_urls(self) -> list[Any]:
        return [
            path(
                "<path:object_id>/run/<str:operation>/",
                self.admin_site.admin_view(self.run_view),
                name="tournaments_event_run",
            ),
            path(
                "<path:object_id>/standings.csv",
                self.admin_site.admin_view(self.standings_view),
                name="tournaments_event_standings",
            ),
            *super().get_urls(),
        ]

    def _event_or_404(self, request: HttpRequest, object_id: str) -> Event:
        event: Event | None = self.get_object(request, object_id)  # scoped to the user's clubs
        if event is None:
            raise Http404(gettext("There is no such event."))
        return event

    def run_view(self, request: HttpRequest, object_id: str, operation: str) -> HttpResponse:
        return require_POST(self._run)(request, object_id, operation)

    def _run(self, request: HttpRequest, object_id: str, operation: str) -> HttpResponse:
        event = self._event_or_404(request, object_id)
        if operation not in EVENT_OPERATIONS:
            raise Http404(gettext("There is no such operation."))
        if not self.has_change_permission(request, event):
            raise PermissionDenied
        if operation == "close" and request.POST.get("post") != "yes":
            context = {
                **self.admin_site.each_context(request),
                "title": gettext("Close this event?"),
                "warning": gettext("No further round is seated; the standings are final."),
                "objects": [event],
                "form_action": request.path,
                "opts": self.model._meta,
            }
            return TemplateResponse(request, "tournaments/admin/confirm_action.html", context)
        write, done = EVENT_OPERATIONS[operation]
        try:
            result = write(event, request.user)
        except ServiceError as exc:
            self.message_user(request, exc.message, level=messages.ERROR)
        else:
            if operation == "next" and result is None:
                done = _("That was the last round: the event is over.")
            self.message_user(request, str(done), level=messages.SUCCESS)
            if operation == "season":
                event = result  # on to the new season's page
        return HttpResponseRedirect(reverse("admin:tournaments_event_change", args=[event.pk]))

    def standings_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        event = self._event_or_404(request, object_id)
        if not self.has_view_permission(request, event):
            raise PermissionDenied
        return standings_csv([event])

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> HttpResponse:
        if obj is not None:
            context["operations"] = _operations(obj)
            context["standings_csv"] = reverse("admin:tournaments_event_standings", args=[obj.pk])
        return super().render_change_form(request, context, add, change, form_url, obj)

    # Actions on the list of events.

    def _each(self, request: HttpRequest, queryset: QuerySet[Event], operation: str) -> None:
        write, _done = EVENT_OPERATIONS[operation]
        self.run_each(
            request,
            queryset.select_related("club"),
            lambda e: write(e, request.user),
            lambda n: ngettext("%(count)d event done.", "%(count)d events done.", n) % {"count": n},
        )

    @admin.action(description=_("Open registration"), permissions=["change"])
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        self._each(request, queryset, "open")

    @admin.action(description=_("Start (seat round 1)"), permissions=["change"])
    def start_events(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        self._each(request, queryset, "start")

    @admin.action(description=_("Seat the next round"), permissions=["change"])
    def seat_next_rounds(self, request: HttpRequest, queryset: QuerySet[Event]) -> None:
        self._each(request, queryset, "next")

    @admin.action(description=_("Close (no further round)"), permissions=["change"])
    def close_events(
        self, request: HttpRequest, queryset: QuerySet[Event]
    ) -> TemplateResponse | None:
        asked = self.confirmation(
            request,
            queryset,
            gettext("Close these events?"),
            gettext("No further round is seated; the standings are final."),
        )
        if asked is None:
            self._each(request, queryset, "close")
        return asked

    @admin.action(description=_("Export standings (CSV)"), permissions=["view"])
    def export_standings(self, request: HttpRequest, queryset: QuerySet[Event]) -> HttpResponse:
        return standings_csv(list(queryset.select_related("club").order_by("club__name", "name")))


def _operations(event: Event) -> list[tuple[str, str, bool]]:
    """(operation, label, primary) of the buttons that make sense for the event now."""
    buttons = []
    if event.status == Event.Status.DRAFT:
        buttons.append(("open", gettext("Open registration"), False))
    if event.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        buttons.append(("start", gettext("Start the event (seat round 1)"), True))
    if event.status == Event.Status.RUNNING:
        buttons.append(("next", gettext("Seat the next round"), True))
        buttons.append(("close", gettext("Close the event"), False))
    if (
        event.format == Event.Format.LEAGUE
        and event.status == Event.Status.FINISHED
        and not Event.objects.filter(previous_season=event).exists()
    ):
        buttons.append(
            ("season", gettext("Start the next season (promotion and relegation)"), True)
        )
    return buttons
