"""The clubs and events API: read clubs, events, standings, rounds and tables; register
and withdraw.

Thin views, as in ``games.api``: they authenticate (the same token or session), fetch
through ``tournaments.access`` / ``tournaments.presenters`` (the values the pages show)
and call ``tournaments.services`` for the two writes, whose refusals come back in the
games API's error format (``{"code", "message"}``: 400, 401, 403, 404, 409).
Players' ratings are RATINGS' endpoints (``/api/ratings/<user id>/``): every player
listed here carries its ``rating_url``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions
from rest_framework import serializers as drf
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.requests import GamePagination
from games.api.serializers import ErrorSerializer

from . import presenters, services
from . import serializers as s
from .access import is_site_admin, organized_club_ids
from .models import Club, Event, Membership, Registration

if TYPE_CHECKING:
    from typing import TypedDict

    from django_stubs_ext import WithAnnotations

    class ClubCounts(TypedDict):
        member_count: int
        running_count: int

    class EventCounts(TypedDict):
        active_players: int


ERRORS = {
    400: "A malformed request.",
    401: "No credentials, or a bad token.",
    403: "Not allowed: e.g. an invite-only club's event for a non-member.",
    404: "There is no such club, event or round.",
    409: "Not now: registration is closed, you are already registered, not registered, "
    "or the event is over.",
}


def _errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer, description=ERRORS[code]) for code in codes}


EVENT_ID = OpenApiParameter("id", OpenApiTypes.INT, OpenApiParameter.PATH, description="The event.")
CLUB_SLUG = OpenApiParameter(
    "slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="The club's slug."
)
ROUND_NUMBER = OpenApiParameter(
    "number", OpenApiTypes.INT, OpenApiParameter.PATH, description="The round, from 1."
)
PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": 100},
        description="1 to 100; 50 by default.",
    ),
    OpenApiParameter("offset", {"type": "integer", "minimum": 0}),
]


class Pagination(GamePagination):
    """The games API's: a limit or offset that is not a whole number in range is refused
    (400), as documented, instead of DRF's quiet default."""


def _not_found(message: str) -> exceptions.NotFound:
    return exceptions.NotFound(message, code="not_found")


def _visible_events(user: Any) -> QuerySet[Event]:
    """Every event but drafts, which only those who run the club see."""
    events = Event.objects.select_related("club")
    if is_site_admin(user):
        return events
    return events.filter(~Q(status=Event.Status.DRAFT) | Q(club_id__in=organized_club_ids(user)))


def _event(user: Any, pk: int) -> Event:
    event = _visible_events(user).filter(pk=pk).first()
    if event is None:
        raise _not_found(_("There is no such event."))
    return event


def _user_id(request: Request) -> int:
    """The signed-in user's id (every view here is for signed-in users only)."""
    if request.user.pk is None:
        raise exceptions.NotAuthenticated()
    return int(request.user.pk)


def _with_players(events: QuerySet[Event]) -> QuerySet[WithAnnotations[Event, EventCounts]]:
    return events.annotate(
        active_players=Count(
            "registrations", filter=Q(registrations__status=Registration.Status.ACTIVE)
        )
    )


def _club_body(request: Request, club: WithAnnotations[Club, ClubCounts]) -> dict[str, Any]:
    return {
        "slug": club.slug,
        "name": club.name,
        "description": club.description,
        "visibility": club.visibility,
        "members": club.member_count,
        "running_events": club.running_count,
        "url": s.absolute(request, club.get_absolute_url()),
    }


def _clubs() -> QuerySet[WithAnnotations[Club, ClubCounts]]:
    return Club.objects.annotate(
        member_count=Count("memberships", distinct=True),
        running_count=Count("events", filter=Q(events__status=Event.Status.RUNNING), distinct=True),
    )


# --- Clubs -------------------------------------------------------------------------------------


