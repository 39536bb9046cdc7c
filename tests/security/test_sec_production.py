"""Production mode: ``check --deploy`` is clean with the production environment, every
page carries a Content-Security-Policy that allows no inline script or style (and the
pages need none), static files are served by the application itself (WhiteNoise), the
API docs page loads nothing from another site, and sign-up tells no one whether an
address has an account."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.evergreen import rules
from tests.games.gamehelpers import client_for, make_user, play_until
from tests.security.sechelpers import draft_game

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "evergreen.settings",
    "DEBUG": "0",
    "SECRET_KEY": "a-production-like-secret-of-enough-length-and-variety-0123456789-xyz",
    "ALLOWED_HOSTS": "play.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://play.example.org",
    "SITE_URL": "https://play.example.org",
    "HTTPS": "1",
    "NUM_PROXIES": "1",
    # Several web processes share their rate limits and sessions through it (never
    # contacted by the checks).
    "CACHE_URL": "redis://127.0.0.1:6379/1",
}


def production(*args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "DATABASE_", "CELERY_", "PYTEST_", "EMAIL_", "CACHE_"))
    }
    env.update(PRODUCTION, **extra)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def production_settings(*names: str) -> dict[str, Any]:
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n, None) for n in {list(names)!r}}}, default=str))"
    )
    run = production("-c", code)
    assert run.returncode == 0, run.stderr
    return dict(json.loads(run.stdout.strip().splitlines()[-1]))


def test_check_deploy_is_clean_in_production_mode() -> None:
    run = production("manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues" in run.stdout


def test_check_deploy_warns_when_sign_up_would_tell_about_accounts() -> None:
    run = production(
        "manage.py", "check", "--deploy", "--fail-level", "WARNING",
        ACCOUNT_EMAIL_VERIFICATION="optional",
    )  # fmt: skip
    assert run.returncode != 0
    assert "evergreen.W001" in run.stderr + run.stdout


def test_behind_an_https_proxy_the_site_knows_it_is_https() -> None:
    found = production_settings(
        "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS", "ACCOUNT_EMAIL_VERIFICATION",
        "ACCOUNT_PREVENT_ENUMERATION",
    )  # fmt: skip
    assert found == {
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "ACCOUNT_EMAIL_VERIFICATION": "mandatory",
        "ACCOUNT_PREVENT_ENUMERATION": True,
    }


@pytest.mark.django_db
def test_api_links_come_out_https_behind_the_proxy(alice: Any, settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    for _n in range(3):
        play_until(draft_game(alice, make_user(f"p{_n}")), lambda s: True)
    client = client_for(alice)
    page = client.get(
        "/api/games/?limit=1", HTTP_X_FORWARDED_PROTO="https", HTTP_HOST="testserver"
    ).json()
    assert str(page["next"]).startswith("https://testserver/api/games/"), page


# --- Content-Security-Policy -------------------------------------------------------------

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[^>]+\sstyle\s*=", re.I)
STYLE_ELEMENT = re.compile(r"<style[\s>]", re.I)
LINK = re.compile(r'(?:href|hx-get|src)="(/[^"]*)"')
# The API docs page has its own, looser policy for styles (Redoc): tested below.
SKIP = ("/static/", "/accounts/logout/", "/admin/", "/mail/", "/api/docs/")


def inline_code(body: str) -> list[str]:
    found = []
    for name, pattern in [
        ("inline script", INLINE_SCRIPT),
        ("event handler attribute", HANDLER),
        ("style attribute", STYLE_ATTRIBUTE),
        ("style element", STYLE_ELEMENT),
    ]:
        found += [f"{name}: {m.group(0)[:80]}" for m in pattern.finditer(body)]
    return found


@pytest.mark.django_db
def test_every_page_has_a_strict_policy_and_needs_no_inline_code(alice: Any, bob: Any) -> None:
    """Alice's pages with a game in the Action phase, a draft,
    the replay, her profile, the lobby, the rules and the entrance pages, and the pages
    they link to: each has the policy, and none holds inline script or style."""
    acting = play_until(draft_game(alice, bob), lambda s: s.phase is rules.Phase.ACTION)
    draft_game(alice, make_user("carol"))
    client = client_for(alice)
    queue = ["/", "/lobby/", "/games/mine/", "/profile/", "/rules/", f"/games/{acting.pk}/"]
    queue += ["/clubs/", "/ratings/", f"/games/{acting.pk}/replay/"]
    seen: set[str] = set()
    problems: list[str] = []
    while queue and len(seen) < 80:
        url = queue.pop(0)
        if url in seen or url.startswith(SKIP):
            continue
        seen.add(url)
        for htmx in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **htmx)
            if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                continue
            policy = response["Content-Security-Policy"]
            assert "script-src 'self'" in policy and "unsafe" not in policy, (url, policy)
            body = response.content.decode()
            problems += [f"{url}: {what}" for what in inline_code(body)]
            queue += [link for link in LINK.findall(body) if link not in seen]
    assert len(seen) > 20
    assert not problems, "\n".join(problems[:20])
    for url in ("/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
        response = Client().get(url)
        assert "script-src 'self'" in response["Content-Security-Policy"]
        assert not inline_code(response.content.decode()), url


def test_the_check_for_inline_code_does_find_it() -> None:
    html = '<p style="x"><a onclick="x()">x</a><script>go()</script><style>p{}</style>'
    assert len(inline_code(html)) == 4
    assert not inline_code('<script src="/static/x.js" defer></script><p class="x">')


# --- Static files and the API docs -------------------------------------------------------


@pytest.mark.django_db
def test_static_files_are_served_by_the_application(tmp_path: Path, settings: Any) -> None:
    """As in production (DEBUG off, collectstatic run): hashed names, cached for ever."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }
    call_command("collectstatic", "--noinput", verbosity=0)
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    hashed = manifest["css/site.css"]
    assert hashed != "css/site.css"
    response = Client().get(f"/static/{hashed}")
    assert response.status_code == 200
    assert "immutable" in response["Cache-Control"]
    assert b"htmx-indicator" in b"".join(response.streaming_content)  # type: ignore[attr-defined]
    redoc = Client().get(
        "/static/" + manifest["drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"]
    )
    assert redoc.status_code == 200


@pytest.mark.django_db
def test_the_api_docs_page_loads_nothing_from_elsewhere() -> None:
    response = Client().get(reverse("api-docs"))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'src="/static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"' in body
    assert "https://" not in body and "http://" not in body
    assert not INLINE_SCRIPT.search(body)
    policy = response["Content-Security-Policy"]
    assert "script-src 'self';" in policy + ";" and "unsafe-eval" not in policy


# --- Sign-up -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_signing_up_with_a_known_address_looks_like_any_sign_up(alice: Any, settings: Any) -> None:
    """As in production (verification mandatory): the same answer for a known and a new
    address, no second account; the owner is told by mail instead."""
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    answers = []
    for email, name in (("alice@example.org", "Ally"), ("newcomer@example.org", "Newcomer")):
        response = Client().post(
            reverse("account_signup"),
            {
                "email": email,
                "display_name": name,
                "password1": "a long pass phrase 42",
                "password2": "a long pass phrase 42",
            },
        )
        answers.append((response.status_code, response.get("Location")))
    assert answers[0] == answers[1] == (302, reverse("account_email_verification_sent"))
    from django.contrib.auth import get_user_model

    assert get_user_model().objects.filter(email__iexact="alice@example.org").count() == 1
    to_alice = [m for m in mail.outbox if m.to == ["alice@example.org"]]
    assert len(to_alice) == 1 and "already" in to_alice[0].body.lower()
