# Evergreen's Fertility Zone, taken over from the games app (games 0005): the table
# games_fertilitycard exists already and keeps its name, so only the state is created.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0005_game_kind"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="FertilityCard",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "biome",
                            models.CharField(
                                choices=[
                                    ("snow", "Snow"),
                                    ("swamp", "Swamp"),
                                    ("rock", "Rock"),
                                    ("flowers", "Flowers"),
                                    ("wheat", "Wheat"),
                                    ("grassland", "Grassland"),
                                ],
                                max_length=12,
                                verbose_name="biome",
                            ),
                        ),
                        ("order", models.PositiveSmallIntegerField(verbose_name="order in stack")),
                        ("card", models.CharField(max_length=24, verbose_name="card")),
                        ("face_up", models.BooleanField(default=True, verbose_name="face up")),
                        (
                            "fertility",
                            models.PositiveSmallIntegerField(
                                default=0, verbose_name="Fertility icons"
                            ),
                        ),
                        (
                            "game",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="fertility_cards",
                                to="games.game",
                                verbose_name="game",
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "Fertility Zone card",
                        "verbose_name_plural": "Fertility Zone",
                        "db_table": "games_fertilitycard",
                        "ordering": ["game", "biome", "order"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("game", "biome", "order"), name="fz_unique_slot"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
