"""Each player gets the look-alike key of their display name (games.names.skeleton) and a
calendar secret of their own (games.signed_links); 0007 makes both unique.

Existing names are normalised; where two already look the same, the later player's
name gets a number after it ("Rowan 2")."""

from django.db import migrations, models


def fill_name_keys(apps, schema_editor):
    from games import models as games_models
    from games import names

    Player = apps.get_model("games", "Player")
    taken = set()
    for player in Player.objects.order_by("pk").iterator():
        name = names.normalise(player.display_name)[: names.MAX_LENGTH] or "player"
        base, number = name[: names.MAX_LENGTH - 4], 1
        while names.skeleton(name) in taken:
            number += 1
            name = f"{base} {number}"
        taken.add(names.skeleton(name))
        Player.objects.filter(pk=player.pk).update(
            display_name=name,
            name_key=names.skeleton(name),
            calendar_secret=games_models.new_calendar_secret(),
        )


class Migration(migrations.Migration):
    dependencies = [("games", "0005_game_kind")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=160, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="calendar_secret",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
    ]
