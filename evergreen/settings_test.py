"""Settings for the test suite: the real PostgreSQL on the machine when it answers.

``make test`` runs on PostgreSQL when it is reachable and says clearly when it fell
back to SQLite; with the environment variable ``CI`` set an unreachable PostgreSQL
fails the run instead. ``TEST_DATABASE_URL`` overrides the address.
"""

from __future__ import annotations

import os
import sys

import dj_database_url

from .settings import *  # noqa: F403
from .settings import POSTGRESQL_OPTIONS, env_bool

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/evergreen")


def _postgres_answers(url: str) -> str | None:
    """None when PostgreSQL accepts a connection, else the reason it did not."""
    import psycopg

    params = dj_database_url.parse(url)
    try:
        with psycopg.connect(
            host=params["HOST"],
            port=params["PORT"] or 5432,
            user=params["USER"],
            password=params["PASSWORD"] or None,
            dbname="postgres",
            connect_timeout=3,
        ):
            return None
    except psycopg.Error as exc:
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


_reason = _postgres_answers(PG_URL)
if _reason is None:
    # Django's PostgreSQL backend, but emptying the tables after a transactional test by
    # DELETE instead of TRUNCATE (a tenth of the time; tests/pgbackend/base.py).
    DATABASES = {"default": dj_database_url.parse(PG_URL, engine="tests.pgbackend")}
    DATABASES["default"]["OPTIONS"] = dict(POSTGRESQL_OPTIONS)  # as the site runs
    TEST_DATABASE_VENDOR = "postgresql"
elif env_bool("CI", False):
    raise RuntimeError(f"CI is set and PostgreSQL at {PG_URL} is unreachable: {_reason}")
else:
    DATABASES = {"default": dj_database_url.parse("sqlite:///:memory:")}
    TEST_DATABASE_VENDOR = "sqlite"
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        print(
            f"\n*** PostgreSQL unreachable ({_reason}): tests fall back to SQLite; "
            "concurrency tests are skipped. ***\n",
            file=sys.stderr,
        )

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
ACCOUNT_EMAIL_VERIFICATION = "optional"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

CELERY_TASK_ALWAYS_EAGER = True
# A task that fails while run eagerly raises here, instead of being kept in its result.
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_BROKER_URL = os.environ.get("TEST_CELERY_BROKER_URL", "memory://")
SITE_URL = "http://testserver"
ANALYSIS_BUDGET = HINT_BUDGET = "easy"  # the analysis tests search with the smallest budget
GAME_PAGE_CACHE_SECONDS = 0  # tests that want the page cache turn it on themselves
GAME_FRAGMENT_CACHE_SECONDS = 0  # and so for the parts of the page (games.fragments)
USER_CACHE_SECONDS = 0  # and for users and API tokens (games.usercache)
GAME_ROWS_CACHE_SECONDS = 0  # and for games with their seats (games.rowcache)

# A toy third game (tests/toygame/nim.py), registered here only: the tests play it through
# the platform's services, pages and API to prove that a game is a package, added.
GAME_KINDS = [*GAME_KINDS, "tests.toygame.nim.Nim"]  # noqa: F405
