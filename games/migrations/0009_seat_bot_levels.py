import django.db.models
from django.db import migrations

import games.kinds


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_rating_per_game"),
    ]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="bot",
            field=django.db.models.CharField(
                blank=True,
                choices=games.kinds.bot_choices,
                max_length=10,
                verbose_name="computer player",
            ),
        ),
    ]