@extend_schema(
    operation_id="clubs_list",
    summary="List the clubs",
    description="Every club, by name. `mine=true`: only the clubs you are a member of.",
    parameters=[
        OpenApiParameter("mine", OpenApiTypes.BOOL, description="Only my clubs."),
        *PAGE_PARAMETERS,
    ],
    responses={200: s.ClubPageSerializer, **_errors(400, 401)},
    tags=["clubs"],
)
@api_view(["GET"])
def clubs(request: Request) -> Response:
    found = _clubs().order_by("name", "pk")
    mine = request.query_params.get("mine")
    # A value that is no boolean is refused (400), not read as false.
    if mine is not None and drf.BooleanField().to_internal_value(mine):
        found = found.filter(memberships__user_id=_user_id(request))
    paginator = Pagination()
    page = paginator.paginate_queryset(found, request) or []
    return paginator.get_paginated_response([_club_body(request, club) for club in page])


@extend_schema(
    operation_id="clubs_retrieve",
    summary="A club: members and events",
    parameters=[CLUB_SLUG],
    responses={200: s.ClubDetailSerializer, **_errors(401, 404)},
    tags=["clubs"],
)
@api_view(["GET"])
def club(request: Request, slug: str) -> Response:
    club = _clubs().filter(slug=slug).first()
    if club is None:
        raise _not_found(_("There is no such club."))
    members = list(
        Membership.objects.filter(club=club)
        .select_related("user__player")
        .order_by("-role", "joined_at", "pk")
    )
    events = _with_players(_visible_events(request.user).filter(club=club)).order_by(
        "-created_at", "-pk"
    )
    body = _club_body(request, club)
    body["my_role"] = next((m.role for m in members if m.user_id == request.user.pk), None)
    body["members_list"] = [
        {
            "user_id": m.user_id,
            "name": presenters.player_name(m.user),
            "role": m.role,
            "joined_at": drf.DateTimeField().to_representation(m.joined_at),
            "rating_url": s.rating_url(request, m.user_id),
        }
        for m in members
    ]
    body["events"] = [s.event_summary(request, e, e.active_players) for e in events]
    return Response(body)


# --- Events ------------------------------------------------------------------------------------


@extend_schema(
    operation_id="events_list",
    summary="List the events",
    description="Newest first. Filter by `club` (its slug) and `status`.",
    parameters=[
        OpenApiParameter("club", OpenApiTypes.STR, description="A club's slug."),
        OpenApiParameter("status", OpenApiTypes.STR, enum=list(Event.Status.values)),
        *PAGE_PARAMETERS,
    ],
    responses={200: s.EventPageSerializer, **_errors(400, 401)},
    tags=["events"],
)
@api_view(["GET"])
def events(request: Request) -> Response:
    found = _with_players(_visible_events(request.user)).order_by("-created_at", "-pk")
    club_slug = request.query_params.get("club")
    if club_slug:
        found = found.filter(club__slug=club_slug)
    status_name = request.query_params.get("status")
    if status_name:
        if status_name not in Event.Status.values:
            raise services.ServiceError(
                _("Unknown status “%(status)s”: use %(statuses)s.")
                % {"status": status_name, "statuses": ", ".join(Event.Status.values)},
                "bad_status",
            )
        found = found.filter(status=status_name)
    paginator = Pagination()
    page = paginator.paginate_queryset(found, request) or []
    return paginator.get_paginated_response(
        [s.event_summary(request, e, e.active_players) for e in page]
    )


def _event_body(request: Request, event: Event) -> dict[str, Any]:
    field = drf.DateTimeField()

    def when(value: Any) -> str | None:
        return field.to_representation(value) if value else None

    registration = Registration.objects.filter(event=event, user_id=_user_id(request)).first()
    body = s.event_summary(request, event, presenters.registered_count(event))
    body.update(
        {
            "description": event.description,
            "game": event.game,
            "table_size": event.table_size,
            "min_table_size": event.min_table_size,
            "rounds": services.total_rounds(event)
            if event.status in (Event.Status.RUNNING, Event.Status.FINISHED)
            else event.rounds,
            "rated": event.rated,
            "days_per_move": None if event.hours_per_move else event.days_per_move,
            "hours_per_move": event.hours_per_move,
            "time_bank_hours": event.time_bank_hours,
            "timeout_policy": event.timeout_policy,
            "timeout_policy_text": str(event.get_timeout_policy_display()),
            "timeouts_before_decision": event.timeouts_before_decision,
            "vacation_limit_days": event.vacation_limit_days,
            "points_scheme": event.scheme() or [],
            "bye_points": event.bye_points,
            "tiebreaks": presenters.used_tiebreaks(event),
            "knockout_advance": event.knockout_advance,
            "division_size": event.division_size,
            "promote": event.promote,
            "relegate": event.relegate,
            "season": event.season,
            "registration_opens": when(event.registration_opens),
            "registration_closes": when(event.registration_closes),
            "registration_open": services.registration_open(event),
            "my_registration": {
                "event": event.pk,
                "status": registration.status,
                "registered_at": when(registration.registered_at),
                "withdrawn_at": when(registration.withdrawn_at),
            }
            if registration
            else None,
            "started_at": when(event.started_at),
            "finished_at": when(event.finished_at),
        }
    )
    return body


