"""No page shows the deck order, the seed of a running or waiting game, or another seat's
unrevealed turn."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.evergreen import rules
from games.models import Game
from tests.games.apihelpers import api_url
from tests.games.gamehelpers import api_client_for, client_for, play_until, submit

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def bob_has_played(two_player_game: Game, bob: Any) -> Game:
    """Round 1's Action phase: Bob has submitted a turn planting at (3, 3); Alice has not."""
    game = play_until(two_player_game, lambda s: s.phase is rules.Phase.ACTION)
    turn = {"type": "turn", "action": "D", "effects": [{"plant": [3, 3]}], "power": None}
    services.submit_move(game.pk, bob, turn)
    game.refresh_from_db()
    state = game.engine_state()
    assert state.seats[1].turn is not None and state.seats[0].turn is None
    return game


def pages(user: Any, game: Game) -> dict[str, str]:
    """Everything a visitor can fetch about the game, by name."""
    client = client_for(user)
    detail = reverse("games:detail", args=[game.pk])
    found = {
        "detail": client.get(detail),
        "region": client.get(detail, **HTMX),
        "focus": client.get(detail + "?focus=1"),
        "poll": client.get(reverse("games:poll", args=[game.pk]) + "?version=0", **HTMX),
        "record": client.get(reverse("games:record", args=[game.pk])),
    }
    total = game.moves.count()
    for k in range(total + 1):
        found[f"replay {k}"] = client.get(reverse("games:replay", args=[game.pk]) + f"?move={k}")
    if user is not None and game.seats.filter(user=user).exists():
        found["turn step"] = client.post(
            reverse("games:turn", args=[game.pk]), {"steps": "", "step": "D"}, **HTMX
        )
    for name, response in found.items():
        assert response.status_code == 200, (name, response.status_code)
    return {name: response.content.decode() for name, response in found.items()}


def planet_of(html: str, seat: int) -> str:
    match = re.search(rf'id="planet-{seat}".*?</figure>', html, re.S)
    assert match, "no planet drawn"
    return match.group(0)


@pytest.mark.parametrize("who", ["alice", "carol", "staff", "anonymous"])
def test_no_page_shows_the_deck_the_seed_or_bobs_unrevealed_turn(
    bob_has_played, alice, carol, staff, who
):
    game = bob_has_played
    user = {"alice": alice, "carol": carol, "staff": staff, "anonymous": None}[who]
    state = game.engine_state()
    assert len(state.deck) > 10
    for name, html in pages(user, game).items():
        for card in state.deck:
            assert card not in html, f"deck card {card} in {name}"
        assert json.dumps(list(state.deck)) not in html
        assert str(game.seed) not in html, f"seed in {name}"
        if name == "record":
            data = json.loads(html)
            assert all(m["type"] == "pick" or m["seat"] != 1 for m in data["moves"])
            assert data["unrevealed_turns"] == [1]
        else:
            assert '"plant"' not in html and "[3, 3]" not in html, name
            assert 'data-space="3,3" data-piece="sprout"' not in planet_of(html, 1), name


def test_bob_sees_his_own_turn_so_the_check_above_would_catch_a_leak(bob_has_played, bob):
    html = client_for(bob).get(reverse("games:detail", args=[bob_has_played.pk])).content.decode()
    assert 'data-space="3,3" data-piece="sprout"' in planet_of(html, 1)
    assert "with your submitted turn" in html
    data = json.loads(
        client_for(bob).get(reverse("games:record", args=[bob_has_played.pk])).content
    )
    assert data["moves"][-1]["seat"] == 1 and data["moves"][-1]["type"] == "turn"


def test_once_revealed_everyone_sees_the_turn(bob_has_played, alice, carol):
    game = bob_has_played
    submit(game.pk, alice, {"type": "turn", "action": "D"})
    html = client_for(carol).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-space="3,3" data-piece="sprout"' in planet_of(html, 1)


@pytest.mark.parametrize("who", ["alice", "carol", "anonymous"])
def test_a_game_waiting_for_players_keeps_the_seed_it_was_made_with_secret(alice, carol, who):
    seed = 918273645546372819
    game = services.create_game(alice, players=2, seed=seed)
    user = {"alice": alice, "carol": carol, "anonymous": None}[who]
    browser, program = client_for(user), api_client_for(user)
    answers = {
        "page": browser.get(reverse("games:detail", args=[game.pk])),
        "lobby": browser.get(reverse("games:lobby")),
        "api game": program.get(api_url("game", game.pk)),
        "api record": program.get(api_url("record", game.pk)),
        "api games": program.get(api_url("games") + "?status=open"),
    }
    assert Game.objects.get(pk=game.pk).seed == seed  # drawn, kept for the start
    for name, answer in answers.items():
        assert answer.status_code in (200, 401), (name, answer.status_code)
        assert str(seed) not in answer.content.decode(), f"seed in {name}"
