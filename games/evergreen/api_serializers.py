"""Evergreen's request bodies (a pick, a turn) and the documentation of its player view
(``rules.view.player_view``) for the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.serializers import OutcomeSerializer, SunField

from .rules.edition import POWERS
from .rules.moves import ACTIONS, TIMINGS


class PickSerializer(serializers.Serializer[Any]):
    card = serializers.CharField(help_text='A card of the drafting pool, e.g. "snow/sprout".')
    version = serializers.IntegerField(
        required=False,
        help_text="The game version the pick was chosen against (or send `If-Match`).",
    )


SPACE_SCHEMA = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
LAKE_PLACEMENT_SCHEMA = {
    "type": "object",
    "description": 'One Lake: `{"lake": [row, column], "grow": [[row, column], ...]}`.',
    "properties": {"lake": SPACE_SCHEMA, "grow": {"type": "array", "items": SPACE_SCHEMA}},
    "required": ["lake"],
}


@extend_schema_field({"oneOf": [SPACE_SCHEMA, LAKE_PLACEMENT_SCHEMA]})
class PowerTargetField(serializers.JSONField):
    """A space ``[row, column]``, or for Place Lake ``{"lake": [r, c], "grow": [[r, c], ...]}``."""


class PowerUseSerializer(serializers.Serializer[Any]):
    power = serializers.ChoiceField(choices=list(POWERS))
    timing = serializers.ChoiceField(choices=list(TIMINGS), default="after")
    targets = serializers.ListField(child=PowerTargetField(), required=False)


@extend_schema_field(
    {
        "type": "object",
        "description": 'One effect: `{"plant": [row, column]}` or `{"grow": [row, column]}`.',
        "minProperties": 1,
        "maxProperties": 1,
        "properties": {
            "plant": SPACE_SCHEMA,
            "grow": SPACE_SCHEMA,
        },
        "additionalProperties": False,
    }
)
class EffectField(serializers.JSONField):
    pass


class TurnSerializer(serializers.Serializer[Any]):
    action = serializers.ChoiceField(choices=list(ACTIONS))
    effects = serializers.ListField(child=EffectField(), required=False)
    power = PowerUseSerializer(required=False, allow_null=True)
    version = serializers.IntegerField(
        required=False,
        help_text="The game version the turn was built against (or send `If-Match`).",
    )


# --- Player view (documentation of rules.view.player_view) --------------------------------


class SeasonScoreSerializer(serializers.Serializer[Any]):
    season = serializers.IntegerField()
    light = serializers.IntegerField()
    forest = serializers.IntegerField()
    bud = serializers.IntegerField()


class PlayedTurnSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=["turn"])
    seat = serializers.IntegerField()
    action = serializers.ChoiceField(choices=list(ACTIONS))
    effects = serializers.ListField(child=EffectField())
    power = PowerUseSerializer(allow_null=True)


class ViewSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    score = serializers.IntegerField()
    setup_points = serializers.IntegerField()
    seasons = SeasonScoreSerializer(many=True)
    fertility = serializers.IntegerField()
    powers = serializers.DictField(
        child=serializers.IntegerField(), help_text="Power track positions (0 = start)."
    )
    power_levels = serializers.DictField(
        child=serializers.IntegerField(), help_text="How many times each Power applies now."
    )
    board = serializers.DictField(
        child=serializers.CharField(),
        help_text='Pieces on the planet by space "row,column", e.g. {"2,3": "sprout"}.',
    )
    card = serializers.CharField(allow_null=True)
    season_cards = serializers.ListField(child=serializers.CharField())
    submitted = serializers.BooleanField(help_text="This seat's turn for the round is in.")
    turn = PlayedTurnSerializer(
        allow_null=True, help_text="The viewer's own turn submitted this round; null for others."
    )


class ZoneCardSerializer(serializers.Serializer[Any]):
    card = serializers.CharField()
    face_up = serializers.BooleanField()


class SupplySerializer(serializers.Serializer[Any]):
    bush = serializers.IntegerField()
    lake = serializers.IntegerField()


class PlayerViewSerializer(serializers.Serializer[Any]):
    edition = serializers.CharField()
    viewer = serializers.IntegerField(allow_null=True, help_text="Your seat; null: a spectator.")
    phase = serializers.ChoiceField(choices=["draft", "action", "over"])
    season = serializers.IntegerField()
    round = serializers.IntegerField()
    rounds_in_season = serializers.IntegerField()
    sun = SunField()
    next_sun = SunField(allow_null=True)
    solo = serializers.BooleanField()
    first_player = serializers.IntegerField()
    next_first_player = serializers.IntegerField()
    to_pick = serializers.IntegerField(allow_null=True, help_text="The drafter to pick now.")
    awaiting = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats that must move now."
    )
    pool = serializers.ListField(child=serializers.CharField())
    token_card = serializers.CharField(allow_null=True)
    deck_count = serializers.IntegerField()
    discard = serializers.ListField(child=serializers.CharField())
    fertility_zone = serializers.DictField(child=ZoneCardSerializer(many=True))
    fertility = serializers.DictField(child=serializers.IntegerField())
    supply = SupplySerializer()
    ai_cards = serializers.ListField(child=serializers.CharField())
    seats = ViewSeatSerializer(many=True)
    outcome = OutcomeSerializer(allow_null=True)
