"""While only moves hidden from a viewer were made, the poll sends the status bar alone.

In Evergreen's Action phase each seat's turn stays hidden from the others until the round
is revealed. A page polling with an older version then gets only the status bar (out of
band, with the poller at the new version): once htmx has put it in place, the page is
what a full render at the new version shows, it gives nothing hidden away, and its forms
are still accepted. Anything the viewer does see (a pick, a reveal, their own move, a
join, a hand-over, any Verdant move) still brings the whole region."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from tests.games.apihelpers import in_action_phase
from tests.games.gamehelpers import client_for, make_user, play_until, submit, user_at

HTMX = {"HTTP_HX_REQUEST": "true"}
OOB = ' hx-swap-oob="outerHTML:#play .status-bar"'
TURN = {"type": "turn", "action": "D", "effects": [{"plant": [3, 3]}], "power": None}


@pytest.fixture
def four_player_action(alice: Any, bob: Any, carol: Any) -> Game:
    """A 4-player game (alice, bob, carol, dave in seats 0-3) in its first Action phase,
    nobody's turn submitted yet."""
    game = services.create_game(alice, players=4)
    for user in (bob, carol, make_user("dave")):
        services.join_game(game.pk, user)
    game = play_until(game, in_action_phase)
    assert len(game.engine_state().awaiting) == 4
    return game


