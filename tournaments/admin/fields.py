"""Form fields for an event's points and tie-breaks, so an organizer fills in numbers and
picks from lists instead of writing JSON text (the model keeps its JSON lists)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import presenters, standings

PLACES = 4  # a table seats at most four players: points for 1st to 4th place


def tiebreak_choices() -> list[tuple[str, str]]:
    """Read when the form is drawn, in the reader's language."""
    return [("", "—"), *((n, presenters.tiebreak_label(n)) for n in standings.TIEBREAKS)]


class PointsByPlaceWidget(forms.MultiWidget):
    def __init__(self) -> None:
        labels = [_("1st"), _("2nd"), _("3rd"), _("4th")]
        super().__init__(
            widgets=[
                forms.NumberInput(attrs={"step": "any", "min": 0, "aria-label": label})
                for label in labels
            ]
        )

    def decompress(self, value: Any) -> list[Any]:
        points = list(value or [])[:PLACES]
        return [*points, *[None] * (PLACES - len(points))]


class TiebreakOrderWidget(forms.MultiWidget):
    def __init__(self) -> None:
        labels = [_("first tie-break"), _("second tie-break"), _("third tie-break")]
        count = len(standings.TIEBREAKS)
        super().__init__(
            widgets=[
                forms.Select(choices=tiebreak_choices, attrs={"aria-label": label})  # type: ignore[arg-type]
                for label in labels[:count]
            ]
        )

    def decompress(self, value: Any) -> list[Any]:
        chosen = list(value or [])[: len(standings.TIEBREAKS)]
        return [*chosen, *[""] * (len(standings.TIEBREAKS) - len(chosen))]


class PointsByPlaceField(forms.MultiValueField):
    """Points for 1st, 2nd, 3rd and 4th place as four number boxes; all empty: the
    default scheme (``[]``)."""

    def __init__(self, **kwargs: Any) -> None:
        fields = [forms.FloatField(required=False, min_value=0) for _place in range(PLACES)]
        super().__init__(fields, widget=PointsByPlaceWidget(), require_all_fields=False, **kwargs)

    def compress(self, data_list: list[Any]) -> list[float]:
        given = list(data_list or [])
        while given and given[-1] is None:
            given.pop()  # the worse places left empty: the scheme stops there
        if None in given:
            raise forms.ValidationError(
                _("Give the points of every place up to the last one you fill in."),
                code="bad_points_scheme",
            )
        return [float(points) for points in given]


class TiebreakOrderField(forms.MultiValueField):
    """The tie-breaks in order as three lists to choose from (first, second, third); all
    empty: the default order."""

    def __init__(self, **kwargs: Any) -> None:
        fields = [
            forms.ChoiceField(choices=tiebreak_choices, required=False)
            for _n in standings.TIEBREAKS
        ]
        super().__init__(fields, widget=TiebreakOrderWidget(), require_all_fields=False, **kwargs)

    def compress(self, data_list: list[Any]) -> list[str]:
        chosen = [name for name in (data_list or []) if name]
        if len(set(chosen)) != len(chosen):
            raise forms.ValidationError(
                _("Choose each tie-break at most once."), code="bad_tiebreaks"
            )
        return chosen
