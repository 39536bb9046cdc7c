"""On PostgreSQL the server binds the parameters, and a query a connection runs again is
prepared there, planned once per connection (``evergreen.settings.POSTGRESQL_OPTIONS``);
``DB_PREPARED_STATEMENTS=0`` turns both off, for a pooler in transaction mode."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.db import connection

from games import rowcache
from games.models import Game

pytestmark = pytest.mark.skipif(
    getattr(settings, "TEST_DATABASE_VENDOR", "") != "postgresql",
    reason="prepared statements are PostgreSQL's",
)

# The rows' version query every game page asks (``games.rowcache``), by a piece of its text.
VERSION_QUERY = "pg_postmaster_start_time"


def prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


@pytest.mark.django_db(transaction=True)
def test_a_query_the_connection_runs_again_is_prepared_once_and_then_reused(
    action_game: Game,
) -> None:
    connection.close()  # a connection of its own: the tests before ran queries on theirs
    assert not [s for s in prepared_statements() if VERSION_QUERY in s]
    for _ in range(5):  # psycopg's threshold: planned by PostgreSQL each time up to here
        rowcache.current_key(action_game.pk)
    assert not [s for s in prepared_statements() if VERSION_QUERY in s]

    for _ in range(3):
        rowcache.current_key(action_game.pk)

    assert len([s for s in prepared_statements() if VERSION_QUERY in s]) == 1


def database_options(**environ: str) -> dict[str, object]:
    """The OPTIONS the site's settings give PostgreSQL in a process with ``environ``."""
    code = (
        "import json; from evergreen import settings; "
        "print(json.dumps(settings.DATABASES['default'].get('OPTIONS', {})))"
    )
    env = {name: value for name, value in os.environ.items() if name != "DB_PREPARED_STATEMENTS"}
    env.update(DATABASE_URL="postgresql://someone@db.example/evergreen", **environ)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_the_site_prepares_statements_unless_told_not_to_behind_a_pooler() -> None:
    assert database_options() == {"server_side_binding": True, "prepare_threshold": 5}
    assert database_options(DB_PREPARED_STATEMENTS="0") == {}
