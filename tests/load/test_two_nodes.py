"""Past one machine: two web nodes behind nginx, two Celery workers and one beat, on one
PostgreSQL (the test database) and one Redis (a private redis-server: the broker, and
the cache both nodes share for sessions, rate limits and pages).

nginx (Debian's package, ``scripts/ensure-nginx``) hands the requests to the two
gunicorns in turn, so a player's consecutive requests alternate between the nodes; the
cross-node tests send to each node directly to say which one. Nothing a node keeps to
itself may matter: games played through the proxy lose and double nothing (every game
replays, every accepted move stored once, every round closed once by one of the two
workers, every mail received once); a player over the move limit on one node is limited
on the other; a lockout after failed logins on one node holds on the other; a session
opened on one node is known on the other, and ended on both by a logout on either. The
proxy compresses pages and API answers as the README's production config does.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from tests.benchmarks.cluster import Nginx, celery_beat, nginx_binary
from tests.benchmarks.loadaudit import audit_run, settle
from tests.benchmarks.loadplayers import LoadConfig, play
from tests.benchmarks.loadstack import mail_every_move, make_players
from tests.benchmarks.mailsink import MailSink
from tests.benchmarks.webstack import (
    Answer,
    Child,
    RedisServer,
    celery_worker,
    database_url_of,
    gunicorn,
    site_env,
)
from tests.benchmarks.webstack import request as http_request
from tests.games.gamehelpers import PASSWORD, make_user
from tests.load.loadhelpers import ci, needs_stack

pytestmark = pytest.mark.slow

MOVE_LIMIT = 12  # a minute: well above a player's pace in the games, easy to pass on purpose


@dataclass
class Cluster:
    proxy: Nginx
    nodes: list[int]  # the gunicorns' ports
    workers: list[Child]
    beat: Child
    sink: MailSink

    def upstreams(self) -> list[str]:
        return [f"127.0.0.1:{port}" for port in self.nodes]


@pytest.fixture(scope="module")
def cluster(django_db_setup: Any, tmp_path_factory: Any) -> Iterator[Cluster]:
    needs_stack()
    if nginx_binary() is None:
        reason = "needs nginx (scripts/ensure-nginx installs Debian's package)"
        if ci():
            pytest.fail(f"CI is set and this test {reason}", pytrace=False)
        pytest.skip(reason)
    folder: Path = tmp_path_factory.mktemp("two-nodes")
    redis = RedisServer(folder / "redis.log")
    sink = MailSink()
    sink.up()
    env = site_env(
        database_url_of(connection.settings_dict),
        redis.url(),
        smtp_port=sink.port,
        site_url=settings.SITE_URL,
        CACHE_URL=redis.url(1),
        DB_CONN_MAX_AGE="0",
        MOVE_RATE_LIMIT=f"{MOVE_LIMIT}/minute",
        AXES_FAILURE_LIMIT="3",
        CELERY_BEAT_SECONDS="2",  # the safety nets often: a lost closing is found at once
    )
    children: list[Any] = []
    try:
        workers = [celery_worker(env, folder / f"worker-{n}.log", concurrency=2) for n in (1, 2)]
        children += workers
        beat = celery_beat(env, folder / "beat.log", folder / "beat-schedule")
        children.append(beat)
        nodes = []
        for n in (1, 2):
            node, port = gunicorn(env, folder / f"node-{n}.log", workers=2)
            children.append(node)
            nodes.append(port)
        proxy = Nginx(folder / "nginx", nodes)
        children.append(proxy)
        yield Cluster(proxy, nodes, workers, beat, sink)
    finally:
        for child in reversed(children):
            child.stop()
        sink.down()
        redis.stop()


def member(name: str) -> Any:
    """A player whose password the nodes can check: hashed with production's hasher (the
    test settings' fast one is not among the nodes')."""
    user = make_user(name)
    mail_every_move(user)
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, hasher.salt())
    user.save(update_fields=["password"])
    # Production asks for a verified address before signing in (enumeration prevention).
    EmailAddress.objects.update_or_create(
        user=user, email=user.email, defaults={"verified": True, "primary": True}
    )
    return user


def call(port: int, method: str, path: str, headers: dict[str, str], body: Any = None) -> Answer:
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers = {**headers, "Content-Type": "application/json"}
    return http_request(port, method, path, {"Accept": "application/json", **headers}, data)


def code_of(answer: Answer) -> str:
    return str(json.loads(answer.body).get("code", "")) if answer.body else ""


def test_games_played_through_the_proxy_on_two_nodes_lose_and_double_nothing(
    cluster: Cluster, transactional_db: Any
) -> None:
    config = LoadConfig(players=8, seats=4, duration=90, max_moves=60, repeat_every=4)
    tokens = make_players(config.players)
    before = cluster.proxy.upstream_counts()

    stats, game_ids = play(cluster.proxy.port, tokens, config)
    left = settle(game_ids, 90)
    run = audit_run(
        game_ids,
        stats.accepted,
        cluster.sink.message_id_counts(),
        left,
        errors=stats.errors,
        requests=sum(stats.statuses.values()),
        picks=stats.moves["pick"],
        turns=stats.moves["turn"],
    )

    assert run.ok, "\n".join(f"{c.name}: {c.detail}" for c in run.checks if not c.ok)
    assert run.closings > 0 and run.mails_sent > 0
    assert stats.repeats > 0  # a resent move answered by the other node is still a replay
    served = cluster.proxy.upstream_counts() - before
    total = sum(served.values())
    assert set(served) == set(cluster.upstreams())
    assert all(served[node] >= total * 0.4 for node in cluster.upstreams()), served
    done = [
        "Task games.tasks." in worker.log() and "succeeded" in worker.log()
        for worker in cluster.workers
    ]
    assert all(done), "each of the two workers ran tasks"


def test_a_player_over_the_move_limit_on_one_node_is_limited_on_the_other(
    cluster: Cluster, transactional_db: Any
) -> None:
    token = make_players(1)[0]
    auth = {"Authorization": f"Token {token}"}
    node_a, node_b = cluster.nodes
    path = "/api/games/999999/pick/"  # counted before the game is looked up

    answers = [call(node_a, "POST", path, auth, {"card": "x"}) for _ in range(MOVE_LIMIT)]
    over = call(node_b, "POST", path, auth, {"card": "x"})

    assert [a.status for a in answers] == [404] * MOVE_LIMIT
    assert over.status == 429 and code_of(over) == "rate_limited"
    assert int(over.headers["retry-after"]) >= 1
    other = {"Authorization": f"Token {make_players(1)[0]}"}
    assert call(node_b, "POST", path, other, {"card": "x"}).status == 404  # only that player


def test_a_lockout_after_failed_logins_on_one_node_holds_on_the_other(
    cluster: Cluster, transactional_db: Any
) -> None:
    member("locked")
    member("welcome")
    node_a, node_b = cluster.nodes
    wrong = {"email": "locked@example.org", "password": "not-the-password"}

    failures = [call(node_a, "POST", "/api/token/", {}, wrong) for _ in range(3)]
    right_on_b = call(node_b, "POST", "/api/token/", {}, {**wrong, "password": PASSWORD})

    assert failures[0].status == 400 and code_of(failures[0]) == "bad_credentials"
    assert right_on_b.status == 429 and code_of(right_on_b) == "locked_out"
    other = {"email": "welcome@example.org", "password": PASSWORD}
    assert call(node_b, "POST", "/api/token/", {}, other).status == 200  # only that account


def cookies_of(answer: Answer, jar: dict[str, str]) -> dict[str, str]:
    cookie: SimpleCookie = SimpleCookie()
    for value in answer.set_cookies:
        cookie.load(value)
    return {**jar, **{key: morsel.value for key, morsel in cookie.items()}}


def browser(port: int, method: str, path: str, jar: dict[str, str], form: Any = None) -> Answer:
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in jar.items()), "Accept": "text/html"}
    data = None
    if form is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["X-CSRFToken"] = jar.get("csrftoken", "")
        data = urlencode(form).encode()
    return http_request(port, method, path, headers, data)


def test_a_session_opened_on_one_node_is_known_on_the_other_and_ended_on_both(
    cluster: Cluster, transactional_db: Any
) -> None:
    member("roaming")
    node_a, node_b = cluster.nodes
    jar = cookies_of(browser(node_a, "GET", "/accounts/login/", {}), {})
    login = browser(
        node_a,
        "POST",
        "/accounts/login/",
        jar,
        {"login": "roaming@example.org", "password": PASSWORD},
    )
    assert login.status == 302, re.findall(rb"errorlist.{0,300}", login.body)
    jar = cookies_of(login, jar)

    mine_on_b = browser(node_b, "GET", "/games/mine/", jar)
    mine_on_a = browser(node_a, "GET", "/games/mine/", jar)
    logout_on_b = browser(node_b, "POST", "/accounts/logout/", jar, {})
    after_on_a = browser(node_a, "GET", "/games/mine/", jar)  # the old cookie, on the other node

    assert (mine_on_b.status, mine_on_a.status) == (200, 200)
    assert logout_on_b.status == 302
    assert after_on_a.status == 302 and "/accounts/login/" in after_on_a.headers["location"]


def test_the_proxy_sends_pages_and_api_answers_compressed_to_a_client_that_accepts_it(
    cluster: Cluster, transactional_db: Any
) -> None:
    port, auth = cluster.proxy.port, {"Authorization": f"Token {make_players(1)[0]}"}

    plain = http_request(port, "GET", "/", {"Accept": "text/html"})
    page = http_request(port, "GET", "/", {"Accept": "text/html", "Accept-Encoding": "gzip"})
    api = call(port, "GET", "/api/games/", {**auth, "Accept-Encoding": "gzip"})

    assert plain.status == page.status == api.status == 200
    assert "content-encoding" not in plain.headers
    assert page.headers["content-encoding"] == api.headers["content-encoding"] == "gzip"
    assert gzip.decompress(page.body).startswith(b"<!DOCTYPE html>")
    assert len(page.body) * 3 < len(plain.body)
    assert "results" in json.loads(gzip.decompress(api.body))
