"""Writes to clubs: creating one, joining (public clubs, invitation links, requests
the organizers answer), roles, leaving and removing members, an organizer's edits; and
who organizes a club (the permission every write of ``tournaments.services`` checks).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.models import Player
from games.services import Conflict, NotAPlayer, ServiceError

from .. import access
from ..models import Club, JoinRequest, Membership

# --- Permissions ------------------------------------------------------------------------------


def is_organizer(club: Club, user: Any) -> bool:
    """Organizers of the club, and the site's admins, run its events (``access.may_run``:
    the one rule the pages, the API and the admin share)."""
    return access.may_run(user, club)


def require_organizer(club: Club, user: Any) -> None:
    if not is_organizer(club, user):
        raise NotAPlayer(_("Only an organizer of this club can do that."), "not_organizer")


def require_user(user: Any) -> None:
    if not getattr(user, "is_authenticated", False):
        raise NotAPlayer(_("Sign in first."), "not_signed_in")


def set_organizer_access(user: Any, grant: bool) -> None:
    """Becoming an organizer lets the user into the admin; losing the last organizer role
    takes that away again (``tournaments.access``)."""
    if grant:
        access.grant_organizer_access(user)
    else:
        access.revoke_organizer_access(user)


# --- Clubs ------------------------------------------------------------------------------------


# Club slugs that name pages of their own under /clubs/.
RESERVED_CLUB_SLUGS = frozenset({"new", "invite"})


def _club_slug_taken(slug: str) -> bool:
    return slug in RESERVED_CLUB_SLUGS or Club.objects.filter(slug=slug).exists()


def unique_slug(base: str, taken: Callable[[str], bool], max_length: int = 60) -> str:
    """A short name made from ``base`` that ``taken`` does not refuse ("-2", "-3"... added)."""
    root = (slugify(base) or "club")[: max_length - 4]
    slug, n = root, 2
    while taken(slug):
        slug, n = f"{root}-{n}", n + 1
    return slug


@transaction.atomic
def create_club(
    user: Any,
    name: str,
    description: str = "",
    invite_only: bool = False,
    slug: str | None = None,
) -> Club:
    """A new club with ``user`` as its first organizer."""
    require_user(user)
    name = (name or "").strip()
    if not name:
        raise ServiceError(_("A club needs a name."), "bad_name")
    if len(name) > 80:
        raise ServiceError(_("A club name has at most 80 characters."), "bad_name")
    if slug:
        if slugify(slug) != slug:
            raise ServiceError(_("A short name uses only letters, digits and hyphens."), "bad_slug")
        if _club_slug_taken(slug):
            raise Conflict(_("Another club already uses this short name."), "slug_taken")
    else:
        slug = unique_slug(name, _club_slug_taken)
    club = Club.objects.create(
        name=name,
        slug=slug,
        description=description or "",
        visibility=Club.Visibility.INVITE if invite_only else Club.Visibility.PUBLIC,
        created_by=user,
    )
    Membership.objects.create(club=club, user=user, role=Membership.Role.ORGANIZER)
    set_organizer_access(user, True)
    return club


def _add_member(club: Club, user: Any) -> Membership:
    try:
        with transaction.atomic():
            membership = Membership.objects.create(club=club, user=user)
    except IntegrityError:
        raise Conflict(_("You are already a member of this club."), "already_member") from None
    JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).update(
        status=JoinRequest.Status.ACCEPTED, decided_at=timezone.now()
    )
    Player.for_user(user)
    return membership


@transaction.atomic
def join_club(club: Club, user: Any) -> Membership:
    """Join a public club."""
    require_user(user)
    if not club.is_public:
        raise NotAPlayer(
            _("This club is invite only: ask to join or use an invitation link."),
            "club_invite_only",
        )
    return _add_member(club, user)


@transaction.atomic
def join_by_invite(code: str, user: Any) -> Membership:
    """Join the club whose invitation link this is."""
    require_user(user)
    club = Club.objects.filter(invite_code=code or "").first()
    if club is None or not secrets.compare_digest(club.invite_code, code):
        raise NotAPlayer(_("This invitation link is not valid."), "bad_invite")
    return _add_member(club, user)


@transaction.atomic
def request_to_join(club: Club, user: Any, message: str = "") -> JoinRequest:
    """Ask the organizers of an invite-only club to let ``user`` in."""
    require_user(user)
    if club.is_member(user):
        raise Conflict(_("You are already a member of this club."), "already_member")
    if len(message or "") > 1000:
        raise ServiceError(_("A message has at most 1000 characters."), "bad_message")
    try:
        with transaction.atomic():
            return JoinRequest.objects.create(club=club, user=user, message=message or "")
    except IntegrityError:
        raise Conflict(
            _("You have already asked to join; the organizers will answer."), "already_requested"
        ) from None


@transaction.atomic
def decide_join_request(request: JoinRequest, by: Any, accept: bool) -> JoinRequest:
    require_organizer(request.club, by)
    request = JoinRequest.objects.select_for_update().get(pk=request.pk)
    if request.status != JoinRequest.Status.PENDING:
        raise Conflict(_("This request has already been answered."), "already_decided")
    request.status = JoinRequest.Status.ACCEPTED if accept else JoinRequest.Status.DECLINED
    request.decided_at = timezone.now()
    request.decided_by = by
    request.save(update_fields=["status", "decided_at", "decided_by"])
    if accept:
        Membership.objects.get_or_create(club=request.club, user=request.user)
        Player.for_user(request.user)
    return request


@transaction.atomic
def new_invite_code(club: Club, by: Any) -> Club:
    """A fresh invitation link; the old one stops working."""
    require_organizer(club, by)
    club = Club.objects.select_for_update().get(pk=club.pk)
    club.invite_code = secrets.token_urlsafe(12)
    club.save(update_fields=["invite_code"])
    return club


def _organizers(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Membership.Role.ORGANIZER).count()


@transaction.atomic
def leave_club(club: Club, user: Any) -> None:
    require_user(user)
    club = Club.objects.select_for_update().get(pk=club.pk)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        raise Conflict(_("You are not a member of this club."), "not_member")
    if membership.is_organizer and _organizers(club) == 1:
        raise Conflict(
            _("You are this club's only organizer: name another organizer first."),
            "last_organizer",
        )
    membership.delete()
    if membership.is_organizer:
        set_organizer_access(user, False)


@transaction.atomic
def set_role(club: Club, user: Any, role: str, by: Any) -> Membership:
    require_organizer(club, by)
    if role not in Membership.Role.values:
        raise ServiceError(_("A member is an organizer or a member."), "bad_role")
    club = Club.objects.select_for_update().get(pk=club.pk)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        raise Conflict(_("This player is not a member of the club."), "not_member")
    if membership.role == role:
        return membership
    if membership.is_organizer and _organizers(club) == 1:
        raise Conflict(_("A club keeps at least one organizer."), "last_organizer")
    membership.role = role
    membership.save(update_fields=["role"])
    set_organizer_access(user, role == Membership.Role.ORGANIZER)
    return membership


@transaction.atomic
def remove_member(club: Club, user: Any, by: Any) -> None:
    """An organizer removes a member from the club (never its last organizer). Their
    event registrations stay: withdraw them from an event separately."""
    require_organizer(club, by)
    club = Club.objects.select_for_update().get(pk=club.pk)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        raise Conflict(_("This player is not a member of the club."), "not_member")
    if membership.is_organizer and _organizers(club) == 1:
        raise Conflict(_("A club keeps at least one organizer."), "last_organizer")
    membership.delete()
    if membership.is_organizer:
        set_organizer_access(user, False)


CLUB_FIELDS = frozenset({"name", "slug", "description", "visibility"})


@transaction.atomic
def update_club(club: Club, by: Any, **fields: Any) -> Club:
    """An organizer changes the club's name, short name, description or who can join."""
    require_organizer(club, by)
    unknown = set(fields) - CLUB_FIELDS
    if unknown:
        raise ServiceError(
            _("Unknown club settings: %(names)s.") % {"names": ", ".join(sorted(unknown))},
            "bad_field",
        )
    club = Club.objects.select_for_update().get(pk=club.pk)
    if "name" in fields:
        fields["name"] = (fields["name"] or "").strip()
        if not fields["name"]:
            raise ServiceError(_("A club needs a name."), "bad_name")
    slug = fields.get("slug", club.slug)
    if slug != club.slug and (
        slug in RESERVED_CLUB_SLUGS or Club.objects.filter(slug=slug).exclude(pk=club.pk).exists()
    ):
        raise Conflict(_("Another club already uses this short name."), "slug_taken")
    if "visibility" in fields and fields["visibility"] not in Club.Visibility.values:
        raise ServiceError(_("A club is public or invite only."), "bad_visibility")
    for name, value in fields.items():
        setattr(club, name, value)
    try:
        club.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), "bad_club") from None
    if fields:
        club.save(update_fields=sorted(fields))
    return club
