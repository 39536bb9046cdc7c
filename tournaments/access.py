"""Who may do what with clubs and events, in one place for the pages, the API and the admin.

Organizers run their clubs' events from the Django admin, which needs ``is_staff``.
Becoming an organizer (creating a club, being made one) calls ``grant_organizer_access``:
the user becomes staff and joins the "Club organizers" group, whose permissions cover
the tournaments models only; the admin then shows them nothing but their own clubs
(``tournaments.admin``). Losing the last organizer role calls ``revoke_organizer_access``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db.models import Q, QuerySet
from django.http import Http404

from .models import Club, Event, Membership

ORGANIZER_GROUP = "Club organizers"

# The Django permissions organizers hold (model name → actions). What they can really do
# in the admin is narrowed further by tournaments.admin (their own clubs, read-only rows).
ORGANIZER_PERMISSIONS: dict[str, tuple[str, ...]] = {
    "club": ("view", "change"),
    "membership": ("view", "change", "delete"),
    "joinrequest": ("view", "change"),
    "event": ("view", "add", "change", "delete"),
    "division": ("view",),
    "registration": ("view", "add", "change"),
    "round": ("view",),
    "table": ("view", "change"),
    "bye": ("view",),
    "timeoutdecision": ("view", "change"),
}


def organizer_group() -> Group:
    """The organizers' group, with exactly ``ORGANIZER_PERMISSIONS`` (repaired if edited)."""
    group, _created = Group.objects.get_or_create(name=ORGANIZER_GROUP)
    wanted = Q()
    for model, actions in ORGANIZER_PERMISSIONS.items():
        for action in actions:
            wanted |= Q(content_type__app_label="tournaments", codename=f"{action}_{model}")
    permissions = list(Permission.objects.filter(wanted))
    if {p.pk for p in permissions} != set(group.permissions.values_list("pk", flat=True)):
        group.permissions.set(permissions)
    return group


def grant_organizer_access(user: Any) -> None:
    """Let an organizer into the admin (staff + the organizers' group). Idempotent."""
    user.groups.add(organizer_group())
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])


def revoke_organizer_access(user: Any) -> None:
    """Take the admin access back once ``user`` organizes no club any more.

    Staff rights given for another reason (a superuser, other groups, permissions of
    their own) are left alone.
    """
    if Membership.objects.filter(user=user, role=Membership.Role.ORGANIZER).exists():
        return
    group = Group.objects.filter(name=ORGANIZER_GROUP).first()
    if group is not None:
        user.groups.remove(group)
    if (
        user.is_staff
        and not user.is_superuser
        and not user.groups.exists()
        and not user.user_permissions.exists()
    ):
        user.is_staff = False
        user.save(update_fields=["is_staff"])


# --- Reads -------------------------------------------------------------------------------


def is_site_admin(user: Any) -> bool:
    """Staff superusers see and run every club's events."""
    return bool(getattr(user, "is_active", False) and user.is_staff and user.is_superuser)


def organized_club_ids(user: Any) -> set[int]:
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(
        Membership.objects.filter(user=user, role=Membership.Role.ORGANIZER).values_list(
            "club_id", flat=True
        )
    )


def clubs_run_by(user: Any) -> QuerySet[Club]:
    """The clubs whose events ``user`` may run: all for a site admin, else their own."""
    if is_site_admin(user):
        return Club.objects.all()
    return Club.objects.filter(pk__in=organized_club_ids(user))


def may_run(user: Any, club: Club) -> bool:
    return is_site_admin(user) or club.is_organizer(user)


def club_or_404(slug: str) -> Club:
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404("No such club")
    return club


def event_for_viewer(club_slug: str, event_slug: str, user: Any) -> Event:
    """The event, or 404; a draft only for those who run the club (it is being prepared)."""
    event = (
        Event.objects.select_related("club").filter(club__slug=club_slug, slug=event_slug).first()
    )
    if event is None or (event.status == Event.Status.DRAFT and not may_run(user, event.club)):
        raise Http404("No such event")
    return event
