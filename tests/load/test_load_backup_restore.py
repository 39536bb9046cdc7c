"""Backups, as the README's production section describes them: ``pg_dump`` of a database
with games under way (a draft, an Action phase with a hidden turn in, a solo game, a
finished game, an open one), ``pg_restore`` into a fresh database, then the site run on
the copy (``manage.py`` with ``DATABASE_URL`` pointing at it): no migration missing,
every game as it was, every game replays from its moves to its stored state, and play
goes on there (every game that can is played on, and replays again)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection

from games import services
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games.models import Game
from tests.benchmarks.webstack import database_url_of, with_database
from tests.games.gamehelpers import make_user, play_until
from tests.load.loadhelpers import needs_stack

ROOT = Path(__file__).resolve().parents[2]

# Run in the restored site: look at every game, play on, look again.
PLAY_ON = """
import json, django
django.setup()
from django.core.management import call_command
from games.evergreen import rules
from games.evergreen.rules.bots import RandomBot
from games import services
from games.models import Game

def look():
    return {
        str(g.pk): [g.status, g.version, g.state == rules.state_to_json(services.rebuild_state(g))
                    if g.state is not None else None]
        for g in Game.objects.order_by("pk")
    }

call_command("migrate", check=True, verbosity=0)  # exits 1 when one is missing
before = look()
bot, played = RandomBot(9), 0
for game in Game.objects.filter(status=Game.Status.ACTIVE).order_by("pk"):
    for _step in range(6):
        game.refresh_from_db()
        state = game.engine_state()
        if game.status != Game.Status.ACTIVE or not state.awaiting:
            break
        seat = state.awaiting[0]
        user = game.seats.get(position=seat).user
        services.submit_move(game.pk, user, bot.choose(state, seat))
        played += 1
print(json.dumps({"before": before, "after": look(), "played": played}))
"""


def games_under_way() -> dict[str, list[Any]]:
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    drafting = services.create_game(alice, players=2)
    services.join_game(drafting.pk, bob)
    acting = services.create_game(bob, players=2)
    services.join_game(acting.pk, carol)
    acting = play_until(acting, lambda s: s.round == 2 and s.phase is rules.Phase.ACTION)
    state = acting.engine_state()
    seat = state.awaiting[0]
    services.submit_move(
        acting.pk, acting.seats.get(position=seat).user, RandomBot(3).choose(state, seat)
    )
    services.create_game(carol, players=1)  # solo
    finished = services.create_game(alice, players=2)
    services.join_game(finished.pk, carol)
    play_until(finished, lambda s: s.is_over, limit=2000)
    services.create_game(bob, players=3)  # open, waiting for players
    return {
        str(g.pk): [
            g.status,
            g.version,
            g.state == rules.state_to_json(services.rebuild_state(g))
            if g.state is not None
            else None,
        ]
        for g in Game.objects.order_by("pk")
    }


def admin_connection() -> Any:
    params = connection.settings_dict
    return psycopg.connect(
        host=params["HOST"] or "127.0.0.1",
        port=params["PORT"] or 5432,
        user=params["USER"],
        password=params["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


def pg_env() -> dict[str, str]:
    params = connection.settings_dict
    env = dict(os.environ)
    env.update(
        PGHOST=str(params["HOST"] or "127.0.0.1"),
        PGPORT=str(params["PORT"] or 5432),
        PGUSER=str(params["USER"]),
    )
    if params["PASSWORD"]:
        env["PGPASSWORD"] = str(params["PASSWORD"])
    return env


def test_a_dump_restored_into_a_fresh_database_plays_on(
    transactional_db: Any, tmp_path: Path
) -> None:
    needs_stack()
    stored = games_under_way()
    assert len(stored) == 5 and all(replays is not False for _s, _v, replays in stored.values())
    source = str(connection.settings_dict["NAME"])
    copy = f"{source}_restored"
    dump = tmp_path / "evergreen.dump"
    subprocess.run(
        ["pg_dump", "--format=custom", "--no-owner", f"--file={dump}", source],
        env=pg_env(), check=True, timeout=120,
    )  # fmt: skip
    with admin_connection() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{copy}"')
        admin.execute(f'CREATE DATABASE "{copy}"')
    try:
        subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={copy}", str(dump)],
            env=pg_env(), check=True, timeout=120,
        )  # fmt: skip
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DJANGO_", "DATABASE_", "CELERY_", "PYTEST_", "CACHE_"))
        }
        env.update(
            DJANGO_SETTINGS_MODULE="evergreen.settings",
            DATABASE_URL=with_database(database_url_of(connection.settings_dict), copy),
            CELERY_TASK_ALWAYS_EAGER="1",
            EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
        )
        run = subprocess.run(
            [sys.executable, "-c", PLAY_ON],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr[-3000:]
        found = json.loads(run.stdout.strip().splitlines()[-1])
    finally:
        with admin_connection() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
    assert found["before"] == stored  # every game as it was, and it replays
    assert found["played"] >= 6  # the draft, the Action phase and the solo game went on
    assert all(replays is not False for _s, _v, replays in found["after"].values())
    changed = [pk for pk in stored if found["after"][pk][1] != stored[pk][1]]
    assert len(changed) >= 3


# The embedded SQLite: games made and played in a database of its own, copied with the
# sqlite3 shell's online ".backup" while it is open, and the copy played on.
SEED_SQLITE = """
import json, django
django.setup()
from django.contrib.auth import get_user_model
from games.evergreen.rules.bots import RandomBot
from games import services
users = [get_user_model().objects.create_user(f"p{n}", f"p{n}@example.org", "pw-123456") for n in range(3)]
duel = services.create_game(users[0], players=2)
services.join_game(duel.pk, users[1])
services.create_game(users[2], players=1)
bot = RandomBot(4)
for _step in range(5):
    duel.refresh_from_db()
    state = duel.engine_state()
    seat = state.awaiting[0]
    services.submit_move(duel.pk, duel.seats.get(position=seat).user, bot.choose(state, seat))
print("seeded")
"""


def site_on(database_url: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_", "CELERY_", "PYTEST_", "CACHE_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="evergreen.settings",
        DATABASE_URL=database_url,
        CELERY_TASK_ALWAYS_EAGER="1",
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    )
    return env


def test_an_sqlite_backup_taken_while_open_plays_on(tmp_path: Path) -> None:
    if shutil.which("sqlite3") is None:
        pytest.skip("needs the sqlite3 shell")
    live, copy = tmp_path / "db.sqlite3", tmp_path / "backup.sqlite3"
    env = site_on(f"sqlite:///{live}")
    for step in (["manage.py", "migrate", "--noinput", "-v", "0"], ["-c", SEED_SQLITE]):
        run = subprocess.run(
            [sys.executable, *step], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert run.returncode == 0, run.stderr[-3000:]
    subprocess.run(["sqlite3", str(live), f".backup {copy}"], check=True, timeout=60)
    run = subprocess.run(
        [sys.executable, "-c", PLAY_ON], cwd=ROOT, env=site_on(f"sqlite:///{copy}"),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert len(found["before"]) == 2
    assert all(replays is True for _s, _v, replays in found["before"].values())
    assert found["played"] >= 2
    assert all(replays is True for _s, _v, replays in found["after"].values())
