"""The organizers' tools: clubs and events in the Django admin, limited to their own clubs.

Every model admin here derives from ``OrganizerScopedAdmin``: its queryset, object
permissions and foreign-key choices are limited to the clubs where the user is an
organizer (superusers see everything). A row of another club is not found (404), an
action never reaches it (the changelist's queryset is scoped) and a custom view looks
its object up through the same queryset.

Writes go through ``tournaments.services`` (which checks the organizer again): the
actions and the buttons on an event's page (open registration, start, seat the next
round, close), replacing a player with the bot, adjudicating a stalled table, ruling on
a timeout decision, answering join requests, members' roles. Rounds, tables and the
rest are shown read-only. Standings export as CSV.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Model, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from games import kinds
from games.services import ServiceError

from . import presenters, services
from .access import organized_club_ids
from .models import (
    Bye,
    Club,
    Division,
    Event,
    JoinRequest,
    Membership,
    Registration,
    Round,
    Table,
    TimeoutDecision,
)


def _player_name(user: Any) -> str:
    player = getattr(user, "player", None)
    return player.display_name if player else user.get_username()


# --- Scoping to the organizer's clubs ----------------------------------------------------------


def _club_ids(request: HttpRequest) -> set[int] | None:
    """The clubs this request's user runs; None: every club (a superuser). Cached per request."""
    if request.user.is_superuser:
        return None
    cached = getattr(request, "_organized_club_ids", None)
    if cached is None:
        cached = organized_club_ids(request.user)
        request._organized_club_ids = cached  # type: ignore[attr-defined]
    return cached


class OrganizerScopedAdmin(admin.ModelAdmin):
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


class ReadOnlyInline(admin.TabularInline):
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


# --- Clubs, members, join requests -------------------------------------------------------------


class MembershipInline(ReadOnlyInline):
    model = Membership
    fields = ("user", "role", "joined_at")
    readonly_fields = fields
    ordering = ("-role", "joined_at")


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


class ClubAdmin(RefusalsAsMessages, OrganizerScopedAdmin):
    club_lookup = "pk"
    list_display = ("name", "slug", "visibility", "member_count", "created_at")
    search_fields = ("name", "slug")
    fields = ("name", "slug", "description", "visibility", "invitation", "created_by", "created_at")
    readonly_fields = ("invitation", "created_by", "created_at")
    prepopulated_fields: ClassVar[dict[str, tuple[str, ...]]] = {"slug": ("name",)}
    inlines = (MembershipInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return super().get_queryset(request).annotate(members=Count("memberships"))

    @admin.display(description=_("members"), ordering="members")
    def member_count(self, club: Club) -> int:
        return club.members  # type: ignore[attr-defined,no-any-return]

    @admin.display(description=_("invitation link"))
    def invitation(self, club: Club) -> str:
        if not club.pk:
            return "—"
        url = reverse("tournaments:club_invite", args=[club.invite_code])
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            url,
            url,
            reverse("admin:tournaments_membership_changelist") + f"?club__id__exact={club.pk}",
            gettext("Members and roles"),
        )

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser  # a club's history (events, games) stays

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        if change:
            changed = {
                name: form.cleaned_data[name]
                for name in form.changed_data
                if name in services.CLUB_FIELDS
            }
            services.update_club(obj, request.user, **changed)
            return
        # A club made here has its maker as first organizer, as on the site.
        club = services.create_club(
            request.user,
            obj.name,
            obj.description,
            invite_only=obj.visibility == Club.Visibility.INVITE,
            slug=obj.slug or None,
        )
        obj.pk, obj.invite_code, obj.created_by = club.pk, club.invite_code, club.created_by
        obj.created_at = club.created_at
        obj._state.adding = False


