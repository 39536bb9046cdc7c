"""Events and their settings: creating, checking, changing, opening registration and
seeding, before the first round is seated (``tournaments.services.rounds``)."""

from __future__ import annotations

import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games import kinds
from games.services import Conflict, ServiceError
from games.timecontrol import BadTimeControl, check_time_control

from .. import standings
from ..models import Club, Event, Registration
from .clubs import require_organizer, unique_slug

# What an organizer sets for an event, in the admin form's order (besides its name, short
# name and description); a league's next season copies them.
EVENT_SETTINGS = (
    "game",
    "format",
    "table_size",
    "min_table_size",
    "rounds",
    "rated",
    "days_per_move",
    "hours_per_move",
    "time_bank_hours",
    "timeout_policy",
    "timeouts_before_decision",
    "bye_points",
    "points_scheme",
    "tiebreaks",
    "knockout_advance",
    "division_size",
    "promote",
    "relegate",
    "registration_opens",
    "registration_closes",
    "vacation_limit_days",
)
# Every field ``create_event`` and ``update_event`` take.
EVENT_FIELDS = frozenset({"name", "slug", "description", *EVENT_SETTINGS, "seed"})
# What can still change once an event has started.
EDITABLE_WHILE_RUNNING = frozenset({"name", "description"})


def locked_event(event: Event | int) -> Event:
    """The event row, locked for this transaction (with its club)."""
    pk = event.pk if isinstance(event, Event) else event
    return Event.objects.select_for_update().select_related("club").get(pk=pk)


def _refuse_unknown(fields: dict[str, Any]) -> None:
    unknown = set(fields) - EVENT_FIELDS
    if unknown:
        raise ServiceError(
            _("Unknown event settings: %(names)s.") % {"names": ", ".join(sorted(unknown))},
            "bad_field",
        )


def check_event(event: Event) -> None:
    """Raise ``ServiceError`` for settings an event cannot run with (also used by forms)."""
    try:
        kind = kinds.get(event.game)
    except LookupError:
        raise ServiceError(_("Unknown game."), "bad_game") from None
    if not 2 <= event.table_size <= kind.max_players:
        raise ServiceError(
            _("A table of %(game)s seats 2 to %(high)s players.")
            % {"game": kind.title, "high": kind.max_players},
            "bad_table_size",
        )
    if not 2 <= event.min_table_size <= event.table_size:
        raise ServiceError(
            _("The smallest table seats at least 2 and at most the table size."),
            "bad_min_table_size",
        )
    if event.format == Event.Format.SWISS and not event.rounds:
        raise ServiceError(_("A Swiss event needs a number of rounds."), "bad_rounds")
    if event.rounds is not None and not 1 <= event.rounds <= 50:
        raise ServiceError(_("An event has 1 to 50 rounds."), "bad_rounds")
    try:
        check_time_control(event.days_per_move, event.hours_per_move, event.time_bank_hours)
    except BadTimeControl as exc:
        raise ServiceError(exc.message, exc.code) from None
    if event.timeout_policy not in Event.TimeoutPolicy.values:
        raise ServiceError(_("Unknown timeout policy."), "bad_timeout_policy")
    if not 1 <= event.timeouts_before_decision <= 3:
        raise ServiceError(
            _("The timeout policy applies after 1 to 3 timeouts in a row."), "bad_timeouts"
        )
    if event.bye_points < 0:
        raise ServiceError(_("A bye cannot cost points."), "bad_bye_points")
    scheme = event.points_scheme or []
    if not isinstance(scheme, list) or len(scheme) > 4:
        raise ServiceError(
            _("Points by place are a list of at most four numbers."), "bad_points_scheme"
        )
    try:
        values = [float(p) for p in scheme]
    except (TypeError, ValueError):
        raise ServiceError(
            _("Points by place are a list of at most four numbers."), "bad_points_scheme"
        ) from None
    if any(v < 0 for v in values) or values != sorted(values, reverse=True):
        raise ServiceError(
            _("Points by place cannot be negative and cannot grow for a worse place."),
            "bad_points_scheme",
        )
    tiebreaks = event.tiebreaks if event.tiebreaks is not None else []
    if (
        not isinstance(tiebreaks, list)
        or len(set(tiebreaks)) != len(tiebreaks)
        or any(t not in standings.TIEBREAKS for t in tiebreaks)
    ):
        raise ServiceError(
            _("Tie-breaks are any of: opponents, score, head_to_head, each at most once."),
            "bad_tiebreaks",
        )
    if event.format == Event.Format.KNOCKOUT and not 1 <= event.knockout_advance < event.table_size:
        raise ServiceError(
            _("Fewer players advance from a knockout table than sit at it."), "bad_advance"
        )
    if event.division_size is not None and event.division_size < event.min_table_size:
        raise ServiceError(
            _("A division holds at least one table's worth of players."), "bad_division_size"
        )
    opens, closes = event.registration_opens, event.registration_closes
    if opens and closes and closes <= opens:
        raise ServiceError(_("Registration must close after it opens."), "bad_registration_window")
    if event.vacation_limit_days > 365:
        raise ServiceError(_("A vacation limit is at most 365 days."), "bad_vacation_limit")


