"""Web processes keep no state of their own once the cache is shared: sessions are read
from the database unless every process sees the same cache, and a deployment whose cache
is one process's memory is warned about (``manage.py check --deploy``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
from django.core.checks import run_checks
from django.test import override_settings

SETTINGS = Path(__file__).resolve().parents[2] / "evergreen" / "settings.py"


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> ModuleType:
    """The settings module as a fresh module under ``env`` (the running settings untouched)."""
    for name in ("CACHE_URL", "DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_probe", SETTINGS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_a_shared_cache_sessions_are_read_from_the_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    probe = load_settings(monkeypatch)
    assert probe.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    assert not hasattr(probe, "CACHES")  # Django's default: this process's memory


def test_with_a_shared_cache_sessions_are_read_from_it_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    probe = load_settings(monkeypatch, CACHE_URL="redis://127.0.0.1:6379/1")
    assert probe.SESSION_ENGINE == "games.usersession"  # cached_db, reading the user with it
    assert probe.CACHES["default"]["BACKEND"] == "evergreen.tolerant_cache.TolerantRedisCache"


def deploy_warnings() -> set[str]:
    return {message.id for message in run_checks(include_deployment_checks=True)}


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}})
def test_a_cache_in_process_memory_is_warned_about_for_deployment() -> None:
    assert "evergreen.W002" in deploy_warnings()


@override_settings(
    CACHES={
        "default": {
            "BACKEND": "evergreen.tolerant_cache.TolerantRedisCache",
            "LOCATION": "redis://127.0.0.1:6379/1",
        }
    }
)
def test_a_shared_redis_cache_is_not_warned_about() -> None:
    assert "evergreen.W002" not in deploy_warnings()
