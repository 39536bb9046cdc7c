"""Serializers of the clubs and events API: request bodies and the documented responses.

Responses are built from ``tournaments.presenters`` (the same values the pages show);
these serializers give them their shape, and the OpenAPI schema its documentation.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers
from rest_framework.request import Request

from .models import Club, Event, Membership, Registration
from .presenters import GAME_STATUS, RoundView, StandingGroup, TableView

# Choice sets named in SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"] (several fields are
# called "status" or "role"; the schema names each set once).
EVENT_STATUSES = list(Event.Status.values)
REGISTRATION_STATUSES = list(Registration.Status.values)
ROUND_STATUSES = ["running", "finished"]
ROLES = list(Membership.Role.values)

# --- Clubs -------------------------------------------------------------------------------------


class ClubSerializer(serializers.Serializer[Any]):
    slug = serializers.SlugField(help_text="The club's short name: its key in the API and links.")
    name = serializers.CharField()
    description = serializers.CharField()
    visibility = serializers.ChoiceField(
        choices=Club.Visibility.values,
        help_text="`public`: anyone joins; `invite`: by invitation link or accepted request.",
    )
    members = serializers.IntegerField(help_text="How many members the club has.")
    running_events = serializers.IntegerField()
    url = serializers.URLField(help_text="The club's page.")


class ClubMemberSerializer(serializers.Serializer[Any]):
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=ROLES)
    joined_at = serializers.DateTimeField()
    rating_url = serializers.URLField(help_text="The member's rating in the ratings API.")


class EventSummarySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    club = serializers.SlugField(help_text="The slug of the club that runs it.")
    name = serializers.CharField()
    slug = serializers.SlugField()
    format = serializers.ChoiceField(choices=Event.Format.values)
    status = serializers.ChoiceField(
        choices=EVENT_STATUSES,
        help_text="`draft` events are seen by their organizers only.",
    )
    players = serializers.IntegerField(help_text="Players registered (withdrawn ones not counted).")
    current_round = serializers.IntegerField(help_text="0 before the event starts.")
    url = serializers.URLField(help_text="The event's page.")


class ClubDetailSerializer(ClubSerializer):
    my_role = serializers.ChoiceField(
        choices=ROLES,
        allow_null=True,
        help_text="Your role in the club; null if you are not a member.",
    )
    members_list = ClubMemberSerializer(
        many=True, help_text="Organizers first, then by joining date."
    )
    events = EventSummarySerializer(many=True, help_text="Its events, newest first.")


class ClubPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = ClubSerializer(many=True)


class EventPageSerializer(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = EventSummarySerializer(many=True)


# --- Events ------------------------------------------------------------------------------------


class EventRegistrationSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    status = serializers.ChoiceField(choices=REGISTRATION_STATUSES)
    registered_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)


class EventDetailSerializer(EventSummarySerializer):
    description = serializers.CharField()
    game = serializers.CharField(help_text='The game at the tables: "evergreen" or "verdant".')
    table_size = serializers.IntegerField(
        help_text="Players per table (2 to 4 in Evergreen, 2 to 5 in Verdant)."
    )
    min_table_size = serializers.IntegerField(help_text="Fewest players at a table.")
    rounds = serializers.IntegerField(
        allow_null=True,
        help_text="Rounds in all (null: a knockout, played down to its final table, or "
        "a round robin not yet started).",
    )
    rated = serializers.BooleanField()
    days_per_move = serializers.IntegerField(allow_null=True)
    hours_per_move = serializers.IntegerField(allow_null=True)
    time_bank_hours = serializers.IntegerField()
    timeout_policy = serializers.ChoiceField(
        choices=Event.TimeoutPolicy.values,
        help_text="`bot`: a computer player finishes the seat and the table is ranked "
        "normally; `last`: the timed-out player ranks last at that table.",
    )
    timeout_policy_text = serializers.CharField(help_text="The policy as told to players.")
    timeouts_before_decision = serializers.IntegerField()
    vacation_limit_days = serializers.IntegerField()
    points_scheme = serializers.ListField(
        child=serializers.FloatField(),
        help_text="Tournament points for 1st, 2nd, … place; empty: players at the table "
        "minus place.",
    )
    bye_points = serializers.FloatField()
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=["opponents", "score", "head_to_head"]),
        help_text="The tie-breaks after points, in order.",
    )
    knockout_advance = serializers.IntegerField()
    division_size = serializers.IntegerField(allow_null=True)
    promote = serializers.IntegerField()
    relegate = serializers.IntegerField()
    season = serializers.IntegerField()
    registration_opens = serializers.DateTimeField(allow_null=True)
    registration_closes = serializers.DateTimeField(allow_null=True)
    registration_open = serializers.BooleanField(help_text="Whether you can register now.")
    my_registration = EventRegistrationSerializer(
        allow_null=True, help_text="Your registration, if you have one."
    )
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class EventDivisionSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(help_text="1 is the top division.")
    name = serializers.CharField()


class StandingRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Equal when points and every tie-break are equal.")
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.FloatField(help_text="Tournament points, byes included.")
    opponents = serializers.FloatField(help_text="The sum of the points of every opponent met.")
    score = serializers.IntegerField(help_text="Total game score.")
    head_to_head = serializers.FloatField(
        help_text="Points against the other players tied on points."
    )
    played = serializers.IntegerField()
    byes = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=4,
        max_length=4,
        help_text="How many times the player sat in seat 1, 2, 3 and 4.",
    )
    withdrawn = serializers.BooleanField()
    eliminated_in = serializers.IntegerField(
        allow_null=True, help_text="Knockout: the round the player went out in."
    )
    rating_url = serializers.URLField()


class StandingGroupSerializer(serializers.Serializer[Any]):
    division = EventDivisionSerializer(allow_null=True, help_text="null outside divisions.")
    rows = StandingRowSerializer(many=True)


class StandingsSerializer(serializers.Serializer[Any]):
    event = serializers.IntegerField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    groups = StandingGroupSerializer(many=True, help_text="One per division (leagues), else one.")


class TableSeatSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="0 = the first player.")
    user_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    score = serializers.IntegerField()
    bot = serializers.BooleanField(
        help_text="Played by a computer player (e.g. after a withdrawal)."
    )
    ranks_last = serializers.BooleanField(
        help_text="Ranked last at the table by a timeout decision."
    )


class TableTimeoutDecisionSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["timed out", "bot", "last"])
    ranks_last = serializers.BooleanField()
    overridden = serializers.BooleanField(help_text="The organizers ruled on it.")
    note = serializers.CharField()


class EventTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    division = serializers.IntegerField(allow_null=True, help_text="The division's number.")
    game = serializers.IntegerField(help_text="The game's id in the games API.")
    game_url = serializers.URLField()
    status = serializers.ChoiceField(choices=list(GAME_STATUS.values()))
    adjudicated = serializers.BooleanField()
    seats = TableSeatSerializer(many=True, help_text="In seat order.")
    timeout_decisions = TableTimeoutDecisionSerializer(many=True)


class RoundByeSerializer(serializers.Serializer[Any]):
    user_id = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.FloatField()


class EventRoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ROUND_STATUSES)
    is_final = serializers.BooleanField(help_text="Knockout: the final table.")
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    tables = EventTableSerializer(many=True)
    byes = RoundByeSerializer(many=True)


# --- Building the bodies -----------------------------------------------------------------------


def absolute(request: Request, path: str) -> str:
    return request.build_absolute_uri(path)


def rating_url(request: Request, user_id: int) -> str:
    return absolute(request, reverse("api:rating", args=[user_id]))


def event_summary(request: Request, event: Event, players: int) -> dict[str, Any]:
    return {
        "id": event.pk,
        "club": event.club.slug,
        "name": event.name,
        "slug": event.slug,
        "format": event.format,
        "status": event.status,
        "players": players,
        "current_round": event.current_round,
        "url": absolute(request, event.get_absolute_url()),
    }


def standings_body(
    request: Request, event: Event, groups: list[StandingGroup], tiebreaks: list[str]
) -> dict[str, Any]:
    return {
        "event": event.pk,
        "tiebreaks": tiebreaks,
        "groups": [
            {
                "division": {"number": g.division.number, "name": str(g.division)}
                if g.division
                else None,
                "rows": [
                    {
                        "rank": s.row.rank,
                        "user_id": s.user_id,
                        "name": s.name,
                        "points": s.row.points,
                        "opponents": s.row.opponents,
                        "score": s.row.score,
                        "head_to_head": s.row.head_to_head,
                        "played": s.row.played,
                        "byes": s.row.byes,
                        "seats": list(s.row.seats),
                        "withdrawn": s.withdrawn,
                        "eliminated_in": s.eliminated_in,
                        "rating_url": rating_url(request, s.user_id),
                    }
                    for s in g.rows
                ],
            }
            for g in groups
        ],
    }


def table_body(request: Request, table: TableView) -> dict[str, Any]:
    division = table.table.division
    return {
        "number": table.number,
        "division": division.number if division else None,
        "game": table.game.pk,
        "game_url": absolute(request, reverse("api:game", args=[table.game.pk])),
        "status": table.status,
        "adjudicated": table.table.adjudicated,
        "seats": [
            {
                "position": s.position,
                "user_id": s.user_id,
                "name": s.name,
                "score": s.score,
                "bot": s.bot,
                "ranks_last": s.ranks_last,
            }
            for s in table.seats
        ],
        "timeout_decisions": [
            {
                "position": d.position,
                "outcome": d.outcome,
                "ranks_last": d.ranks_last,
                "overridden": d.overridden,
                "note": d.note,
            }
            for d in table.decisions
        ],
    }


def round_body(request: Request, round_: RoundView) -> dict[str, Any]:
    return {
        "number": round_.number,
        "status": round_.round.status,
        "is_final": round_.round.is_final,
        "started_at": serializers.DateTimeField().to_representation(round_.started_at),
        "finished_at": serializers.DateTimeField().to_representation(round_.finished_at)
        if round_.finished_at
        else None,
        "tables": [table_body(request, t) for t in round_.tables],
        "byes": [{"user_id": b.user_id, "name": b.name, "points": b.points} for b in round_.byes],
    }
