# Games record their kind (every existing game is Evergreen) and the kind's options; the
# Fertility Zone table passes to Evergreen's own app (games.evergreen), which takes the
# model over without moving a row: only Django's idea of who owns it changes here.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_verbose_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(
                db_index=True, default="evergreen", max_length=20, verbose_name="game"
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="options",
            field=models.JSONField(blank=True, default=dict, verbose_name="options"),
        ),
        migrations.AlterField(
            model_name="game",
            name="edition",
            field=models.CharField(
                blank=True, default="standard-v1", max_length=40, verbose_name="edition"
            ),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="FertilityCard")],
            database_operations=[],
        ),
    ]