def region(user: Any, game: Game) -> str:
    response = client_for(user).get(reverse("games:detail", args=[game.pk]), **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def poll(user: Any, game: Game, version: int) -> Any:
    url = reverse("games:poll", args=[game.pk]) + f"?version={version}"
    return client_for(user).get(url, **HTMX)


def play_turn(game: Game, position: int, move: dict[str, Any] | None = None) -> None:
    """The seat's turn: planting at (3, 3), else a legal one of the random bot's."""
    from games.evergreen.rules.bots import RandomBot

    game.refresh_from_db()
    state = game.engine_state()
    try:
        submit(game.pk, user_at(game, position), move or TURN)
    except services.ServiceError:
        submit(game.pk, user_at(game, position), RandomBot(position).choose(state, position))
    game.refresh_from_db()


def element(html: str, start_tag: str) -> tuple[int, int]:
    """Where the element opened by ``start_tag`` (its version aside) starts and ends."""
    pattern = re.escape(start_tag).replace(re.escape('data-version="'), 'data-version="')
    pattern = re.sub(r'data-version="\d+"', r'data-version="\\d+"', pattern)
    found = re.search(pattern, html)
    assert found, f"{start_tag} is not on the page"
    name = start_tag[1:].split()[0].rstrip(">")
    depth = 0
    for tag in re.finditer(rf"<(/?){name}\b[^>]*>", html[found.start() :]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return found.start(), found.start() + tag.end()
    raise AssertionError(f"{start_tag} is not closed")


def applied(page: str, answer: str) -> str:
    """``page`` after htmx has swapped in each element the answer marks out of band."""
    for marked in re.findall(r'<\w+[^>]* hx-swap-oob="outerHTML:[^"]+"[^>]*>', answer):
        start, end = element(answer, marked)
        start_tag = re.sub(r' hx-swap-oob="[^"]+"', "", marked)
        before, after = element(page, start_tag)
        page = page[:before] + start_tag + answer[start + len(marked) : end] + page[after:]
    return page


def normalised(html: str) -> str:
    """Without what differs between two renders of one page: the version in the forms
    and the region's data attribute, each form's fresh idempotency key and CSRF token."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="\w+"', 'name="csrfmiddlewaretoken"', html)
    html = re.sub(r"version=\d+", "version=V", html)
    html = re.sub(r'(data-version|name="version" value)="\d+"', r'\1="V"', html)
    return re.sub(r'name="key" value="[0-9a-f]{32}"', 'name="key" value="K"', html)


@pytest.mark.parametrize("who", ["alice", "dave", "spectator"])
@pytest.mark.parametrize("change", ["two turns", "a hand-over"])
def test_the_quiet_answer_brings_the_page_to_the_new_version(
    four_player_action, alice, who, change
):
    game = four_player_action
    viewer = {"alice": alice, "dave": user_at(game, 3), "spectator": None}[who]
    old, page = game.version, region(viewer, game)
    play_turn(game, 1)
    if change == "two turns":
        play_turn(game, 2)
    else:  # the computer plays Carol's turn at once: hidden, yet the status bar tells it
        services.hand_seat_to_bot(game.pk, 2)
        game.refresh_from_db()
    answer = poll(viewer, game, old)
    assert answer.status_code == 200
    assert answer["HX-Reswap"] == "none"
    html = answer.content.decode()
    assert OOB in html and '<div id="play"' not in html
    assert f"?version={game.version}" in html
    assert normalised(applied(page, html)) == normalised(region(viewer, game))


@pytest.mark.parametrize("who", ["alice", "dave", "spectator"])
def test_the_answer_gives_no_hidden_turn_away(four_player_action, alice, who):
    game = four_player_action
    viewer = {"alice": alice, "dave": user_at(game, 3), "spectator": None}[who]
    old = game.version
    play_turn(game, 1, TURN)
    html = poll(viewer, game, old).content.decode()
    assert OOB in html
    assert '"plant"' not in html and "[3, 3]" not in html and "3,3" not in html


class TestWhatTheViewerSeesBringsTheWholeRegion:
    def test_the_viewers_own_turn_from_another_tab(self, four_player_action, alice):
        game = four_player_action
        old = game.version
        play_turn(game, 0)
        assert poll(alice, game, old).content.decode().lstrip().startswith('<div id="play"')

    def test_a_revealed_round(self, four_player_action, alice):
        game = four_player_action
        old = game.version
        for position in (1, 2, 3):
            play_turn(game, position)
        assert OOB in poll(alice, game, old).content.decode()  # three hidden turns: quiet
        play_turn(game, 0)  # the round is revealed
        html = poll(user_at(game, 3), game, old).content.decode()
        assert html.lstrip().startswith('<div id="play"')

    def test_a_pick_in_the_draft(self, alice, bob):
        game = services.create_game(alice, players=2)
        services.join_game(game.pk, bob)
        game.refresh_from_db()
        old = game.version
        state = game.engine_state()
        picker = state.to_pick
        submit(game.pk, user_at(game, picker), {"type": "pick", "card": state.pool[0]})
        game.refresh_from_db()
        other = user_at(game, 1 - picker)
        assert poll(other, game, old).content.decode().lstrip().startswith('<div id="play"')

    def test_a_hand_over_that_made_no_hidden_move(self, four_player_action, alice):
        game = four_player_action
        play_turn(game, 1)
        old = game.version
        services.hand_seat_to_bot(game.pk, 1)  # Bob has moved: the computer has nothing to do
        game.refresh_from_db()
        assert game.version > old
        assert poll(alice, game, old).content.decode().lstrip().startswith('<div id="play"')

    def test_a_page_with_a_turn_in_progress(self, four_player_action, alice):
        game = four_player_action
        old = game.version
        play_turn(game, 1)
        url = reverse("games:poll", args=[game.pk]) + f"?version={old}&turn=D"
        html = client_for(alice).get(url, **HTMX).content.decode()
        assert html.lstrip().startswith('<div id="play"')  # it may say the steps no longer hold

    def test_a_join(self, alice, bob):
        game = services.create_game(alice, players=3)
        old = Game.objects.get(pk=game.pk).version
        services.join_game(game.pk, bob)
        assert poll(alice, game, old).content.decode().lstrip().startswith('<div id="play"')


def test_a_form_of_the_patched_page_is_still_accepted(four_player_action, alice):
    game = four_player_action
    old = game.version
    play_turn(game, 1)
    assert OOB in poll(alice, game, old).content.decode()
    result = services.submit_move(game.pk, alice, TURN, expected_version=old)
    assert result.move.seat == 0


@pytest.fixture
def verdant_three(alice: Any, bob: Any, carol: Any) -> Game:
    """A started 3-player Verdant game (alice, bob, carol), every start placement to come."""
    game = services.create_game(alice, kind="verdant", players=3)
    for user in (bob, carol):
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game


def verdant_moves(game: Game, count: int) -> Game:
    from tests.verdant.site.verdant_site_helpers import play_moves

    target = game.moves.count() + count
    return play_moves(
        game, until=lambda state: Game.objects.get(pk=game.pk).moves.count() >= target
    )


@pytest.mark.parametrize("who", ["carol", "spectator"])
def test_verdant_start_placements_are_hidden_so_their_answer_is_quiet_too(
    verdant_three, carol, who
):
    game = verdant_three
    viewer = carol if who == "carol" else None
    old, page = game.version, region(viewer, game)
    game = verdant_moves(game, 2)  # alice's and bob's start placements, hidden till carol's
    html = poll(viewer, game, old).content.decode()
    assert OOB in html
    assert normalised(applied(page, html)) == normalised(region(viewer, game))


def test_a_verdant_move_in_play_brings_the_whole_region(verdant_three, carol):
    from games.verdant.rules.state import Phase

    game = verdant_moves(verdant_three, 3)  # the start placements, revealed
    assert game.engine_state().phase is Phase.PLAY
    old, mover = game.version, game.engine_state().awaiting[0]
    game = verdant_moves(game, 1)
    for viewer in (user_at(game, (mover + 1) % 3), None):
        assert poll(viewer, game, old).content.decode().lstrip().startswith('<div id="play"')
