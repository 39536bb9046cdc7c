"""Django settings: one module, driven by the environment.

Embedded default (no variable set): SQLite in the project folder, a Celery worker with
an embedded beat on a folder used as broker (started by ``manage.py serve``), e-mail
written to the console. Production sets DATABASE_URL, CELERY_BROKER_URL,
SECRET_KEY, ALLOWED_HOSTS, EMAIL_URL-style variables below.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be a boolean (1/0, true/false), not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    return [v.strip() for v in value.split(",") if v.strip()] if value else default


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {value!r}") from None


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "embedded-default-not-secret-do-not-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "evergreen.admin_site.EvergreenAdminConfig",  # django.contrib.admin, one guard added
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",  # before staticfiles: runserver serves as production does
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # the API docs page's Redoc, served from here (no CDN)
    "csp",
    "django_htmx",
    "allauth",
    "allauth.account",
    "axes",
    "games",
    "games.evergreen",
    "games.verdant",
    "games.rematches",
    "games.analysis",
    "tournaments",
    "challenges",
    "conversations",
]

# The game kinds the site hosts (``games.kinds``): dotted paths to ``GameKind`` classes,
# the first is the default. A game adds its package and one line here.
GAME_KINDS = ["games.evergreen.kind.Evergreen", "games.verdant.kind.Verdant"]

# Who may look at a game is asked of these too (``games.access.game_for_viewer``): a daily
# challenge's game stays hidden from the other players until they have finished theirs.
GAME_VIEW_GUARDS = ["challenges.visibility.hide_unfinished_challenges"]

MIDDLEWARE = [
    # The tasks a request hands to the workers go once its response has been sent.
    "games.handoff.HandOffMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A poll that finds nothing new: 204 from the cache, before sessions and the rest.
    "games.pollcache.QuickPollMiddleware",
    "games.api.quickpoll.QuickApiPollMiddleware",  # the same for an API client's poll
    "whitenoise.middleware.WhiteNoiseMiddleware",  # /static/ without a proxy in front
    "csp.middleware.CSPMiddleware",
    # Django's, which also hands the session the user a cookie hints at (games.usersession)
    "games.usersession.SessionWithUserMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, checking a session against the digest kept with its user (games.auth)
    "games.auth.KeptUserAuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "games.middleware.PagesNotKeptMiddleware",
    # A game page kept in the cache, for the session's user, before the user is loaded.
    "games.pagecache.QuickPageMiddleware",
    "games.middleware.PlayerPreferencesMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked-out login into its 429 page
]

ROOT_URLCONF = os.environ.get("ROOT_URLCONF", "evergreen.urls")
WSGI_APPLICATION = "evergreen.wsgi.application"
SITE_ID = 1

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
            ],
        },
    },
]

# The server binds parameters and prepares a query run more than five times on a
# connection (docs/architecture.md, "The hot paths"); DB_PREPARED_STATEMENTS=0 behind a
# pooler in transaction mode, which loses a connection's prepared statements.
POSTGRESQL_OPTIONS = (
    {"server_side_binding": True, "prepare_threshold": 5}
    if env_bool("DB_PREPARED_STATEMENTS", True)
    else {}
)
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(POSTGRESQL_OPTIONS)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default has a web process and a worker writing: take the write lock
    # at the start of a transaction and wait for it, instead of failing with "locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(transaction_mode="IMMEDIATE", timeout=20)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked-out login before any check
    "games.auth.PlayerBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# django-allauth: e-mail + password accounts.
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
# ...and the public name and the browser's time zone (games.signup).
ACCOUNT_SIGNUP_FORM_CLASS = "games.signup.SignupForm"
# A sign-up with a known address looks like any other (the mail tells the owner instead):
# allauth can only keep that promise when every new address is verified first.
ACCOUNT_PREVENT_ENUMERATION = True
ACCOUNT_EMAIL_VERIFICATION = os.environ.get(
    "ACCOUNT_EMAIL_VERIFICATION", "optional" if DEBUG else "mandatory"
)
ACCOUNT_CHANGE_EMAIL = True
LOGIN_REDIRECT_URL = "games:my_games"
LOGIN_URL = "account_login"

# django-axes: failed logins counted per account (e-mail) and address, in the database;
# at the limit that account is locked for that address until the cool-off has passed
# (or `manage.py axes_reset`). games.lockout says whose account and answers the refusal.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_USERNAME_CALLABLE = "games.lockout.account_of"
AXES_LOCKOUT_CALLABLE = "games.lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True
# The proxies in front of the site (a load balancer, nginx): X-Forwarded-For is believed
# only as far as they wrote it, for the login lock (axes) and DRF's throttles alike.
NUM_PROXIES = env_int("NUM_PROXIES", 0)
AXES_CLIENT_IP_CALLABLE = "evergreen.proxy.client_ip"
# allauth's own failed-login limit would answer before axes with another message.
ACCOUNT_RATE_LIMITS = {"login_failed": False}

# Sessions live in the database. With a cache that every web process shares (CACHE_URL)
# they are read from it first; a cache of each process's own memory would keep serving
# a session that another process has ended (a logout, a password change), so without
# CACHE_URL they are read from the database alone.
# ``games.usersession`` is Django's cached_db, which also reads the signed-in user from
# the cache in the same round trip as the session.
SESSION_ENGINE = (
    "games.usersession" if os.environ.get("CACHE_URL") else "django.contrib.sessions.backends.db"
)

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German")), ("fr", _("French")), ("ru", _("Russian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# WhiteNoise serves collectstatic's output with hashed names and far-future caching.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- HTTPS -------------------------------------------------------------------------------
# HTTPS=1 when the site is reached by https:// (directly or through NUM_PROXIES proxies
# that say so in X-Forwarded-Proto): redirect http, send HSTS, cookies only over https.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
if NUM_PROXIES > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Only this site's own files run, style or load: no inline script, no inline style, no
# other origin (the API docs page relaxes styles for Redoc: evergreen.urls).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 20)
NOTIFICATION_RETRY_SECONDS = env_int("NOTIFICATION_RETRY_SECONDS", 30)
# A mail claimed for sending by a worker that then died is sent again after this long
# (longer than EMAIL_TIMEOUT: a slow but living sender is never overtaken).
NOTIFICATION_STALE_SECONDS = env_int("NOTIFICATION_STALE_SECONDS", 600)
# An unsubscribe link from a mail works this many days; then its page offers to log in.
UNSUBSCRIBE_LINK_DAYS = env_int("UNSUBSCRIBE_LINK_DAYS", 60)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Evergreen <noreply@localhost>")

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.authentication.PlayerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Bodies are JSON (a form cannot say null); the token endpoint also takes a form.
    "DEFAULT_PARSER_CLASSES": ["games.api.parsers.JSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.exception_handler",
    "NUM_PROXIES": NUM_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Evergreen API",
    "DESCRIPTION": "Play Evergreen by correspondence: games, picks, turns, records.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "REDOC_DIST": "SIDECAR",  # the docs page's script from this site, not a CDN
    "COMPONENT_SPLIT_REQUEST": True,
    # Every registered game's examples and moves (the platform's decorators know none).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema.add_game_kinds",
    ],
    # Several fields are called "status" or "role": one schema name per choice set.
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.api.serializers.STATUS_BY_NAME",
        "EventStatusEnum": "tournaments.serializers.EVENT_STATUSES",
        "RegistrationStatusEnum": "tournaments.serializers.REGISTRATION_STATUSES",
        "RoundStatusEnum": "tournaments.serializers.ROUND_STATUSES",
        "ClubRoleEnum": "tournaments.serializers.ROLES",
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- Celery ------------------------------------------------------------------------------
# Production: CELERY_BROKER_URL=redis://host:6379/0. Embedded default: a folder as the
# broker (kombu's filesystem transport), served by the worker `make run` starts.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "filesystem://")
if CELERY_BROKER_URL.startswith("filesystem://"):
    _queue = Path(os.environ.get("CELERY_FILESYSTEM_DIR", BASE_DIR / ".celery"))
    (_queue / "queue").mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue / "queue"),
        "data_folder_out": str(_queue / "queue"),
        "control_folder": str(_queue / "control"),
    }
elif CELERY_BROKER_URL.startswith("redis://"):
    # kombu's Redis transport, with one client for all publishing (evergreen.broker).
    CELERY_BROKER_TRANSPORT = "evergreen.broker:Transport"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True  # a task whose worker dies is delivered again
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery closes the database connections only every so many tasks; each task otherwise
# treats them as a request does (evergreen/taskconnections.py, DB_CONN_MAX_AGE).
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)
CELERY_TASK_IGNORE_RESULT = True
# Celery's own defaults, written out: Celery reads these on every task it sends, and a
# setting Django lacks is tried under three names, each a raised AttributeError (a fifth
# of the CPU a send costs in a web request).
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_SEND_SENT_EVENT = False
CELERY_TASK_REPR_MAXLEVELS = 3
CELERY_BROKER_POOL_ACQUIRE_TIMEOUT = None
CELERY_TIMEZONE = "UTC"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The beat's safety nets run every CELERY_BEAT_SECONDS (a minute; the fault tests use less).
_BEAT = float(env_int("CELERY_BEAT_SECONDS", 60))
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": _BEAT},
    "send-reminders": {"task": "games.tasks.send_reminders", "schedule": _BEAT},
    "deliver-due-notifications": {"task": "games.tasks.deliver_due", "schedule": _BEAT},
    "close-pending-rounds": {"task": "games.tasks.close_pending_rounds", "schedule": _BEAT},
    "send-digests": {"task": "games.tasks.send_digests", "schedule": 300.0},
    "rate-pending-games": {"task": "games.tasks.rate_pending_games", "schedule": 300.0},
    "events-safety-net": {"task": "tournaments.tasks.events_safety_net", "schedule": 60.0},
    # Opens each day's challenges soon after midnight UTC and computes missing targets.
    "open-daily-challenges": {"task": "challenges.tasks.open_today", "schedule": 300.0},
}
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
# The cache (page cache, rate limits): this process's memory by default; Redis
# (CACHE_URL=redis://…) when several web processes must share it. Redis stopped is a
# cache that misses (evergreen.tolerant_cache): the site goes on, the limits fail open.
if os.environ.get("CACHE_URL"):
    CACHES = {
        "default": {
            "BACKEND": "evergreen.tolerant_cache.TolerantRedisCache",
            "LOCATION": os.environ["CACHE_URL"],
        }
    }
# Moves one player may submit (pages and API together), DRF's rate syntax; empty: no limit.
MOVE_RATE_LIMIT = os.environ.get("MOVE_RATE_LIMIT", "120/minute")
# Chat and club messages one player may post (pages and API together); empty: no limit.
CHAT_RATE_LIMIT = os.environ.get("CHAT_RATE_LIMIT", "6/minute")
# Rendered game pages are reused while the game's version and the minute stay the same.
GAME_PAGE_CACHE_SECONDS = env_int("GAME_PAGE_CACHE_SECONDS", 60)
# Parts of the game page worked out once per version of a game, seat and language (the game
# log, the opponents' planets; games.fragments): a new version has new keys, so this only
# bounds how long an old version's parts stay in the cache.
GAME_FRAGMENT_CACHE_SECONDS = env_int("GAME_FRAGMENT_CACHE_SECONDS", 3600)
# Users with their players (and API tokens) kept this long in the cache (games.usercache,
# games.api.tokencache): forgotten on every change, so this bounds only how often the rows
# are read. Only with a cache every process shares (CACHE_URL): in each process's own
# memory, the worker would not hear of a change made by the web process.
USER_CACHE_SECONDS = env_int("USER_CACHE_SECONDS", 120 if os.environ.get("CACHE_URL") else 0)
# A game's row and its seats' rows kept this long under the versions PostgreSQL gives them
# (games.rowcache): every read asks which versions are current, so this only bounds how
# long an old version stays in the cache. Only where users are kept too (USER_CACHE_SECONDS).
GAME_ROWS_CACHE_SECONDS = env_int("GAME_ROWS_CACHE_SECONDS", 600)

# The analysis of finished games and the hint (games.analysis): the strong player's level
# searched with (a budget: easy, medium, hard, strong) and the analyses a user may ask for
# a day (UTC).
_BUDGETS = ("easy", "medium", "hard", "strong")
ANALYSIS_BUDGET = os.environ.get("ANALYSIS_BUDGET") or "strong"
HINT_BUDGET = os.environ.get("HINT_BUDGET") or "strong"
for _name, _budget in (("ANALYSIS_BUDGET", ANALYSIS_BUDGET), ("HINT_BUDGET", HINT_BUDGET)):
    if _budget not in _BUDGETS:
        raise ValueError(f"{_name} must be one of {', '.join(_BUDGETS)}, not {_budget!r}")
ANALYSIS_DAILY_LIMIT = env_int("ANALYSIS_DAILY_LIMIT", 5)
