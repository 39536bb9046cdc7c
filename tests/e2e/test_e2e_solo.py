"""A solo game against the A.I. drafter, played in the browser to its title.

One whole round (the pick and the turn) is played with the keyboard only: Tab to move
the focus, Enter or Space to press; after every step the focus must stay on the page's
play region (board.js moves it to the first highlighted space or to the prompt).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.evergreen import rules
from tests.e2e.e2ehelpers import (
    Person,
    Shots,
    create_game,
    last_move,
    log_in,
    state_of,
    version_of,
)
from tests.e2e.movechoice import Wishes, choose_pick, choose_turn, preview_points
from tests.games.gamehelpers import PASSWORD, make_user

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


SEED = 11
KEYBOARD_ROUND = (1, 2)  # season 1, round 2: played with the keyboard only


def test_e2e_solo_game_against_the_ai_drafter_to_its_title(new_context) -> None:
    shots = Shots("solo")
    make_user("sylvia")
    player = Person(new_context().new_page(), "Sylvia", seat=0)
    log_in(player.page, "sylvia@example.org", PASSWORD)
    game_id = create_game(player.page, "1")
    expect(player.page.locator("#status-line")).to_contain_text("Your pick")
    shots.take(player.page, "first-draft")

    wishes = Wishes(actions={"A", "B", "C", "D"}, timings={"before", "after"})
    keyboard_turn_seen = False
    while True:
        state = state_of(game_id)
        if state.is_over:
            break
        player.wait_for_version(version_of(game_id))
        by_keyboard = (state.season, state.round) == KEYBOARD_ROUND
        player.how = "keyboard" if by_keyboard else "mouse"
        if state.phase is rules.Phase.DRAFT:
            assert state.to_pick == 0, "the A.I. drafter picks by itself"
            card = choose_pick(state, 0, wishes, SEED)
            player.pick(card)
            assert last_move(game_id, 0).payload == {"type": "pick", "seat": 0, "card": card}
        else:
            turn = choose_turn(state, 0, wishes, SEED)
            preview = preview_points(state, 0, turn)
            if by_keyboard:
                keyboard_turn_seen = True
                player.play_turn(turn, preview=preview, undo_once=True)
                shots.take(player.page, "after-the-keyboard-turn")
            else:
                player.play_turn(turn, preview=preview)
            wishes.played(turn)
            assert last_move(game_id, 0).payload == turn.to_json()

    assert keyboard_turn_seen
    assert not wishes.actions and not wishes.timings, wishes
    outcome = state.outcome
    assert outcome is not None and outcome.title
    edition = rules.load_edition(state.edition)
    assert outcome.title == edition.solo_title(outcome.scores[0])
    player.wait_for_version(version_of(game_id))
    expect(player.page.locator("#status-line")).to_have_text(
        f"Game over: {outcome.scores[0]} points, title {outcome.title}."
    )
    expect(player.page.locator(".scores tbody tr td").last).to_have_text(str(outcome.scores[0]))
    shots.take(player.page, "title")
    print(f"\n{player.name}: {player.steps_done} steps in {player.busy:.1f} s, {player.tabs} Tabs")
    print(f"E2E screenshots: {shots.folder}")
