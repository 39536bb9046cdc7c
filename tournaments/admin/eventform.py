"""The form of an event in the admin: its settings (``services.EVENT_SETTINGS``) checked as
the services check them; points, tie-breaks and a bye's points as form fields."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.forms.models import construct_instance
from django.utils.translation import gettext_lazy as _

from games import kinds
from games.services import ServiceError

from .. import services
from ..models import Event
from .fields import PointsByPlaceField, TiebreakOrderField
from .scoping import ModelForm


def _game_choices() -> list[tuple[str, str]]:
    return [(name, str(kind.title)) for name, kind in kinds.kinds().items()]


class EventForm(ModelForm):
    game = forms.ChoiceField(
        label=_("game"), choices=_game_choices, initial="evergreen", required=False
    )
    points_scheme = PointsByPlaceField(
        label=_("tournament points by finishing place"),
        required=False,
        help_text=_(
            "Points for 1st, 2nd, 3rd and 4th place. All empty: players at the table minus "
            "place (3, 2, 1, 0 at a table of four). Tied players share their places' points."
        ),
    )
    tiebreaks = TiebreakOrderField(
        label=_("tie-break order"),
        required=False,
        help_text=_(
            "Applied in this order when tournament points are equal. All empty: "
            "opponents' points, then game score, then head-to-head."
        ),
    )
    bye_points = forms.FloatField(
        label=_("points for a bye"),
        required=False,
        min_value=0,
        help_text=_(
            "A player without a table in a round gets these points. Empty: the points of a "
            "win (1st place at a full table)."
        ),
    )

    def clean_game(self) -> str:
        return str(self.cleaned_data.get("game") or "evergreen")

    class Meta:
        model = Event
        fields = ("club", "name", "slug", "description", *services.EVENT_SETTINGS)

    def clean(self) -> dict[str, Any]:
        super().clean()
        if (
            not self.errors
            and "bye_points" in self.fields  # not once the event runs: then it is fixed
            and self.cleaned_data.get("bye_points") is None
        ):
            self.cleaned_data["bye_points"] = self._points_of_a_win()
        if not self.errors:
            # The settings as they would be saved, checked on a copy (an invalid form
            # leaves the object it edits as it was).
            event = construct_instance(self, copy.copy(self.instance))
            try:
                services.check_event(event)
            except ServiceError as exc:
                self.add_error(None, exc.message)
        return self.cleaned_data

    def _points_of_a_win(self) -> float:
        scheme = self.cleaned_data.get("points_scheme") or []
        if scheme:
            return float(scheme[0])
        table_size = self.cleaned_data.get("table_size") or self.instance.table_size
        return float(table_size - 1)
