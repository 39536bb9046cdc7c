"""The OpenAPI documentation of Verdant's player view (``rules.player_view``) and moves.

The platform's API documents a game's ``view`` with its kind's ``view_schema``; the tests
validate real views against this serializer, so the two cannot drift apart silently.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from .rules.edition import POT_KINDS, SIDES

CELL_HELP = 'Cards by cell "row,column", relative to the starting room at "0,0".'


class ScoreSheetSerializer(serializers.Serializer[Any]):
    plants = serializers.IntegerField()
    incomplete = serializers.IntegerField()
    pots = serializers.IntegerField()
    rooms = serializers.IntegerField()
    items = serializers.IntegerField()
    collector = serializers.IntegerField()
    decorator = serializers.IntegerField()
    goals = serializers.IntegerField()
    total = serializers.IntegerField()


class HomeCellSerializer(serializers.Serializer[Any]):
    card = serializers.CharField(help_text='A plant ("P1xx") or a room ("R1xx").')
    verdancy = serializers.IntegerField()
    completed = serializers.BooleanField()
    pot = serializers.ChoiceField(choices=list(POT_KINDS), allow_null=True)
    item = serializers.CharField(allow_null=True, help_text="A furniture or pet on a room.")


class VerdantStartSerializer(serializers.Serializer[Any]):
    plant = serializers.CharField()
    room = serializers.CharField()
    chosen = serializers.BooleanField()
    side = serializers.ChoiceField(
        choices=list(SIDES),
        allow_null=True,
        help_text="Another player's side stays null until every player has chosen.",
    )


class VerdantSeatSerializer(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    thumbs = serializers.IntegerField(help_text="Green thumbs held (at most 5).")
    storage = serializers.CharField(allow_null=True)
    turns = serializers.IntegerField()
    start = VerdantStartSerializer()
    home = serializers.DictField(child=HomeCellSerializer(), help_text=CELL_HELP)
    score = ScoreSheetSerializer()


class MarketColumnSerializer(serializers.Serializer[Any]):
    column = serializers.IntegerField(help_text="0 nearest the decks and the bag.")
    plant = serializers.CharField(allow_null=True)
    plant_thumbs = serializers.IntegerField()
    token = serializers.CharField(allow_null=True)
    room = serializers.CharField(allow_null=True)
    room_thumbs = serializers.IntegerField()
    pot = serializers.CharField(allow_null=True, help_text="Solo: the pot above the column.")


class GoalSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    text = serializers.CharField()


class VerdantOutcomeSerializer(serializers.Serializer[Any]):
    scores = serializers.ListField(child=serializers.IntegerField())
    ranking = serializers.ListField(child=serializers.IntegerField())
    winners = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField()
    title = serializers.CharField(allow_null=True, help_text="Solo: the title earned.")


class VerdantViewSerializer(serializers.Serializer[Any]):
    """A Verdant game as one seat may see it: never the decks' or the bag's order."""

    game = serializers.ChoiceField(choices=["verdant"])
    edition = serializers.CharField()
    variant = serializers.ChoiceField(choices=["standard", "family"])
    goals = GoalSerializer(many=True)
    viewer = serializers.IntegerField(allow_null=True)
    phase = serializers.ChoiceField(choices=["start", "play", "over"])
    solo = serializers.BooleanField()
    round = serializers.IntegerField()
    turns_per_player = serializers.IntegerField()
    first_player = serializers.IntegerField()
    to_play = serializers.IntegerField(allow_null=True)
    awaiting = serializers.ListField(child=serializers.IntegerField())
    market = MarketColumnSerializer(many=True)
    plant_deck_count = serializers.IntegerField()
    room_deck_count = serializers.IntegerField()
    bag_count = serializers.IntegerField()
    pot_supply = serializers.DictField(child=serializers.IntegerField())
    next_pot = serializers.CharField(allow_null=True)
    pot_discard = serializers.DictField(child=serializers.IntegerField())
    card_discard = serializers.ListField(child=serializers.CharField())
    box = serializers.ListField(child=serializers.CharField())
    seats = VerdantSeatSerializer(many=True)
    outcome = VerdantOutcomeSerializer(allow_null=True)


# Request examples for the OpenAPI schema (the platform's create and move endpoints).
CREATE_EXAMPLE = {
    "game": "verdant",
    "players": 2,
    "computer_seats": 1,
    "bot": "greedy",
    "options": {"variant": "standard", "goals": False},
}
MOVE_EXAMPLES = {
    "start": {"type": "start", "side": "left"},
    "wipe": {"type": "wipe", "columns": [0, 3]},
    "turn": {
        "type": "turn",
        "take": "plant",
        "column": 2,
        "token": 2,
        "at": [0, 1],
        "free": False,
        "steps": [{"step": "use", "item": "fertilizer", "at": [[0, 1]]}],
        "store": None,
    },
}