class MembershipAdmin(OrganizerScopedAdmin):
    list_display = ("user", "club", "role", "joined_at")
    list_filter = (("club", admin.RelatedOnlyFieldListFilter), "role")
    search_fields = ("user__player__display_name", "user__email", "club__name")
    list_select_related = ("user__player", "club")
    actions = ("make_organizers", "make_members", "remove_members")

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # players join through the club page, an invitation or a request

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # "remove from the club" (an action) goes through the services

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def _set_role(self, request: HttpRequest, queryset: QuerySet[Membership], role: str) -> None:
        self.run_each(
            request,
            queryset.select_related("club", "user"),
            lambda m: services.set_role(m.club, m.user, role, request.user),
            lambda n: (
                ngettext("%(count)d role changed.", "%(count)d roles changed.", n) % {"count": n}
            ),
        )

    @admin.action(
        description=_("Make organizers (they get the organizer tools)"), permissions=["view"]
    )
    def make_organizers(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._set_role(request, queryset, Membership.Role.ORGANIZER)

    @admin.action(description=_("Make plain members"), permissions=["view"])
    def make_members(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._set_role(request, queryset, Membership.Role.MEMBER)

    @admin.action(description=_("Remove from the club"), permissions=["view"])
    def remove_members(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self.run_each(
            request,
            queryset.select_related("club", "user"),
            lambda m: services.remove_member(m.club, m.user, request.user),
            lambda n: (
                ngettext("%(count)d member removed.", "%(count)d members removed.", n)
                % {"count": n}
            ),
        )


class JoinRequestAdmin(ReadOnlyAdmin):
    list_display = ("user", "club", "status", "created_at", "message")
    list_filter = ("status", ("club", admin.RelatedOnlyFieldListFilter))
    list_select_related = ("user__player", "club")
    actions = ("accept_requests", "decline_requests")

    def _decide(self, request: HttpRequest, queryset: QuerySet[JoinRequest], accept: bool) -> None:
        self.run_each(
            request,
            queryset.select_related("club", "user"),
            lambda r: services.decide_join_request(r, request.user, accept),
            lambda n: (
                ngettext("%(count)d request answered.", "%(count)d requests answered.", n)
                % {"count": n}
            ),
        )

    @admin.action(description=_("Accept: make them members"), permissions=["view"])
    def accept_requests(self, request: HttpRequest, queryset: QuerySet[JoinRequest]) -> None:
        self._decide(request, queryset, True)

    @admin.action(description=_("Decline"), permissions=["view"])
    def decline_requests(self, request: HttpRequest, queryset: QuerySet[JoinRequest]) -> None:
        self._decide(request, queryset, False)


# --- Events -------------------------------------------------------------------------------------

SETTINGS = (
    "game",
    "format",
    "table_size",
    "min_table_size",
    "rounds",
    "rated",
    "days_per_move",
    "hours_per_move",
    "time_bank_hours",
    "timeout_policy",
    "timeouts_before_decision",
    "bye_points",
    "points_scheme",
    "tiebreaks",
    "knockout_advance",
    "division_size",
    "promote",
    "relegate",
    "registration_opens",
    "registration_closes",
    "vacation_limit_days",
)
ALWAYS_EDITABLE = ("name", "description")


def _game_choices() -> list[tuple[str, str]]:
    return [(name, str(kind.title)) for name, kind in kinds.kinds().items()]


class EventForm(forms.ModelForm):
    game = forms.ChoiceField(
        label=_("game"), choices=_game_choices, initial="evergreen", required=False
    )

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or "evergreen"

    class Meta:
        model = Event
        fields = ("club", "name", "slug", "description", *SETTINGS)

    def _post_clean(self) -> None:
        super()._post_clean()
        if not self.errors:
            try:
                services.check_event(self.instance)
            except ServiceError as exc:
                self.add_error(None, exc.message)


class RegistrationInline(admin.TabularInline):
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
            _player_name(registration.user),
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
    prepopulated_fields: ClassVar[dict[str, tuple[str, ...]]] = {"slug": ("name",)}
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
        return (
            super()
            .get_queryset(request)
            .annotate(
                active=Count(
                    "registrations", filter=Q(registrations__status=Registration.Status.ACTIVE)
                )
            )
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return self.FIXED
        if obj.status in (Event.Status.DRAFT, Event.Status.REGISTRATION):
            return (*self.FIXED, "club", "slug")
        return (*self.FIXED, "club", "slug", *SETTINGS)

    def get_prepopulated_fields(self, request: HttpRequest, obj: Any = None) -> dict[str, Any]:
        return self.prepopulated_fields if obj is None else {}

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial = super().get_changeform_initial_data(request)
        club = request.GET.get("club")
        if club and club.isdigit():
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
        event = self.get_object(request, object_id)  # scoped to the user's clubs
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
    ) -> TemplateResponse:
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


# --- Standings export ---------------------------------------------------------------------------


def standings_csv(events: list[Event]) -> HttpResponse:
    """The standings of ``events`` as one CSV file (a row per player and event)."""
    if len(events) == 1:
        event = events[0]
        filename = f"{event.club.slug}-{event.slug}-standings.csv"
    else:
        filename = "standings.csv"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(filename[:-4])}.csv"'
    response.write("\ufeff")  # a byte order mark: spreadsheets then read UTF-8 names right
    writer = csv.writer(response)
    writer.writerow(
        [
            gettext("club"),
            gettext("event"),
            gettext("division"),
            gettext("rank"),
            gettext("player"),
            gettext("player id"),
            gettext("points"),
            gettext("opponents' points"),
            gettext("game score"),
            gettext("head-to-head"),
            gettext("played"),
            gettext("byes"),
            gettext("seat 1"),
            gettext("seat 2"),
            gettext("seat 3"),
            gettext("seat 4"),
            gettext("withdrawn"),
            gettext("knocked out in round"),
        ]
    )
    for event in events:
        for group in presenters.standing_groups(event):
            for s in group.rows:
                writer.writerow(
                    [
                        event.club.name,
                        event.name,
                        str(group.division) if group.division else "",
                        s.row.rank,
                        s.name,
                        s.user_id,
                        f"{s.row.points:g}",
                        f"{s.row.opponents:g}",
                        s.row.score,
                        f"{s.row.head_to_head:g}",
                        s.row.played,
                        s.row.byes,
                        *s.row.seats,
                        gettext("yes") if s.withdrawn else "",
                        s.eliminated_in or "",
                    ]
                )
    return response


# --- Registrations, rounds, tables, timeouts ---------------------------------------------------


class RegistrationAdmin(ReadOnlyAdmin):
    club_lookup = "event__club"
    list_display = ("user", "event", "status", "division", "seed_rank", "registered_at")
    list_filter = (("event", admin.RelatedOnlyFieldListFilter), "status")
    search_fields = ("user__player__display_name", "user__email", "event__name")
    list_select_related = ("user__player", "event", "division")
    actions = ("replace_with_bot", "withdraw_and_replace")

    def _replace(
        self, request: HttpRequest, queryset: QuerySet[Registration], withdraw: bool
    ) -> None:
        self.run_each(
            request,
            queryset.select_related("event__club", "user"),
            lambda r: services.replace_with_bot(
                r.event, r.user, request.user, withdraw_player=withdraw
            ),
            lambda n: (
                ngettext(
                    "%(count)d player's seats passed to the bot.",
                    "%(count)d players' seats passed to the bot.",
                    n,
                )
                % {"count": n}
            ),
        )

    @admin.action(description=_("Replace with the bot in unfinished games"), permissions=["view"])
    def replace_with_bot(
        self, request: HttpRequest, queryset: QuerySet[Registration]
    ) -> TemplateResponse | None:
        asked = self.confirmation(
            request,
            queryset,
            gettext("Replace these players with the bot?"),
            gettext("A computer player takes their seats in every unfinished game of the event."),
        )
        if asked is None:
            self._replace(request, queryset, False)
        return asked

    @admin.action(
        description=_("Withdraw (late): the bot finishes their games, no further rounds"),
        permissions=["view"],
    )
    def withdraw_and_replace(
        self, request: HttpRequest, queryset: QuerySet[Registration]
    ) -> TemplateResponse | None:
        asked = self.confirmation(
            request,
            queryset,
            gettext("Withdraw these players?"),
            gettext(
                "A computer player finishes their unfinished games (the results count) and "
                "they are not seated again."
            ),
        )
        if asked is None:
            self._replace(request, queryset, True)
        return asked


class TableInline(ReadOnlyInline):
    model = Table
    fields = ("number", "division", "game", "adjudicated")
    readonly_fields = fields
    show_change_link = True


class ByeInline(ReadOnlyInline):
    model = Bye
    fields = ("user", "points")
    readonly_fields = fields


class RoundAdmin(ReadOnlyAdmin):
    club_lookup = "event__club"
    list_display = ("__str__", "event", "status", "is_final", "started_at", "finished_at")
    list_filter = (("event", admin.RelatedOnlyFieldListFilter), "status")
    list_select_related = ("event",)
    inlines = (TableInline, ByeInline)


class TableAdmin(ReadOnlyAdmin):
    club_lookup = "round__event__club"
    list_display = ("__str__", "event", "game_link", "game_status", "players", "adjudicated")
    list_filter = (("round__event", admin.RelatedOnlyFieldListFilter), "adjudicated")
    list_select_related = ("round__event", "game")
    actions = ("adjudicate",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).prefetch_related("game__seats__user__player")

    @admin.display(description=_("event"))
    def event(self, table: Table) -> Event:
        return table.round.event

    @admin.display(description=_("game"))
    def game_link(self, table: Table) -> str:
        return format_html('<a href="{}">{}</a>', table.game.get_absolute_url(), table.game)

    @admin.display(description=_("status"))
    def game_status(self, table: Table) -> str:
        return str(table.game.get_status_display())

    @admin.display(description=_("players (seat order) and scores"))
    def players(self, table: Table) -> str:
        return ", ".join(f"{s.name} {s.score}" for s in table.game.seats.all())

    @admin.action(
        description=_("Adjudicate: end the stalled games with their current scores"),
        permissions=["change"],
    )
    def adjudicate(
        self, request: HttpRequest, queryset: QuerySet[Table]
    ) -> TemplateResponse | None:
        asked = self.confirmation(
            request,
            queryset,
            gettext("Adjudicate these games?"),
            gettext("Each game ends now, ranked by its current scores."),
        )
        if asked is not None:
            return asked
        self.run_each(
            request,
            queryset.select_related("round__event__club"),
            lambda t: services.adjudicate_table(t, request.user),
            lambda n: (
                ngettext("%(count)d game adjudicated.", "%(count)d games adjudicated.", n)
                % {"count": n}
            ),
        )


class TimeoutDecisionForm(forms.ModelForm):
    class Meta:
        model = TimeoutDecision
        fields = ("ranks_last", "note")


class TimeoutDecisionAdmin(RefusalsAsMessages, OrganizerScopedAdmin):
    """Each timeout decision of the event's policy; the organizer may rule otherwise
    (ranked last or not), with a note shown on the event's page."""

    club_lookup = "table__round__event__club"
    form = TimeoutDecisionForm
    list_display = ("table", "event", "user", "position", "outcome", "ranks_last", "overridden_by")
    list_filter = (
        ("table__round__event", admin.RelatedOnlyFieldListFilter),
        "outcome",
        "ranks_last",
    )
    list_select_related = ("table__round__event", "user", "overridden_by")
    readonly_fields = (
        "table",
        "game",
        "position",
        "user",
        "policy",
        "outcome",
        "timeouts",
        "overridden_by",
        "overridden_at",
        "created_at",
    )
    fields = (*readonly_fields, "ranks_last", "note")
    actions = ("rank_last", "rank_normally")

    @admin.display(description=_("event"))
    def event(self, decision: TimeoutDecision) -> Event:
        return decision.table.round.event

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # decisions are made by the event's policy when a clock runs out

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log stays; rule otherwise instead

    def save_model(
        self, request: HttpRequest, obj: TimeoutDecision, form: Any, change: bool
    ) -> None:
        services.override_timeout_decision(
            obj, request.user, form.cleaned_data["ranks_last"], form.cleaned_data["note"]
        )

    def _rule(self, request: HttpRequest, queryset: QuerySet[TimeoutDecision], last: bool) -> None:
        self.run_each(
            request,
            queryset.select_related("table__round__event__club"),
            lambda d: services.override_timeout_decision(d, request.user, last, d.note),
            lambda n: (
                ngettext("%(count)d decision overruled.", "%(count)d decisions overruled.", n)
                % {"count": n}
            ),
        )

    @admin.action(description=_("Rule: ranked last at the table"), permissions=["change"])
    def rank_last(self, request: HttpRequest, queryset: QuerySet[TimeoutDecision]) -> None:
        self._rule(request, queryset, True)

    @admin.action(description=_("Rule: ranked normally"), permissions=["change"])
    def rank_normally(self, request: HttpRequest, queryset: QuerySet[TimeoutDecision]) -> None:
        self._rule(request, queryset, False)


admin.site.register(Club, ClubAdmin)
admin.site.register(Membership, MembershipAdmin)
admin.site.register(JoinRequest, JoinRequestAdmin)
admin.site.register(Event, EventAdmin)
admin.site.register(Registration, RegistrationAdmin)
admin.site.register(Round, RoundAdmin)
admin.site.register(Table, TableAdmin)
admin.site.register(TimeoutDecision, TimeoutDecisionAdmin)
