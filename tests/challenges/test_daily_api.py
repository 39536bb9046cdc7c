"""The daily challenge in the REST API: today's challenges, starting one, the leaderboard
hidden until the player has finished, refusals with stable codes, the schema."""

from __future__ import annotations

from typing import Any

import pytest

from challenges import services, targets
from challenges.models import ChallengeEntry
from tests.challenges.challengehelpers import clock_at, finish
from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


def test_today_lists_a_challenge_for_each_solo_game(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    answer = api_client_for(alice).get("/api/challenges/")
    assert answer.status_code == 200
    by_kind = {row["kind"]: row for row in answer.json()}
    assert set(by_kind) == {"evergreen", "verdant"}
    today = by_kind["evergreen"]
    assert today["day"] == "2026-11-26"
    assert today["ends_at"].startswith("2026-11-27T00:00:00")
    assert (today["game"], today["finished"], today["streak"]) == (None, False, 0)
    assert today["leaderboard_visible"] is False
    assert "seed" not in today  # a seed would let a program work out the deck


def test_starting_twice_answers_the_same_game(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    client = api_client_for(alice)
    first = client.post("/api/challenges/verdant/start/")
    assert first.status_code == 201
    assert first.json()["created"] is True
    game_id = first.json()["challenge"]["game"]
    assert first.json()["game_url"] == f"/api/games/{game_id}/"
    again = client.post("/api/challenges/verdant/start/")
    assert again.status_code == 200
    assert again.json()["created"] is False
    assert again.json()["challenge"]["game"] == game_id
    assert ChallengeEntry.objects.filter(user=alice).count() == 1


def test_the_leaderboard_is_refused_until_the_player_has_finished(
    alice: Any, bob: Any, monkeypatch: Any
) -> None:
    clock_at(monkeypatch)
    bobs, _ = services.start(bob, "verdant")
    finish(bobs.game, bob)
    alices, _ = services.start(alice, "verdant")
    client = api_client_for(alice)

    hidden = client.get("/api/challenges/verdant/leaderboard/")
    assert hidden.status_code == 403
    assert hidden.json()["code"] == "challenge_unfinished"
    game = client.get(f"/api/games/{bobs.game_id}/")
    assert game.status_code == 403
    assert game.json()["code"] == "challenge_hidden"
    assert "score" not in game.content.decode()
    record = client.get(f"/api/games/{bobs.game_id}/record/")
    assert (record.status_code, record.json()["code"]) == (403, "challenge_hidden")

    finish(alices.game, alice)
    board = client.get("/api/challenges/verdant/leaderboard/")
    assert board.status_code == 200
    rows = board.json()["rows"]
    assert {row["name"] for row in rows} == {"Alice", "Bob"}
    assert [row["place"] for row in rows] == [1, 2]
    assert rows[0]["score"] >= rows[1]["score"]
    mine = next(row for row in rows if row["mine"])
    alices.game.refresh_from_db()
    assert mine["game"] == alices.game_id
    assert mine["score"] == alices.game.seats.get().score
    assert client.get(f"/api/games/{bobs.game_id}/").status_code == 200


def test_a_players_own_game_is_always_theirs_to_see(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    entry, _ = services.start(alice, "evergreen")
    assert api_client_for(alice).get(f"/api/games/{entry.game_id}/").status_code == 200


def test_an_earlier_day_is_asked_for_by_date(alice: Any, monkeypatch: Any) -> None:
    clock = clock_at(monkeypatch)
    entry, _ = services.start(alice, "verdant")
    finish(entry.game, alice)
    clock.advance(days=1)
    client = api_client_for(alice)
    board = client.get("/api/challenges/verdant/leaderboard/?day=2026-11-26")
    assert board.status_code == 200
    assert board.json()["day"] == "2026-11-26"
    assert [row["name"] for row in board.json()["rows"]] == ["Alice"]
    today = client.get("/api/challenges/verdant/leaderboard/")
    assert (today.status_code, today.json()["code"]) == (403, "challenge_unfinished")


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("/api/challenges/chess/", 404, "no_such_challenge"),
        ("/api/challenges/nim/leaderboard/", 404, "no_such_challenge"),
        ("/api/challenges/verdant/leaderboard/?day=yesterday", 400, "bad_day"),
        ("/api/challenges/verdant/leaderboard/?day=", 400, "bad_day"),
        ("/api/challenges/verdant/leaderboard/?day=20261126", 400, "bad_day"),
        ("/api/challenges/verdant/leaderboard/?day=2026-02-30", 400, "bad_day"),
        ("/api/challenges/verdant/leaderboard/?day=2020-01-01", 404, "no_such_challenge"),
    ],
)
def test_bad_requests_are_refused_with_stable_codes(
    alice: Any, monkeypatch: Any, url: str, status: int, code: str
) -> None:
    clock_at(monkeypatch)
    answer = api_client_for(alice).get(url)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert answer.json()["message"]


def test_starting_an_unknown_challenge_changes_nothing(alice: Any, monkeypatch: Any) -> None:
    clock_at(monkeypatch)
    answer = api_client_for(alice).post("/api/challenges/chess/start/")
    assert (answer.status_code, answer.json()["code"]) == (404, "no_such_challenge")
    assert not ChallengeEntry.objects.exists()


def test_the_api_needs_a_player(monkeypatch: Any, db: Any) -> None:
    clock_at(monkeypatch)
    assert api_client_for(None).get("/api/challenges/").status_code == 401
    assert api_client_for(None).post("/api/challenges/verdant/start/").status_code == 401


def test_the_schema_documents_the_challenge_endpoints(alice: Any) -> None:
    schema = api_client_for(alice).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    paths = schema["paths"]
    assert "get" in paths["/api/challenges/"]
    assert "post" in paths["/api/challenges/{kind}/start/"]
    leaderboard = paths["/api/challenges/{kind}/leaderboard/"]["get"]
    assert {"200", "403", "404"} <= set(leaderboard["responses"])
    assert "Board" in schema["components"]["schemas"]


def test_the_answers_are_what_the_schema_says(
    schema: ResponseSchema, alice: Any, monkeypatch: Any
) -> None:
    clock_at(monkeypatch)
    client = api_client_for(alice)
    listed = client.get("/api/challenges/").json()
    schema.check("/api/challenges/", "get", 200, listed)
    assert all(row["target"] is None for row in listed)  # no worker has played it yet
    started = client.post("/api/challenges/verdant/start/")
    schema.check("/api/challenges/{kind}/start/", "post", 201, started.json())
    schema.check(
        "/api/challenges/{kind}/start/",
        "post",
        200,
        client.post(started.request["PATH_INFO"]).json(),
    )
    hidden = client.get("/api/challenges/verdant/leaderboard/")
    schema.check("/api/challenges/{kind}/leaderboard/", "get", 403, hidden.json())
    entry = ChallengeEntry.objects.get(user=alice)
    targets.compute_target(entry.challenge_id)
    finish(entry.game, alice)
    one = client.get("/api/challenges/verdant/").json()
    schema.check("/api/challenges/{kind}/", "get", 200, one)
    assert one["target"]["bot"] == entry.challenge.target_bot
    assert one["finished"] is True and one["streak"] == 1
    board = client.get("/api/challenges/verdant/leaderboard/").json()
    schema.check("/api/challenges/{kind}/leaderboard/", "get", 200, board)
    missing = client.get("/api/challenges/chess/")
    schema.check("/api/challenges/{kind}/", "get", 404, missing.json())
