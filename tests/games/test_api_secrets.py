"""No API response reveals a secret, and the game view costs a fixed number of queries.

A whole 2-player game is played through the API. Before and after every move each
endpoint is read by both players and a spectator, and every body is searched: for a
"deck", "rng" or "seed" key, for any card still in the deck (its order is the secret),
for another seat's turn not yet revealed, and for the invitation code.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.evergreen.rules import Phase
from games.evergreen.rules.bots import RandomBot
from games.models import Game
from tests.games.apihelpers import api_url, fixed_seed, refreshed, walk  # noqa: F401
from tests.games.gamehelpers import api_client_for, committed, play_until, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fixed_seed")]

SECRET_KEYS = {"deck", "rng", "seed"}
QUERY_BUDGET = 6  # token, game, seats, users, players (+1 spare)


class Inspector:
    """Reads every endpoint as every visitor and checks each body for secrets."""

    def __init__(self, game: Game, users: list[Any], spectator: Any) -> None:
        self.game = game
        self.clients = {seat: api_client_for(user) for seat, user in enumerate(users)}
        self.clients[None] = api_client_for(spectator)
        self.bodies_checked = 0
        self.moves_sent = 0

    def check_everything(self) -> None:
        game = refreshed(self.game)
        state = game.engine_state()
        for seat, client in self.clients.items():
            self.check(seat, client.get(api_url("game", game.pk)), game)
            if state.phase is not Phase.DRAFT:  # where turns wait to be revealed
                self.check_record(seat, client.get(api_url("record", game.pk)), game)
            if seat in state.awaiting and not state.is_over:
                partial = json.dumps({"action": "A"})
                response = client.get(
                    api_url("targets", game.pk), {"effect": "plant", "partial": partial}
                )
                self.check(seat, response, game)
            if state.round == 1:
                self.check(seat, client.get(api_url("games")), game)

    def check(self, seat: int | None, response: Any, game: Game) -> Any:
        assert response.status_code == 200, response.content
        body = response.json()
        self.bodies_checked += 1
        state = game.engine_state()
        deck = set(state.deck)
        for path, value in walk(body):
            assert path.rsplit(".", 1)[-1] not in SECRET_KEYS, f"secret key at {path}"
            assert not (isinstance(value, str) and value in deck), f"deck card at {path}"
            if isinstance(value, dict) and value.get("type") == "turn":
                assert value["seat"] == seat, f"another seat's turn at {path}"
        if seat is None:
            assert game.invite_code not in response.content.decode()
        return body

    def check_record(self, seat: int | None, response: Any, game: Game) -> None:
        assert response.status_code == 200
        body = response.json()
        self.bodies_checked += 1
        state = game.engine_state()
        hidden = {s for s in state.submitted if s != seat}
        moves = list(game.moves.order_by("number"))
        expected = [
            m.payload
            for m in moves
            if not (m.kind == "turn" and m.seat in hidden and m == _last_turn(moves, m.seat))
        ]
        assert body["moves"] == expected
        if state.is_over:
            assert body["seed"] == game.seed
        else:
            assert not SECRET_KEYS & set(body)

    def move(self, seat: int, move: Any) -> None:
        data = move.to_json()
        kind = data.pop("type")
        data.pop("seat")
        self.moves_sent += 1
        with committed():  # the round is revealed after the answer, as a worker does it
            response = self.clients[seat].post(
                api_url(kind, self.game.pk),
                data,
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"move-{self.moves_sent}",
            )
            # Checked against the game as it was when it answered.
            self.check(seat, response, refreshed(self.game))


def _last_turn(moves: list[Any], seat: int) -> Any:
    return next(m for m in reversed(moves) if m.kind == "turn" and m.seat == seat)


def test_no_response_ever_reveals_the_deck_or_a_hidden_turn(
    alice: Any, bob: Any, carol: Any, two_player_game: Game
) -> None:
    inspector = Inspector(two_player_game, [alice, bob], carol)
    bot = RandomBot(7)
    hidden_turns_seen = 0
    for _ in range(200):
        inspector.check_everything()
        state = refreshed(two_player_game).engine_state()
        if state.is_over:
            break
        hidden_turns_seen += len(state.submitted)
        seat = state.awaiting[0]
        inspector.move(seat, bot.choose(state, seat))
    assert state.is_over
    assert refreshed(two_player_game).status == Game.Status.FINISHED
    assert hidden_turns_seen > 10  # the checks did meet turns waiting to be revealed
    assert inspector.bodies_checked > 300


def count_queries(client: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_game_view_costs_the_same_queries_however_long_the_game(
    alice: Any, carol: Any, two_player_game: Game, django_assert_max_num_queries: Any
) -> None:
    url = api_url("game", two_player_game.pk)
    player, spectator = api_client_for(alice), api_client_for(carol)
    with django_assert_max_num_queries(QUERY_BUDGET):
        player.get(url)
    early = (count_queries(player, url), count_queries(spectator, url))

    game = play_until(two_player_game, lambda state: state.season == 3)
    assert game.moves.count() > 30
    with django_assert_max_num_queries(QUERY_BUDGET):
        player.get(url)
    late = (count_queries(player, url), count_queries(spectator, url))
    assert late == early


def test_the_game_list_costs_the_same_queries_however_many_games(alice: Any, bob: Any) -> None:
    from games import services

    services.create_game(alice, players=2)
    client = api_client_for(alice)
    one = count_queries(client, api_url("games"))
    for _ in range(4):
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
    assert count_queries(client, api_url("games")) == one


def test_a_finished_game_record_gives_the_seed_to_everyone(
    carol: Any, two_player_game: Game
) -> None:
    game = play_until(two_player_game, lambda state: state.is_over, limit=2000)
    body = api_client_for(carol).get(api_url("record", game.pk)).json()
    assert body["seed"] == game.seed
    assert user_at(game, 0) is not None