@transaction.atomic
def create_event(club: Club, by: Any, **fields: Any) -> Event:
    """A new event of ``club`` in draft; ``fields`` are Event fields (see ``EVENT_FIELDS``)."""
    require_organizer(club, by)
    _refuse_unknown(fields)
    name = (fields.get("name") or "").strip()
    if not name:
        raise ServiceError(_("An event needs a name."), "bad_name")
    fields["name"] = name
    if not fields.get("slug"):
        fields["slug"] = unique_slug(
            name, lambda s: Event.objects.filter(club=club, slug=s).exists()
        )
    elif Event.objects.filter(club=club, slug=fields["slug"]).exists():
        raise Conflict(_("Another event of this club uses this short name."), "slug_taken")
    fields.setdefault("seed", secrets.randbits(31))
    event = Event(club=club, created_by=by, **fields)
    check_event(event)
    try:
        event.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), "bad_event") from None
    event.save()
    return event


@transaction.atomic
def open_registration(event: Event, by: Any) -> Event:
    require_organizer(event.club, by)
    event = locked_event(event)
    if event.status != Event.Status.DRAFT:
        raise Conflict(_("Registration can only be opened for a draft event."), "bad_status")
    event.status = Event.Status.REGISTRATION
    event.save(update_fields=["status"])
    return event


@transaction.atomic
def update_event(event: Event, by: Any, **fields: Any) -> Event:
    """An organizer changes an event's settings (``EVENT_FIELDS``): its name and
    description at any time, the rest only before it starts (rounds already seated were
    seated by them)."""
    require_organizer(event.club, by)
    _refuse_unknown(fields)
    event = locked_event(event)
    started = event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION)
    if started and set(fields) - EDITABLE_WHILE_RUNNING:
        raise Conflict(
            _("Once an event has started only its name and description can change."),
            "event_started",
        )
    if (
        "slug" in fields
        and Event.objects.filter(club=event.club, slug=fields["slug"]).exclude(pk=event.pk).exists()
    ):
        raise Conflict(_("Another event of this club uses this short name."), "slug_taken")
    if "name" in fields:
        fields["name"] = (fields["name"] or "").strip()
        if not fields["name"]:
            raise ServiceError(_("An event needs a name."), "bad_name")
    for name, value in fields.items():
        setattr(event, name, value)
    check_event(event)
    try:
        event.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages), "bad_event") from None
    if fields:
        event.save(update_fields=sorted(fields))
    return event


@transaction.atomic
def set_seed_ranks(event: Event, by: Any, ranks: dict[int, int | None]) -> int:
    """An organizer seeds players before the start (1 = strongest; None: unseeded), by
    registration id. Knockouts seat by seed; other formats order their entrants by it.
    Returns how many registrations changed."""
    require_organizer(event.club, by)
    event = locked_event(event)
    if event.status not in (Event.Status.DRAFT, Event.Status.REGISTRATION):
        raise Conflict(_("Seeding is fixed once the event has started."), "event_started")
    if any(rank is not None and (not isinstance(rank, int) or rank < 1) for rank in ranks.values()):
        raise ServiceError(_("A seeding rank is a whole number from 1."), "bad_seed_rank")
    changed = 0
    for registration in Registration.objects.filter(event=event, pk__in=list(ranks)):
        rank = ranks[registration.pk]
        if registration.seed_rank != rank:
            registration.seed_rank = rank
            registration.save(update_fields=["seed_rank"])
            changed += 1
    return changed
