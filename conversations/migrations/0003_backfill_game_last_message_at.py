"""Games whose chat was written before ``Game.last_message_at`` existed (games 0011) get
it from their newest message: the game page and the mails skip reading a chat whose
game says nobody wrote in it."""

from django.db import migrations
from django.db.models import Max, OuterRef, Subquery


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Message = apps.get_model("conversations", "Message")
    newest = (
        Message.objects.filter(game=OuterRef("pk"), channel="game")
        .order_by()
        .values("game")
        .annotate(at=Max("created_at"))
        .values("at")
    )
    Game.objects.filter(
        last_message_at__isnull=True,
        pk__in=Message.objects.filter(channel="game").values("game"),
    ).update(last_message_at=Subquery(newest))


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0002_message_edit_delete_report_text"),
        ("games", "0011_game_last_message_at"),
    ]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
