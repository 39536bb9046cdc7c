"""Two people, two browsers: sign up, create and join a game, play it to the final scores.

What the players do goes through the pages (clicks on cards, Action buttons, highlighted
spaces, submit): the first season (and on until every wish below was played) and the
last. The engine chooses the moves (reading the state from the database) and is steered
so that Lake (with a growth beside it), Bush, every Action A-D and the Power both before
and after the Action occur. The seasons between are played through the services with
random legal moves (as the players' API clients would) while both pages stay open. Each
player's page only learns of the other's moves, and of those seasons, by htmx polling.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.evergreen import rules
from games.models import Move, Seat
from tests.e2e.e2ehelpers import (
    Person,
    Shots,
    create_game,
    game_row,
    last_move,
    sign_up,
    state_of,
    version_of,
)
from tests.e2e.movechoice import Wishes, choose_pick, choose_turn, preview_points
from tests.games.gamehelpers import play_until

# slow: a real browser against the live server
pytestmark = [pytest.mark.e2e, pytest.mark.slow]


SEED = 7
# The seasons played through the services once every wish was played in the pages: the
# whole game in the pages took 105 s of a parallel run of the suite, its longest test.
BY_THE_SERVICES = (2, 3)


def test_e2e_two_people_play_a_whole_game(new_context) -> None:
    shots = Shots("two-players")
    alice = Person(new_context().new_page(), "Alice")
    bob = Person(new_context().new_page(), "Bob")

    # Alice signs up from the home page's header (its hero offers a solo game) and starts a
    # 2-player game in the lobby.
    alice.page.goto("/")
    alice.page.click("header a:has-text('Sign up')")
    sign_up(alice.page, "alice@example.org")
    game_id = create_game(alice.page, "2")
    invite = alice.page.locator(".messages a").get_attribute("href")
    assert invite and "/invite/" in invite
    expect(alice.page.locator("#status-line")).to_contain_text("Waiting for players")
    shots.take(alice.page, "created")

    # Bob opens the invitation, signs up from it, comes back to it and joins.
    bob.page.goto(invite)
    shots.take(bob.page, "invitation")
    bob.page.click("main a:has-text('Sign up')")
    sign_up(bob.page, "bob@example.org")
    assert bob.page.url == invite
    bob.page.click("main form button:has-text('Join this game')")
    bob.page.wait_for_url(f"**/games/{game_id}/")

    seats = {s.user.email: s.position for s in Seat.objects.filter(game_id=game_id)}
    alice.seat, bob.seat = seats["alice@example.org"], seats["bob@example.org"]
    people = {alice.seat: alice, bob.seat: bob}
    # Alice's waiting page notices by itself that the game has started.
    alice.wait_for_version(version_of(game_id))
    expect(alice.page.locator(".pool-cards")).to_be_visible()

    # From now on the pages are never reloaded: every change comes by htmx.
    loads = dict.fromkeys(people, 0)
    for seat, person in people.items():
        person.page.on("load", lambda _page, seat=seat: loads.__setitem__(seat, loads[seat] + 1))

    wishes = Wishes(
        powers={"lake", "bush"},
        actions={"A", "B", "C", "D"},
        timings={"before", "after"},
        lake_growth=True,
    )
    season = 1
    shot_moments = {"draft", "turn"}
    while True:
        state = state_of(game_id)
        if state.is_over:
            break
        version = version_of(game_id)
        if state.season != season:
            season = state.season
            if season == 2:  # the first season's scoring on the board and in the table
                people[0].wait_for_version(version)
                shots.take(people[0].page, "season-1-scored")
        if state.season in BY_THE_SERVICES and wishes.done:
            play_until(game_row(game_id), lambda s: s.season not in BY_THE_SERVICES, SEED)
            continue
        if state.phase is rules.Phase.DRAFT:
            seat = state.to_pick
            assert seat is not None
            person = people[seat]
            person.wait_for_version(version)
            expect(person.page.locator("#status-line")).to_contain_text("Your pick")
            if "draft" in shot_moments:
                shot_moments.discard("draft")
                shots.take(person.page, "first-draft")
            card = choose_pick(state, seat, wishes, SEED)
            person.pick(card)
            assert last_move(game_id, seat).payload == {"type": "pick", "seat": seat, "card": card}
        else:
            seat = state.awaiting[0]
            person = people[seat]
            person.wait_for_version(version)
            expect(person.page.locator("#status-line")).to_contain_text("Your turn")
            turn = choose_turn(state, seat, wishes, SEED)
            # Screenshots of the board with the spaces highlighted for the next click: in
            # the first turn, and after the first use of a Power the test wanted to see.
            showcase = {"turn"} & shot_moments
            if turn.power is not None and turn.power.power in wishes.powers:
                showcase.add(f"power-{turn.power.power}")

            def after_space(block: str, person: Person = person, showcase: set = showcase) -> None:
                if "turn" in showcase:
                    showcase.discard("turn")
                    shot_moments.discard("turn")
                    shots.take(person.page, "building-a-turn")
                if block == "power" and (power := [m for m in showcase if m != "turn"]):
                    showcase.discard(power[0])
                    shots.take(person.page, power[0])

            person.play_turn(
                turn,
                on_step=after_space,
                undo_once=state.round == 1 and state.season == 1,
                preview=preview_points(state, seat, turn),
            )
            wishes.played(turn)
            assert last_move(game_id, seat).payload == turn.to_json()

    seed = game_row(game_id).seed  # the deal differs from run to run: say which it was
    assert wishes.done, f"never played: {wishes} (game seed {seed})"
    assert loads == {0: 0, 1: 0}, f"pages reloaded during the game: {loads}"
    outcome = state.outcome
    assert outcome is not None
    final = version_of(game_id)
    for person in people.values():
        person.wait_for_version(final)
        status = person.page.locator("#status-line")
        winner = outcome.winner
        if person.seat == winner:
            expect(status).to_have_text(f"Game over: you win with {outcome.scores[winner]} points!")
        else:
            expect(status).to_contain_text(f"wins with {outcome.scores[winner]} points")
        table = person.page.locator(".scores table")
        expect(table.locator("thead")).to_contain_text("Fertility")
        for seat, score in enumerate(outcome.scores):
            row = table.locator("tbody tr").nth(seat)
            expect(row.locator("td").last).to_have_text(str(score))
        # The page stops polling for the game once it is over (the game's chat log polls on
        # with its own poller).
        expect(person.page.locator(".poller[hx-target='#play']")).to_have_count(0)
    shots.take(people[outcome.winner].page, "final-scores-winner")
    shots.take(people[1 - outcome.winner].page, "final-scores-other")

    # Alice opened her page before the game started: the game's links came with the
    # updates. The replay steps back with the arrow keys; the record downloads.
    moves = Move.objects.filter(game_id=game_id).count()
    page = alice.page
    with page.expect_download() as download:
        page.click("#game-links a:has-text('Download the record')")
    record = json.loads(Path(download.value.path()).read_text())
    assert len(record["moves"]) == moves
    page.click("#game-links a:has-text('Replay')")
    position = page.locator(".replay-position")
    expect(position).to_have_text(f"Move {moves} of {moves}")
    page.wait_for_load_state("load")  # the key handler (static/js/board.js) is in place
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"Move {moves - 1} of {moves}")
    for p in people.values():
        print(
            f"{p.name}: {p.steps_done} steps in {p.busy:.1f} s (server {p.server:.1f} s), waited {p.waited:.1f} s"
        )
    print(f"\nE2E screenshots: {shots.folder}")
