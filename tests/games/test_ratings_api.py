"""The read-only ratings API: the leaderboard and one player's rating, checked against
the published OpenAPI schema, for visitors and for token holders."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import ratings
from games.models import Rating, RatingChange
from tests.games.apihelpers import ResponseSchema
from tests.games.gamehelpers import api_client_for, make_user
from tests.games.ratinghelpers import adjudicated_game, fixed_seeds  # noqa: F401 - fixture

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seeds")]


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> ResponseSchema:
    with django_db_blocker.unblock():
        return ResponseSchema()


@pytest.fixture
def rated(alice: Any, bob: Any, carol: Any) -> list[Any]:
    adjudicated_game([alice, bob])
    adjudicated_game([carol, alice, bob], rounds=3)
    return [alice, bob, carol]


def test_the_ratings_endpoints_are_in_the_schema(schema: ResponseSchema) -> None:
    paths = schema.document["paths"]
    assert set(paths["/api/ratings/"]) == {"get"}
    assert set(paths["/api/ratings/{id}/"]) == {"get"}
    assert "1000 + 40 * (mu - 3 * sigma)" in paths["/api/ratings/"]["get"]["description"]


@pytest.mark.parametrize("who", ["visitor", "player"])
def test_the_leaderboard_is_the_pages_leaderboard(
    schema: ResponseSchema, rated: list[Any], who: str
) -> None:
    client = APIClient() if who == "visitor" else api_client_for(rated[0])
    response = client.get(reverse("api:ratings"))
    assert response.status_code == 200
    body = response.json()
    schema.check("/api/ratings/", "get", 200, body)
    assert body["count"] == 3
    expected = ratings.leaderboard()
    assert [(r["rank"], r["user_id"], r["rating"]) for r in body["results"]] == [
        (row.rank, row.user_id, row.rating) for row in expected
    ]
    assert body["results"][0]["url"].endswith(reverse("api:rating", args=[expected[0].user_id]))


def test_the_leaderboard_pages_with_limit_and_offset(rated: list[Any]) -> None:
    full = ratings.leaderboard()
    body = APIClient().get(reverse("api:ratings"), {"limit": 1, "offset": 2}).json()
    assert [r["user_id"] for r in body["results"]] == [full[2].user_id]
    assert body["results"][0]["rank"] == full[2].rank
    assert body["next"] is None and "offset=1" in body["previous"]


def test_a_players_rating_comes_with_its_history(schema: ResponseSchema, rated: list[Any]) -> None:
    alice = rated[0]
    response = APIClient().get(reverse("api:rating", args=[alice.pk]))
    assert response.status_code == 200
    body = response.json()
    schema.check("/api/ratings/{id}/", "get", 200, body)
    rating = Rating.objects.get(user=alice)
    assert (body["rating"], body["games"], body["mu"]) == (rating.rating, 2, rating.mu)
    changes = RatingChange.objects.filter(user=alice).order_by("game__finished_at")
    assert [h["game"] for h in body["history"]] == [c.game_id for c in changes]
    assert body["history"][-1]["rating_after"] == rating.rating
    assert body["provisional"] is True


def test_unknown_and_unrated_players_are_not_found(schema: ResponseSchema, alice: Any) -> None:
    client = api_client_for(alice)
    missing = client.get(reverse("api:rating", args=[987654]))
    huge = client.get(reverse("api:rating", args=[10**30]))
    assert huge.status_code == 404 and huge.json()["code"] == "no_such_player"
    unrated = client.get(reverse("api:rating", args=[alice.pk]))
    for response, code in ((missing, "no_such_player"), (unrated, "not_rated")):
        assert response.status_code == 404
        assert response.json()["code"] == code
        schema.check("/api/ratings/{id}/", "get", 404, response.json())


def test_a_bad_token_is_refused_even_for_public_data(schema: ResponseSchema) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get(reverse("api:ratings"))
    assert response.status_code == 401
    schema.check("/api/ratings/", "get", 401, response.json())


def test_the_api_is_read_only(alice: Any) -> None:
    client = api_client_for(make_user("dave"))
    assert client.post(reverse("api:ratings"), {}).status_code == 405
    assert client.delete(reverse("api:rating", args=[alice.pk])).status_code == 405
