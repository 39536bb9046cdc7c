"""The hints a seat took move onto the seat (``Seat.hints_used``, games 0013): every
``HintUse`` count is copied to its seat, then the model goes. Backwards, each seat that
took hints gets its ``HintUse`` row again (the last use's time is not known any more:
the time of the reversal stands for it)."""

from typing import Any

from django.db import migrations
from django.db.models import Exists, OuterRef, Subquery


def counts_to_seats(apps: Any, schema_editor: Any) -> None:
    HintUse = apps.get_model("analysis", "HintUse")
    Seat = apps.get_model("games", "Seat")
    # The seat's row (one at most: unique per game and seat). One UPDATE for all; a seat
    # without a row keeps its 0.
    row = HintUse.objects.filter(game=OuterRef("game"), seat=OuterRef("position"), count__gt=0)
    Seat.objects.filter(Exists(row)).update(hints_used=Subquery(row.values("count")[:1]))


def counts_to_rows(apps: Any, schema_editor: Any) -> None:
    HintUse = apps.get_model("analysis", "HintUse")
    Seat = apps.get_model("games", "Seat")
    taken = Seat.objects.filter(hints_used__gt=0).values_list("game_id", "position", "hints_used")
    HintUse.objects.bulk_create(
        [HintUse(game_id=game, seat=position, count=count) for game, position, count in taken],
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("analysis", "0002_hint_use_and_error"),
        ("games", "0013_seat_hints_used"),
    ]

    operations = [
        migrations.RunPython(counts_to_seats, counts_to_rows, elidable=True),
        migrations.DeleteModel(name="HintUse"),
    ]
