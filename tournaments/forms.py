"""Forms of the club and event pages (the admin builds its own from the models)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    description = forms.CharField(
        label=_("Description"),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("What the club is about, when and how it plays."),
    )
    invite_only = forms.BooleanField(
        label=_("Invite only"),
        required=False,
        help_text=_(
            "Players join with an invitation link or after you accept their request. "
            "Otherwise anyone can join."
        ),
    )


class JoinRequestForm(forms.Form):
    message = forms.CharField(
        label=_("Message to the organizers"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
