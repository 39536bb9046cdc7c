"""Every seat's game page, a spectator's, and each seat's game in the API answer after every
move of whole random games of every kind, through the registry (so a new kind is asked
the same). At the end the replay and the record answer too.

Evergreen's three- and four-player seeds are ones where a turn takes the last Bushes or
Lakes of the shared supply while its round is still open, with these moves (found, and
checked below, in the rules engine alone): the page once failed there
(``rules.targets.planned_board``). Each kind's solo game is played too, and Verdant's
family variant and a full table of five.

The parts of the page are kept in the cache, as in production (``kept_parts``): the log is
told on after each move rather than from the deal for every page (which made the
four-player game 30 s instead of 17, the log told about 600 times from the deal). The
log told from the deal at every step is ``test_story_public``'s."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games import kinds, services
from games.evergreen import rules
from games.models import Game
from tests.games.gamehelpers import api_client_for, client_for, make_user, submit, user_at

pytestmark = pytest.mark.slow  # whole games, every page after every move

GAMES = [
    ("evergreen", 1, 2, {}),
    ("evergreen", 2, 1, {}),
    ("evergreen", 3, 910, {}),
    ("evergreen", 4, 60, {}),
    ("verdant", 1, 3, {}),
    ("verdant", 2, 5, {"variant": "family"}),
    ("verdant", 5, 7, {}),
    ("nim", 2, 1, {}),  # the test settings' toy kind (tests/toygame)
]


@pytest.mark.django_db
def test_every_kind_of_the_site_is_played_whole_here() -> None:
    assert {kind for kind, *_ in GAMES} == set(kinds.kinds())


def random_move(kind: Any, state: Any, seed: int, number: int) -> tuple[int, Any]:
    """The seat to move (the first of them) and its move at a game's ``number``-th turn: the
    random computer player's, seeded by the game's seed and the turn's number."""
    seat = kind.awaiting(state)[0]
    return seat, kind.bot_move("random", state, seat, seed * 7919 + number)


@pytest.mark.parametrize(("players", "seed"), [(3, 910), (4, 60)])
def test_the_evergreen_seeds_empty_the_supply_while_a_round_is_open(
    players: int, seed: int
) -> None:
    kind = kinds.get("evergreen")
    state = kind.advance(kind.new_game(kinds.Setup(players, seed, kind.check_setup(players, {}))))
    for number in range(200):
        before = state.supply
        state = kind.advance(kind.apply(state, random_move(kind, state, seed, number)[1]))
        if kind.needs_resolution(state):
            state = kind.resolve(state)
        elif 0 in state.supply and 0 not in before and state.phase is rules.Phase.ACTION:
            return
    raise AssertionError("no turn took the last Bushes or Lakes while its round was open")


def answers(client: Any, url: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code, answer.content[:300])


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind_name", "players", "seed", "options"),
    GAMES,
    ids=[
        f"{kind}-{players}p-{options.get('variant', 'standard')}"
        for kind, players, _, options in GAMES
    ],
)
def test_every_page_answers_after_every_move_of_a_whole_game(
    kind_name: str, players: int, seed: int, options: dict[str, Any], kept_parts: Any
) -> None:
    people = [make_user(f"player{k}") for k in range(players)]
    game = services.create_game(
        people[0], kind=kind_name, players=players, seed=seed, options=options
    )
    for person in people[1:]:
        services.join_game(game.pk, person)
    kind = kinds.get(kind_name)
    viewers = [client_for(person) for person in [*people, make_user("watcher")]]
    robots = [api_client_for(person) for person in people]
    page = reverse("games:detail", args=[game.pk])
    api_game = reverse("api:game", args=[game.pk])
    for number in range(3000):
        game = Game.objects.get(pk=game.pk)
        state = game.engine_state()
        for viewer in viewers:
            answers(viewer, page)
        for robot in robots:
            answers(robot, api_game)
        if kind.is_over(state):
            break
        seat, move = random_move(kind, state, seed, number)
        submit(game.pk, user_at(game, seat), move)
    else:
        raise AssertionError("the game never ended")
    assert game.status == Game.Status.FINISHED
    for viewer in viewers:
        answers(viewer, reverse("games:replay", args=[game.pk]))
        answers(viewer, reverse("games:record", args=[game.pk]))
