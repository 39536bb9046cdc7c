"""A Verdant rating apart from the Evergreen one: rated, listed and shown per game."""

from __future__ import annotations

from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games import ratings, services
from games.models import Rating
from tests.verdant.site.verdant_site_helpers import client_for, play_moves


def rated_verdant_game(alice, bob, seed):
    game = services.create_game(alice, kind="verdant", players=2, rated=True)
    services.join_game(game.pk, bob)
    return play_moves(game, seed=seed)


def test_a_rated_verdant_game_moves_only_the_verdant_ratings(alice, bob):
    game = rated_verdant_game(alice, bob, seed=9)
    assert game.rated
    assert set(Rating.objects.values_list("kind", flat=True)) == {"verdant"}
    assert ratings.rating_of(alice) is None  # no Evergreen rating
    mine = ratings.rating_of(alice, "verdant")
    assert mine is not None and mine.games == 1
    assert [row.user_id for row in ratings.leaderboard(kind="verdant")] != []
    assert ratings.leaderboard() == []


def test_the_leaderboard_shows_each_games_ratings(alice, bob):
    rated_verdant_game(alice, bob, seed=10)
    client = client_for(alice)
    verdant = client.get("/ratings/", {"game": "verdant"})
    evergreen = client.get("/ratings/")
    assert [row.name for row in verdant.context["rows"]] != []
    assert evergreen.context["rows"] == []
    assert 'href="?game=verdant"' in evergreen.content.decode()
    player = client.get(f"/ratings/{alice.pk}/", {"game": "verdant"})
    assert player.context["rating"].kind == "verdant"


def test_recomputing_rebuilds_the_verdant_ratings_as_they_were(alice, bob):
    rated_verdant_game(alice, bob, seed=11)
    before = set(Rating.objects.values_list("user_id", "kind", "mu", "sigma", "games"))
    ratings.recompute()
    assert set(Rating.objects.values_list("user_id", "kind", "mu", "sigma", "games")) == before


def test_the_ratings_api_reads_the_game_it_is_asked_for(alice, bob):
    rated_verdant_game(alice, bob, seed=12)
    api = APIClient()
    verdant = api.get("/api/ratings/", {"game": "verdant"}).json()
    assert verdant["count"] == 2
    assert {row["user_id"] for row in verdant["results"]} == {alice.pk, bob.pk}
    assert verdant["results"][0]["url"].endswith("?game=verdant")
    assert api.get("/api/ratings/").json()["count"] == 0  # Evergreen's, by default
    mine = api.get(f"/api/ratings/{alice.pk}/", {"game": "verdant"}).json()
    assert mine["games"] == 1 and len(mine["history"]) == 1
    assert api.get(f"/api/ratings/{alice.pk}/").json()["code"] == "not_rated"


def test_the_ratings_api_refuses_a_game_it_does_not_know(alice):
    response = APIClient().get("/api/ratings/", {"game": "chess"})
    assert response.status_code == 400
    assert response.json()["code"] == "unknown_game"


def test_the_schema_documents_the_game_of_the_ratings_api():
    document = SchemaGenerator().get_schema(request=None, public=True)
    for path in ("/api/ratings/", "/api/ratings/{id}/"):
        parameters = {p["name"]: p for p in document["paths"][path]["get"]["parameters"]}
        assert set(parameters["game"]["schema"]["enum"]) >= {"evergreen", "verdant"}
