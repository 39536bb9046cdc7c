"""What happens during an event, in the admin: registrations (replacing a player with
the bot, withdrawing them late), rounds and their tables (adjudicating a stalled game)
and timeout decisions (the organizer's ruling). Shown read-only; changed only through
``tournaments.services``."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from .. import services
from ..models import Bye, Event, Registration, Table, TimeoutDecision
from .scoping import (
    ModelForm,
    OrganizerScopedAdmin,
    ReadOnlyAdmin,
    ReadOnlyInline,
    RefusalsAsMessages,
)


class RegistrationAdmin(ReadOnlyAdmin):
    club_lookup = "event__club"
    list_display = ("user", "event", "status", "division", "seed_rank", "registered_at")
    list_filter = (("event", admin.RelatedOnlyFieldListFilter), "status")
    search_fields = ("user__player__display_name", "user__email", "event__name")
    list_select_related = ("user__player", "event", "division")
    actions = ("replace_with_bot", "withdraw_and_replace")

    def _replace(
        self, request: HttpRequest, queryset: QuerySet[Registration], withdraw: bool
    ) -> None:
        self.run_each(
            request,
            queryset.select_related("event__club", "user"),
            lambda r: services.replace_with_bot(
                r.event, r.user, request.user, withdraw_player=withdraw
            ),
            lambda n: (
                ngettext(
                    "%(count)d player's seats passed to the bot.",
                    "%(count)d players' seats passed to the bot.",
                    n,
                )
                % {"count": n}
            ),
        )

    @admin.action(description=_("Replace with the bot in unfinished games"), permissions=["view"])
    def replace_with_bot(
        self, request: HttpRequest, queryset: QuerySet[Registration]
    ) -> TemplateResponse | None:
        asked = self.confirmation(
            request,
            queryset,
            gettext("Replace these players with the bot?"),
            gettext("A computer player takes their seats in every unfinished game of the event."),
        )
        if asked is None:
            self._replace(request, queryset, False)
        return asked

    @admin.action(
        description=_("Withdraw (late): the bot finishes their games, no further rounds"),
        permissions=["view"],
    )
    def withdraw_and_replace(
        self, request: HttpRequest, queryset: QuerySet[Registration]
    ) -> TemplateResponse | None:
        asked = self.confirmation(
            request,
            queryset,
            gettext("Withdraw these players?"),
            gettext(
                "A computer player finishes their unfinished games (the results count) and "
                "they are not seated again."
            ),
        )
        if asked is None:
            self._replace(request, queryset, True)
        return asked


class TableInline(ReadOnlyInline):
    model = Table
    fields = ("number", "division", "game", "adjudicated")
    readonly_fields = fields
    show_change_link = True


class ByeInline(ReadOnlyInline):
    model = Bye
    fields = ("user", "points")
    readonly_fields = fields


class RoundAdmin(ReadOnlyAdmin):
    club_lookup = "event__club"
    list_display = ("__str__", "event", "status", "is_final", "started_at", "finished_at")
    list_filter = (("event", admin.RelatedOnlyFieldListFilter), "status")
    list_select_related = ("event",)
    inlines = (TableInline, ByeInline)


class TableAdmin(ReadOnlyAdmin):
    club_lookup = "round__event__club"
    list_display = ("__str__", "event", "game_link", "game_status", "players", "adjudicated")
    list_filter = (("round__event", admin.RelatedOnlyFieldListFilter), "adjudicated")
    list_select_related = ("round__event", "game")
    actions = ("adjudicate",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return super().get_queryset(request).prefetch_related("game__seats__user__player")

    @admin.display(description=_("event"))
    def event(self, table: Table) -> Event:
        return table.round.event

    @admin.display(description=_("game"))
    def game_link(self, table: Table) -> str:
        return format_html('<a href="{}">{}</a>', table.game.get_absolute_url(), table.game)

    @admin.display(description=_("status"))
    def game_status(self, table: Table) -> str:
        return str(table.game.get_status_display())

    @admin.display(description=_("players (seat order) and scores"))
    def players(self, table: Table) -> str:
        return ", ".join(f"{s.name} {s.score}" for s in table.game.seats.all())

    @admin.action(
        description=_("Adjudicate: end the stalled games with their current scores"),
        permissions=["change"],
    )
    def adjudicate(
        self, request: HttpRequest, queryset: QuerySet[Table]
    ) -> TemplateResponse | None:
        asked = self.confirmation(
            request,
            queryset,
            gettext("Adjudicate these games?"),
            gettext("Each game ends now, ranked by its current scores."),
        )
        if asked is not None:
            return asked
        self.run_each(
            request,
            queryset.select_related("round__event__club"),
            lambda t: services.adjudicate_table(t, request.user),
            lambda n: (
                ngettext("%(count)d game adjudicated.", "%(count)d games adjudicated.", n)
                % {"count": n}
            ),
        )
        return None


class TimeoutDecisionForm(ModelForm):
    class Meta:
        model = TimeoutDecision
        fields = ("ranks_last", "note")


class TimeoutDecisionAdmin(RefusalsAsMessages, OrganizerScopedAdmin):
    """Each timeout decision of the event's policy; the organizer may rule otherwise
    (ranked last or not), with a note shown on the event's page."""

    club_lookup = "table__round__event__club"
    form = TimeoutDecisionForm
    list_display = ("table", "event", "user", "position", "outcome", "ranks_last", "overridden_by")
    list_filter = (
        ("table__round__event", admin.RelatedOnlyFieldListFilter),
        "outcome",
        "ranks_last",
    )
    list_select_related = ("table__round__event", "user", "overridden_by")
    readonly_fields = (
        "table",
        "game",
        "position",
        "user",
        "policy",
        "outcome",
        "timeouts",
        "overridden_by",
        "overridden_at",
        "created_at",
    )
    fields = (*readonly_fields, "ranks_last", "note")
    actions = ("rank_last", "rank_normally")

    @admin.display(description=_("event"))
    def event(self, decision: TimeoutDecision) -> Event:
        return decision.table.round.event

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False  # decisions are made by the event's policy when a clock runs out

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # the log stays; rule otherwise instead

    def save_model(
        self, request: HttpRequest, obj: TimeoutDecision, form: Any, change: bool
    ) -> None:
        services.override_timeout_decision(
            obj, request.user, form.cleaned_data["ranks_last"], form.cleaned_data["note"]
        )

    def _rule(self, request: HttpRequest, queryset: QuerySet[TimeoutDecision], last: bool) -> None:
        self.run_each(
            request,
            queryset.select_related("table__round__event__club"),
            lambda d: services.override_timeout_decision(d, request.user, last, d.note),
            lambda n: (
                ngettext("%(count)d decision overruled.", "%(count)d decisions overruled.", n)
                % {"count": n}
            ),
        )

    @admin.action(description=_("Rule: ranked last at the table"), permissions=["change"])
    def rank_last(self, request: HttpRequest, queryset: QuerySet[TimeoutDecision]) -> None:
        self._rule(request, queryset, True)

    @admin.action(description=_("Rule: ranked normally"), permissions=["change"])
    def rank_normally(self, request: HttpRequest, queryset: QuerySet[TimeoutDecision]) -> None:
        self._rule(request, queryset, False)
