"""Every seat's game page, and a spectator's, answers after every move of whole random
games of two, three and four players. The seeds are ones where a turn takes the last
Bushes or Lakes of the shared supply while its round is still open (found by playing
``RandomBot`` against itself in the rules engine alone): the page once failed there
(``rules.targets.planned_board``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.evergreen.rules.bots import RandomBot
from games.models import Game
from tests.games.gamehelpers import client_for, make_user, submit, user_at

pytestmark = pytest.mark.slow  # whole games, every page after every move


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 8), (4, 6)])
def test_every_page_answers_after_every_move_of_a_whole_game(players: int, seed: int) -> None:
    people = [make_user(f"player{k}") for k in range(players)]
    game = services.create_game(people[0], players=players, seed=seed)
    for person in people[1:]:
        services.join_game(game.pk, person)
    viewers = [client_for(person) for person in [*people, make_user("watcher")]]
    page, bot = reverse("games:detail", args=[game.pk]), RandomBot(seed)
    for _move in range(2000):
        game = Game.objects.get(pk=game.pk)
        state = game.engine_state()
        for viewer in viewers:
            answer = viewer.get(page)
            assert answer.status_code == 200, (game.moves_count, answer.content[:300])
        if state.is_over:
            return
        seat = state.awaiting[0]
        submit(game.pk, user_at(game, seat), bot.choose(state, seat))
    raise AssertionError("the game never ended")
