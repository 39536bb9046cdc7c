"""What a new account is asked besides its e-mail and password (django-allauth's
``ACCOUNT_SIGNUP_FORM_CLASS``): the public name other players see, and the browser's
time zone (filled in by static/js/timezone.js; UTC when the browser sends none)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from . import names, timezones
from .models import Player


class SignupForm(forms.Form):
    display_name = forms.CharField(
        label=_("Public name"),
        max_length=names.MAX_LENGTH,
        help_text=_("The name other players see at the table and in the standings."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_display_name(self) -> str:
        name = names.normalise(self.cleaned_data["display_name"])
        problem = names.unique_refusal(name, Player.name_taken)
        if problem:
            raise forms.ValidationError(problem)
        return name

    def clean_time_zone(self) -> str:
        zone = (self.cleaned_data.get("time_zone") or "").strip()
        return zone if timezones.is_known(zone) else "UTC"

    def signup(self, request: HttpRequest, user: Any) -> None:
        """Give the player (made when the user was saved) the chosen name and zone. A
        name taken between the check and now (two sign-ups at once) gets a free variant
        rather than failing the sign-up; the player can change it in the profile."""
        player = Player.for_user(user)
        player.time_zone = self.cleaned_data["time_zone"]
        wanted = self.cleaned_data["display_name"]
        try:
            with transaction.atomic():
                player.display_name = wanted
                player.save(update_fields=["display_name", "time_zone"])
        except IntegrityError:
            player.display_name = names.free_name(wanted, Player.name_taken)
            player.save(update_fields=["display_name", "time_zone"])
