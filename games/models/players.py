"""Players: a user's profile on the site (name, language, time zone, mail preferences,
vacation)."""

from __future__ import annotations

import secrets
import zoneinfo
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .. import names


def default_reminder_hours() -> list[int]:
    return [24, 2]


TIME_ZONE_CHOICES = [(tz, tz) for tz in sorted(zoneinfo.available_timezones())]


def new_calendar_secret() -> str:
    """The private part of a player's calendar address (``games.signed_links``)."""
    return secrets.token_urlsafe(24)


class Player(models.Model):
    class EmailMode(models.TextChoices):
        EVERY_MOVE = "every", _("Every move")
        COALESCED = "coalesced", _("At most one mail per few hours per game")
        DIGEST = "digest", _("Daily digest")
        OFF = "off", _("Off")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="player",
        verbose_name=_("user"),
    )
    display_name = models.CharField(_("display name"), max_length=40)
    # The name's look-alike key (games.names.skeleton), kept by save(): no two players'
    # names look the same.
    name_key = models.CharField(max_length=160, unique=True, null=True, editable=False)
    # The private part of the calendar address (games.signed_links); "reset my calendar
    # link" draws a new one.
    calendar_secret = models.CharField(
        max_length=64, unique=True, default=new_calendar_secret, editable=False
    )
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="UTC", choices=TIME_ZONE_CHOICES
    )
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    email_mode = models.CharField(
        _("e-mail when it is my move"),
        max_length=12,
        choices=EmailMode.choices,
        default=EmailMode.COALESCED,
    )
    email_every_hours = models.PositiveSmallIntegerField(
        _("at most one mail per game every (hours)"), default=6
    )
    digest_hour = models.PositiveSmallIntegerField(_("daily digest at (hour)"), default=8)
    quiet_start = models.PositiveSmallIntegerField(_("quiet hours from"), null=True, blank=True)
    quiet_end = models.PositiveSmallIntegerField(_("quiet hours until"), null=True, blank=True)
    reminder_hours = models.JSONField(
        _("reminders before a deadline (hours)"), default=default_reminder_hours, blank=True
    )
    vacation_until = models.DateTimeField(_("on vacation until"), null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(_("vacation year"), default=0, editable=False)
    vacation_days_used = models.PositiveSmallIntegerField(
        _("vacation days used"), default=0, editable=False
    )

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = names.skeleton(self.display_name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "display_name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    @classmethod
    def name_taken(cls, key: str) -> bool:
        """Whether a player's name has this look-alike key (``games.names.skeleton``)."""
        return cls.objects.filter(name_key=key).exists()

    @classmethod
    def for_user(cls, user: Any) -> Player:
        player = cls.objects.filter(user=user).first()
        if player is None:
            wanted = (user.email or user.get_username()).split("@")[0]
            player, _created = cls.objects.get_or_create(
                user=user, defaults={"display_name": names.free_name(wanted, cls.name_taken)}
            )
        return player
