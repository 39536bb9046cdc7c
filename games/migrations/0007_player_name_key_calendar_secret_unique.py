"""No two players' display names look the same; each calendar secret is one player's (a
migration of its own: PostgreSQL alters the table after 0005 has rewritten its rows, in
another transaction)."""

from django.db import migrations, models

import games.models


class Migration(migrations.Migration):
    dependencies = [("games", "0006_player_name_key_calendar_secret")]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=160, null=True, unique=True),
        ),
        migrations.AlterField(
            model_name="player",
            name="calendar_secret",
            field=models.CharField(
                default=games.models.new_calendar_secret,
                editable=False,
                max_length=64,
                unique=True,
            ),
        ),
    ]
