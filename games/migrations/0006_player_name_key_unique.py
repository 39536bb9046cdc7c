"""No two players' display names look the same (a migration of its own: PostgreSQL
alters the table after 0005 has rewritten its rows, in another transaction)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0005_player_name_key")]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name_key",
            field=models.CharField(editable=False, max_length=160, null=True, unique=True),
        ),
    ]
