"""The database unreachable: gunicorn with the production settings whose PostgreSQL
refuses every connection answers each page with a plain 503 page in the visitor's
language and each API request with a JSON 503, never a traceback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.benchmarks.webstack import free_port, gunicorn, request, site_env
from tests.load.loadhelpers import needs_stack

PAGES = ["/", "/lobby/", "/games/1/", "/accounts/login/", "/profile/", "/clubs/"]
SIGNED_IN = "sessionid=0123456789abcdefghijklmnopqrstuv"  # read from the database
CSRF = "A" * 32
API = ["/api/games/", "/api/games/1/", "/api/ratings/", "/api/events/"]


@pytest.fixture(scope="module")
def web(tmp_path_factory: Any) -> Iterator[int]:
    needs_stack()
    nowhere = f"postgresql://postgres@127.0.0.1:{free_port()}/evergreen"  # nobody listens
    env = site_env(nowhere, "memory://")
    server, port = gunicorn(env, tmp_path_factory.mktemp("nodb") / "gunicorn.log")
    try:
        yield port
    finally:
        server.stop()


def unreachable(port: int, method: str, path: str, **headers: str) -> Any:
    answer = request(port, method, path, headers={"Host": "127.0.0.1", **headers})
    assert answer.status == 503, (path, answer.status, answer.body[:300])
    assert answer.headers["retry-after"] == "30"
    assert b"Traceback" not in answer.body and b"psycopg" not in answer.body
    return answer


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_a_plain_503_in_the_visitors_language(web: int, path: str) -> None:
    english = unreachable(web, "GET", path, **{"Accept-Language": "en", "Cookie": SIGNED_IN})
    assert english.headers["content-type"].startswith("text/html")
    assert b"Temporarily unavailable" in english.body
    german = unreachable(web, "GET", path, **{"Accept-Language": "de", "Cookie": SIGNED_IN})
    assert german.headers["content-language"] == "de"
    assert b'<html lang="de">' in german.body
    assert "Vorübergehend nicht erreichbar".encode() in german.body
    russian = unreachable(web, "GET", path, **{"Accept-Language": "ru", "Cookie": SIGNED_IN})
    assert b'<html lang="ru">' in russian.body


def test_a_form_sent_while_the_database_is_away_is_a_503(web: int) -> None:
    answer = request(
        web,
        "POST",
        "/accounts/login/",
        headers={
            "Host": "127.0.0.1",
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept-Language": "fr",
            "Cookie": f"csrftoken={CSRF}",
        },
        body=f"csrfmiddlewaretoken={CSRF}&login=a%40example.org&password=x".encode(),
    )
    assert answer.status == 503, answer.body[:300]
    assert "Momentanément indisponible".encode() in answer.body


@pytest.mark.parametrize("path", API)
def test_every_api_request_is_a_json_503(web: int, path: str) -> None:
    answer = unreachable(web, "GET", path, Authorization="Token 0123456789abcdef")
    assert answer.headers["content-type"] == "application/json"
    body = json.loads(answer.body)
    assert body["code"] == "unavailable" and "database" in body["message"]
    posted = request(
        web,
        "POST",
        "/api/token/",
        headers={"Host": "127.0.0.1", "Content-Type": "application/json", "Accept-Language": "de"},
        body=b'{"email": "a@example.org", "password": "x"}',
    )
    assert posted.status == 503
    assert json.loads(posted.body)["code"] == "unavailable"
    assert "Datenbank" in json.loads(posted.body)["message"]
