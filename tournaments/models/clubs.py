"""Clubs, their members (organizers run the club's events) and requests to join."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def _invite_code() -> str:
    return secrets.token_urlsafe(12)


class Club(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: anyone can join")
        INVITE = "invite", _("Invite only: by invitation link or accepted request")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("short name in links"), max_length=60, unique=True)
    description = models.TextField(_("description"), blank=True)
    visibility = models.CharField(
        _("who can join"), max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    invite_code = models.CharField(
        _("invitation code"), max_length=32, unique=True, default=_invite_code
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="created_clubs",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:club", args=[self.slug])

    @property
    def is_public(self) -> bool:
        return self.visibility == self.Visibility.PUBLIC

    def is_organizer(self, user: Any) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        return self.memberships.filter(user=user, role=Membership.Role.ORGANIZER).exists()

    def is_member(self, user: Any) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        return self.memberships.filter(user=user).exists()


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        MEMBER = "member", _("Member")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        ordering = ["club", "joined_at"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"

    @property
    def is_organizer(self) -> bool:
        return self.role == self.Role.ORGANIZER


class JoinRequest(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="join_requests", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_join_requests",
        verbose_name=_("user"),
    )
    message = models.TextField(_("message to the organizers"), blank=True, max_length=1000)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("decided by"),
    )

    class Meta:
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(status="pending"),
                name="joinrequest_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club} ({self.get_status_display()})"