@extend_schema(
    operation_id="events_retrieve",
    summary="An event: its settings and your registration",
    parameters=[EVENT_ID],
    responses={200: s.EventDetailSerializer, **_errors(401, 404)},
    tags=["events"],
)
@api_view(["GET"])
def event(request: Request, pk: int) -> Response:
    return Response(_event_body(request, _event(request.user, pk)))


@extend_schema(
    operation_id="events_standings",
    summary="The standings",
    description="Ranked by tournament points, then the event's tie-breaks in order. Every "
    "registered player is listed (withdrawn ones keep their results); round robins and "
    "leagues have one group per division.",
    parameters=[EVENT_ID],
    responses={200: s.StandingsSerializer, **_errors(401, 404)},
    tags=["events"],
)
@api_view(["GET"])
def standings(request: Request, pk: int) -> Response:
    event = _event(request.user, pk)
    return Response(
        s.standings_body(
            request, event, presenters.standing_groups(event), presenters.used_tiebreaks(event)
        )
    )


@extend_schema(
    operation_id="events_rounds",
    summary="The rounds, with their tables",
    description="Every round seated so far, first to last: each table's game and its "
    "players in seat order with their scores, byes and timeout decisions.",
    parameters=[EVENT_ID],
    responses={200: s.EventRoundSerializer(many=True), **_errors(401, 404)},
    tags=["events"],
)
@api_view(["GET"])
def rounds(request: Request, pk: int) -> Response:
    event = _event(request.user, pk)
    return Response([s.round_body(request, r) for r in presenters.rounds(event)])


@extend_schema(
    operation_id="events_round",
    summary="One round's tables",
    parameters=[EVENT_ID, ROUND_NUMBER],
    responses={200: s.EventRoundSerializer, **_errors(401, 404)},
    tags=["events"],
)
@api_view(["GET"])
def round_detail(request: Request, pk: int, number: int) -> Response:
    event = _event(request.user, pk)
    found = presenters.rounds(event, number)
    if not found:
        raise _not_found(_("This round has not been seated."))
    return Response(s.round_body(request, found[0]))


def _registration_body(registration: Registration) -> dict[str, Any]:
    field = drf.DateTimeField()
    return {
        "event": registration.event_id,
        "status": registration.status,
        "registered_at": field.to_representation(registration.registered_at),
        "withdrawn_at": field.to_representation(registration.withdrawn_at)
        if registration.withdrawn_at
        else None,
    }


@extend_schema(
    operation_id="events_register",
    summary="Register for an event",
    description="Within the registration window. A public club's event makes you a member "
    "of the club; an invite-only club's event needs you to be one already.",
    parameters=[EVENT_ID],
    request=None,
    responses={200: s.EventRegistrationSerializer, **_errors(400, 401, 403, 404, 409)},
    tags=["events"],
)
@api_view(["POST"])
def register(request: Request, pk: int) -> Response:
    event = _event(request.user, pk)
    return Response(_registration_body(services.register(event, request.user)))


@extend_schema(
    operation_id="events_withdraw",
    summary="Withdraw from an event",
    description="Before the event starts your place is given up. While it runs, a computer "
    "player finishes your unfinished games (their results count) and you are not seated again.",
    parameters=[EVENT_ID],
    request=None,
    responses={200: s.EventRegistrationSerializer, **_errors(400, 401, 404, 409)},
    tags=["events"],
)
@api_view(["POST"])
def withdraw(request: Request, pk: int) -> Response:
    event = _event(request.user, pk)
    return Response(_registration_body(services.withdraw(event, request.user)))
