"""Forms for the lobby and the profile: they check input, the services check the rules."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar, cast

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import kinds, names, timezones
from .models import Player
from .services.lobby import bot_refusal
from .timecontrol import BadTimeControl, check_time_control

if TYPE_CHECKING:
    ModelForm = forms.ModelForm[Player]  # generic in django-stubs only
else:
    ModelForm = forms.ModelForm

SUN_CHOICES = [
    ("N", _("North")),
    ("E", _("East")),
    ("S", _("South")),
    ("W", _("West")),
]
PLAYER_CHOICES = [
    (1, _("Solo, against the A.I. drafter")),
    (2, _("2 players")),
    (3, _("3 players")),
    (4, _("4 players")),
    (5, _("5 players")),
]
DAYS_PER_MOVE_CHOICES = [
    ("", _("No time limit")),
    (1, _("1 day")),
    (2, _("2 days")),
    (3, _("3 days")),
    (5, _("5 days")),
    (7, _("7 days")),
]
HOURS_PER_MOVE_CHOICES = [
    ("", _("—")),
    (1, _("1 hour")),
    (2, _("2 hours")),
    (4, _("4 hours")),
    (8, _("8 hours")),
    (12, _("12 hours")),
]
TIME_BANK_CHOICES = [
    (0, _("None")),
    (24, _("1 day")),
    (48, _("2 days")),
    (72, _("3 days")),
    (120, _("5 days")),
]
TIMEOUT_POLICY_CHOICES = [
    ("bot", _("A computer player moves for them")),
    ("minimal", _("The smallest legal move is made for them")),
]
HOUR_CHOICES = [(h, f"{h:02d}:00") for h in range(24)]


class CreateGameForm(forms.Form):
    kind = forms.ChoiceField(label=_("Game"), choices=[], required=False)
    players = forms.TypedChoiceField(
        label=_("Players"), choices=PLAYER_CHOICES, coerce=int, initial=2
    )
    computer_seats = forms.IntegerField(
        label=_("Seats for computer players"),
        min_value=0,
        max_value=4,
        initial=0,
        help_text=_("Computer players take these seats; the others wait for people to join."),
    )
    bot = forms.ChoiceField(label=_("Computer player"), choices=[])
    sun_start = forms.ChoiceField(
        label=_("The Sun starts in the"), choices=SUN_CHOICES, initial="N"
    )
    days_per_move = forms.TypedChoiceField(
        label=_("Days per move"),
        choices=DAYS_PER_MOVE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
    )
    hours_per_move = forms.TypedChoiceField(
        label=_("Or hours per move (fast games)"),
        choices=HOURS_PER_MOVE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
    )
    time_bank_hours = forms.TypedChoiceField(
        label=_("Time bank"),
        choices=TIME_BANK_CHOICES,
        coerce=int,
        initial=0,
        required=False,
        empty_value=0,  # type: ignore[arg-type]  # any value will do; the stubs say str
        help_text=_("Extra time each player can spend once, when a deadline passes."),
    )
    timeout_policy = forms.ChoiceField(
        label=_("When a player runs out of time"),
        choices=TIMEOUT_POLICY_CHOICES,
        initial="bot",
        required=False,
        help_text=_("After three missed deadlines in a row a computer player takes the seat."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_("Only games between people (no computer players, not solo) are rated."),
    )
    chat_spectators = forms.BooleanField(
        label=_("Spectators may read the chat"),
        required=False,
        help_text=_("Only the players write in it; unticked, only they read it."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The games the site hosts; with one, there is nothing to choose.
        registered = kinds.kinds()
        field = self.fields["kind"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(name, kind.title) for name, kind in registered.items()]
        field.initial = kinds.default_name()
        bot = self.fields["bot"]
        assert isinstance(bot, forms.ChoiceField)
        bot.initial = kinds.get(field.initial).default_bot
        if len(registered) == 1:
            field.widget = forms.HiddenInput()
            bot.choices = list(kinds.get(field.initial).bots.items())
        else:
            # Each game's own computer players, grouped under its name: the page shows
            # the chosen game's group only (static/js/create_game.js).
            bot.choices = [(k.title, list(k.bots.items())) for k in registered.values()]
            bot.widget.attrs["data-defaults"] = json.dumps(
                {str(k.title): k.default_bot for k in registered.values()}
            )
        add_option_fields(self, registered)

    def field_rows(self) -> list[tuple[forms.BoundField, str]]:
        """The visible fields with the game each belongs to ("" for every game): the page
        shows only the chosen game's own fields."""
        own = {
            field: name
            for name, kind in kinds.kinds().items()
            for field in (*kind.form_fields, *(f"{name}_{o}" for o in kind.option_fields()))
        }
        return [(bound, own.get(bound.name, "")) for bound in self.visible_fields()]

    def kind_options(self) -> dict[str, Any]:
        """The chosen game's own options (``GameKind.option_fields``), by their names."""
        name = self.cleaned_data.get("kind") or kinds.default_name()
        prefix = f"{name}_"
        return {
            key.removeprefix(prefix): value
            for key, value in self.cleaned_data.items()
            if key.startswith(prefix)
            and key.removeprefix(prefix) in kinds.get(name).option_fields()
        }

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form.clean returns cleaned_data
        data["timeout_policy"] = data.get("timeout_policy") or "bot"
        if data.get("days_per_move") and data.get("hours_per_move"):
            self.add_error("hours_per_move", _("Choose days per move or hours per move, not both."))
        try:
            check_time_control(
                data.get("days_per_move"),
                data.get("hours_per_move"),
                data.get("time_bank_hours") or 0,
            )
        except BadTimeControl as exc:
            self.add_error(exc.field, exc.message)
        players = data.get("players")
        computer_seats = data.get("computer_seats")
        kind = kinds.get(data.get("kind") or kinds.default_name())
        bot = data.get("bot")
        if computer_seats and bot and bot not in kind.bots:
            self.add_error("bot", bot_refusal(kind, bot))
        if players is not None and not kind.min_players <= players <= kind.max_players:
            self.add_error(
                "players",
                _("%(game)s is played by %(low)s to %(high)s players.")
                % {"game": kind.title, "low": kind.min_players, "high": kind.max_players},
            )
            players = None
        if players is not None and computer_seats is not None:
            if players == 1 and computer_seats:
                self.add_error(
                    "computer_seats",
                    _("A solo game is played against the A.I. drafter: no computer seats."),
                )
            elif computer_seats >= players:
                self.add_error(
                    "computer_seats",
                    ngettext(
                        "Computer players can fill at most %(count)s seat of this game.",
                        "Computer players can fill at most %(count)s seats of this game.",
                        players - 1,
                    )
                    % {"count": players - 1},
                )
            elif data.get("rated") and (players == 1 or computer_seats):
                self.add_error(
                    "rated", _("Only games between people can be rated: leave this unticked.")
                )
        return data


