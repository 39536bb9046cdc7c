"""API: time controls, deadlines, standing orders (rankings) and vacations."""

from __future__ import annotations

from games import services
from games.models import Game
from tests.games.gamehelpers import api_client_for, user_at


def test_a_game_is_created_with_a_time_control_and_shows_deadlines(alice, bob):
    client = api_client_for(alice)
    response = client.post(
        "/api/games/",
        {"players": 2, "days_per_move": 2, "time_bank_hours": 24, "timeout_policy": "minimal"},
        format="json",
    )
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["id"])
    assert (game.days_per_move, game.time_bank_hours, game.timeout_policy) == (2, 24, "minimal")
    services.join_game(game.pk, bob)
    data = client.get(f"/api/games/{game.pk}/").json()
    assert data["timeout_policy"] == "minimal" and data["time_bank_hours"] == 24
    awaiting = data["awaiting"][0]
    assert data["seats"][awaiting]["deadline"] is not None
    assert data["seats"][1 - awaiting]["deadline"] is None


def test_a_bad_time_control_is_a_400(alice):
    response = api_client_for(alice).post("/api/games/", {"days_per_move": 4}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "bad_time_control"
    assert not Game.objects.exists()


def test_a_ranking_is_private_and_picks_for_me(two_player_game, carol):
    game = two_player_game
    state = game.engine_state()
    waiting = 1 - state.awaiting[0]
    me = api_client_for(user_at(game, waiting))
    url = f"/api/games/{game.pk}/ranking/"
    response = me.post(url, {"cards": [state.pool[1], state.pool[0]]}, format="json")
    assert response.status_code == 200
    assert response.json() == {"cards": [state.pool[1], state.pool[0]], "round": "s1r1"}
    assert me.get(url).json()["cards"] == [state.pool[1], state.pool[0]]
    assert api_client_for(carol).get(url).status_code == 403
    other = api_client_for(user_at(game, state.awaiting[0]))
    seen = other.get(f"/api/games/{game.pk}/").content.decode()
    assert "standing" not in seen and "ranking" not in seen
    other.post(f"/api/games/{game.pk}/pick/", {"card": state.pool[1]}, format="json")
    game.refresh_from_db()
    assert game.engine_state().seats[waiting].card == state.pool[0]


def test_a_ranking_with_a_card_not_in_the_pool_is_a_400(two_player_game):
    user = user_at(two_player_game, 0)
    response = api_client_for(user).post(
        f"/api/games/{two_player_game.pk}/ranking/", {"cards": ["wild/nothing"]}, format="json"
    )
    assert response.status_code == 400 and response.json()["code"] == "card_not_in_pool"


def test_a_vacation_is_taken_and_ended_through_the_api(alice):
    client = api_client_for(alice)
    response = client.post("/api/me/vacation/", {"days": 5}, format="json")
    assert response.status_code == 200 and response.json()["days_used_this_year"] == 5
    assert client.post("/api/me/vacation/", {"days": 5}, format="json").status_code == 409
    response = client.delete("/api/me/vacation/")
    assert response.status_code == 200 and response.json()["vacation_until"] is None
    assert client.post("/api/me/vacation/", {"days": 31}, format="json").status_code == 400
    assert (
        api_client_for(None).post("/api/me/vacation/", {"days": 1}, format="json").status_code
        == 401
    )
