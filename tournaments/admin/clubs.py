"""Clubs, their members and join requests in the admin: roles changed, members removed
and requests answered through ``tournaments.services``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from .. import services
from ..models import Club, JoinRequest, Membership
from .scoping import OrganizerScopedAdmin, ReadOnlyAdmin, ReadOnlyInline, RefusalsAsMessages


class MembershipInline(ReadOnlyInline):
    model = Membership
    fields = ("user", "role", "joined_at")
    readonly_fields = fields
    ordering = ("-role", "joined_at")


class ClubAdmin(RefusalsAsMessages, OrganizerScopedAdmin):
    club_lookup = "pk"
    list_display = ("name", "slug", "visibility", "member_count", "created_at")
    search_fields = ("name", "slug")
    fields = ("name", "slug", "description", "visibility", "invitation", "created_by", "created_at")
    readonly_fields = ("invitation", "created_by", "created_at")
    prepopulated_fields: ClassVar[dict[str, Sequence[str]]] = {"slug": ("name",)}
    inlines = (MembershipInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        clubs: QuerySet[Club] = super().get_queryset(request)
        return clubs.annotate(members=Count("memberships"))

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