def add_option_fields(form: forms.Form, registered: dict[str, kinds.GameKind]) -> None:
    """Each game's own options as fields named ``<game>_<option>`` (Verdant's variant and
    goal cards), after the choice of game."""
    for name, kind in registered.items():
        for option, field in kind.option_fields().items():
            form.fields[f"{name}_{option}"] = field


class ZoneSelect(forms.Select):
    """The time-zone list: each city is a name, already in the reader's language (CLDR),
    so it is marked ``translate="no"`` for translation tools and checks."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(*args, **kwargs)
        option["attrs"]["translate"] = "no"
        return option


class ProfileForm(ModelForm):
    quiet_start = forms.TypedChoiceField(
        label=_("Quiet hours from"),
        choices=[("", _("No quiet hours")), *HOUR_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
    )
    quiet_end = forms.TypedChoiceField(
        label=_("Quiet hours until"),
        choices=[("", _("No quiet hours")), *HOUR_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
    )
    digest_hour = forms.TypedChoiceField(
        label=_("Daily digest at"), choices=HOUR_CHOICES, coerce=int, initial=8
    )
    email_every_hours = forms.IntegerField(
        label=_("At most one mail per game every (hours)"), min_value=1, max_value=168
    )
    reminder_hours = forms.CharField(
        label=_("Reminders before a deadline (hours)"),
        required=False,
        help_text=_("Hours before each deadline, separated by commas, e.g. 24, 2. Empty: none."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        current = self.instance.time_zone if self.instance is not None else ""
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Time zone"),
            choices=timezones.zone_choices(current),
            widget=ZoneSelect,
            help_text=_("Times on this site are shown in this time zone."),
        )
        if not self.is_bound and self.instance is not None:
            self.initial["reminder_hours"] = ", ".join(
                str(h) for h in (self.instance.reminder_hours or [])
            )

    def clean_reminder_hours(self) -> list[int]:
        raw = self.cleaned_data.get("reminder_hours") or ""
        try:
            hours = sorted(
                {int(part) for part in raw.replace(";", ",").split(",") if part.strip()},
                reverse=True,
            )
        except ValueError:
            raise forms.ValidationError(
                _("Give whole hours separated by commas, e.g. 24, 2.")
            ) from None
        if any(not 1 <= h <= 168 for h in hours) or len(hours) > 5:
            raise forms.ValidationError(_("Up to five reminders, each 1 to 168 hours before."))
        return hours

    class Meta:
        model = Player
        fields = (
            "display_name",
            "time_zone",
            "language",
            "email_mode",
            "email_every_hours",
            "digest_hour",
            "quiet_start",
            "quiet_end",
            "reminder_hours",
        )
        help_texts: ClassVar[dict[str, Any]] = {
            "display_name": _("The name other players see."),
        }

    def clean_display_name(self) -> str:
        name = names.normalise(self.cleaned_data["display_name"])
        others = Player.objects.exclude(pk=self.instance.pk)
        problem = names.unique_refusal(name, lambda key: others.filter(name_key=key).exists())
        if problem:
            raise forms.ValidationError(problem)
        return name

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form.clean returns cleaned_data
        start, end = data.get("quiet_start"), data.get("quiet_end")
        if (start is None) != (end is None):
            self.add_error("quiet_end", _("Give both ends of the quiet hours, or neither of them."))
        elif start is not None and start == end:
            self.add_error("quiet_end", _("Quiet hours must not start and end at the same hour."))
        return data
