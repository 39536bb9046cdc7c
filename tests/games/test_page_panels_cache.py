"""The panels of Evergreen's play region kept drawn (games/evergreen/panels.py): the Power
tracks, the Fertility Zone, the scores and a pool without a form are found again only by a
viewer of the same seat, language, planet in focus, names and moves; a pool with the pick's
forms is kept for the seat and version without the page's CSRF token and key, which each
page fills in."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.evergreen import panels
from games.models import Game
from tests.games.gamehelpers import client_for, submit


def page(user: Any, game: Game, query: str = "", language: str = "en") -> str:
    url = reverse("games:detail", args=[game.pk]) + query
    return client_for(user).get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def section(html: str, name: str) -> str:
    found = re.search(rf'<section class="panel {name}".*?</section>', html, re.S)
    assert found, f"no {name} panel"
    return found.group(0)


def viewer_row(html: str) -> str | None:
    """The name in the score table's row marked as the viewer's (None: no such row)."""
    found = re.search(r'<tr class="is-viewer"><th scope="row">([^<]*)', section(html, "scores"))
    return found.group(1).strip() if found else None


def test_the_scores_kept_for_one_seat_are_never_shown_to_another(
    kept_parts, two_player_game, alice, bob
):
    game = two_player_game
    for _ in range(2):  # the second time from the cache
        assert viewer_row(page(alice, game)) == "Alice"
        assert viewer_row(page(bob, game)) == "Bob"
        assert viewer_row(page(None, game)) is None


def test_panels_kept_in_one_language_are_not_shown_in_another(kept_parts, two_player_game):
    game = two_player_game
    assert "Fertility Zone" in section(page(None, game), "fertility")
    assert "Fruchtbarkeitsbereich" in section(page(None, game, language="de"), "fertility")
    assert "Fertility Zone" in section(page(None, game), "fertility")


def test_the_power_tracks_shown_are_those_of_the_planet_in_focus(
    kept_parts, two_player_game, alice
):
    game = two_player_game
    for _ in range(2):
        assert "Power tracks of Alice" in section(page(alice, game), "powers")
        assert "Power tracks of Bob" in section(page(alice, game, "?focus=1"), "powers")


def test_the_panels_are_drawn_again_after_a_move(kept_parts, two_player_game, alice, bob, carol):
    game = two_player_game
    before = section(page(carol, game), "pool")
    state = game.engine_state()
    picker = (alice, bob)[state.to_pick]
    submit(game.pk, picker, {"type": "pick", "card": state.pool[0]})
    after = section(page(carol, game), "pool")
    assert after.count('class="pool-card') == before.count('class="pool-card') - 1


def test_the_names_are_part_of_what_a_panel_was_drawn_from(kept_parts, two_player_game, bob):
    game = two_player_game
    assert 'scope="row">Bob' in section(page(None, game), "scores")
    bob.player.display_name = "Rowan"
    bob.player.save()
    scores = section(page(None, game), "scores")
    assert 'scope="row">Rowan' in scores and 'scope="row">Bob' not in scores


def pick_form(html: str) -> dict[str, str]:
    """The first pick form's fields in the pool: its token, card, version and key."""
    form = re.search(r'<form method="post" action="([^"]*)".*?</form>', section(html, "pool"), re.S)
    assert form, "no pick form"
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(0)))
    return {"action": form.group(1), **fields}


def without_form_values(html: str) -> str:
    """The pool as drawn, whatever token and key its forms carry."""
    pool = section(html, "pool")
    pool = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "TOKEN", pool)
    return re.sub(r'name="key" value="[^"]*"', "KEY", pool)


def test_a_pool_with_the_pick_forms_is_kept_without_a_token_or_key(
    kept_parts, two_player_game, alice, bob, carol
):
    # The picker's pool has the pick's forms, the other player's the standing order's.
    game = two_player_game
    picker, other = (alice, bob) if game.engine_state().to_pick == 0 else (bob, alice)
    first, again = page(picker, game), page(picker, game)  # the second from the cache
    assert pick_form(first)["key"] != pick_form(again)["key"]
    assert pick_form(first)["csrfmiddlewaretoken"] != pick_form(again)["csrfmiddlewaretoken"]
    assert panels.TOKEN_HOLE not in again and panels.KEY_HOLE not in again
    assert 'name="card"' not in section(page(other, game), "pool")
    assert "csrfmiddlewaretoken" not in section(page(carol, game), "pool")


def test_a_pick_sent_from_a_kept_pool_is_made(kept_parts, two_player_game, alice, bob):
    game = two_player_game
    picker = (alice, bob)[game.engine_state().to_pick]
    url = reverse("games:detail", args=[game.pk])
    page(picker, game)  # the pool kept, with the token of another session
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(picker)
    fields = pick_form(browser.get(url).content.decode())
    answer = browser.post(fields.pop("action"), fields)
    assert answer.status_code == 303, answer.content[:300]
    game.refresh_from_db()
    assert game.moves_count == 1


def test_a_kept_pool_with_the_pick_forms_is_the_pool_drawn_afresh(
    kept_parts, two_player_game, alice, bob, settings
):
    game = two_player_game
    picker = (alice, bob)[game.engine_state().to_pick]
    page(picker, game)
    kept = page(picker, game)
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0
    assert without_form_values(kept) == without_form_values(page(picker, game))


def test_a_kept_pool_with_the_pick_forms_is_drawn_again_for_a_new_version(
    kept_parts, two_player_game, alice, bob
):
    game = two_player_game
    picker = (alice, bob)[game.engine_state().to_pick]
    assert pick_form(page(picker, game))["version"] == str(game.version)
    game.version += 1  # a change that is no move (a deadline, a join): the forms' version
    game.save(update_fields=["version"])
    assert pick_form(page(picker, game))["version"] == str(game.version)


@pytest.mark.parametrize("who", ["alice", "bob", "carol", None])
def test_kept_panels_are_the_panels_drawn_afresh(
    kept_parts, two_player_game, settings, request, who
):
    game, user = two_player_game, request.getfixturevalue(who) if who else None
    page(user, game)
    kept = page(user, game)
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0
    fresh = page(user, game)
    for name in ("powers", "fertility", "scores"):
        assert section(kept, name) == section(fresh, name)
    if who in ("carol", None):  # the players' have forms, with the page's own token
        assert section(kept, "pool") == section(fresh, "pool")


def test_a_planet_a_move_leaves_as_it_was_is_not_drawn_again(
    kept_parts, two_player_game, alice, bob, carol, monkeypatch
):
    game = two_player_game
    page(carol, game)
    drawn: list[int] = []
    draw = panels.revealed_planet
    monkeypatch.setattr(panels, "revealed_planet", lambda *a: drawn.append(a[3]) or draw(*a))
    state = game.engine_state()
    submit(game.pk, (alice, bob)[state.to_pick], {"type": "pick", "card": state.pool[0]})
    page(carol, game)
    assert drawn == []  # neither planet is drawn again


def test_a_panel_a_move_leaves_as_it_was_is_not_drawn_again(
    kept_parts, two_player_game, alice, bob, carol, monkeypatch
):
    game = two_player_game
    page(carol, game)
    drawn: list[str] = []
    fertility = panels._fertility
    monkeypatch.setattr(panels, "_fertility", lambda *a: drawn.append("fertility") or fertility(*a))
    state = game.engine_state()
    submit(game.pk, (alice, bob)[state.to_pick], {"type": "pick", "card": state.pool[0]})
    page(carol, game)
    assert drawn == []  # a pick leaves the Fertility Zone as it was


def test_a_panel_kept_for_one_viewer_is_found_by_another_with_the_same_facts(
    kept_parts, two_player_game, carol, monkeypatch
):
    game = two_player_game
    page(carol, game)
    drawn: list[str] = []
    fertility = panels._fertility
    monkeypatch.setattr(panels, "_fertility", lambda *a: drawn.append("fertility") or fertility(*a))
    page(None, game)
    assert drawn == []  # a signed-in watcher and a visitor see the same Fertility Zone


def test_one_score_table_is_drawn_for_every_seat_and_watcher_at_a_table(
    kept_parts, two_player_game, alice, bob, monkeypatch
):
    game = two_player_game
    page(alice, game)
    drawn: list[str] = []
    scores = panels._scores
    monkeypatch.setattr(panels, "_scores", lambda *a: drawn.append("scores") or scores(*a))
    assert viewer_row(page(bob, game)) == "Bob"
    assert viewer_row(page(None, game)) is None
    assert drawn == []  # each page marks its own viewer's row in the table kept


def ranking_form(html: str) -> dict[str, str]:
    """The standing order's form in the pool: its action and token."""
    form = re.search(r'<form method="post" action="([^"]*ranking[^"]*)".*?</form>', html, re.S)
    assert form, "no standing order form"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]*)"', form.group(0))
    assert token, "no token in the standing order form"
    return {"action": form.group(1), "csrfmiddlewaretoken": token.group(1)}


def waiting_player(game: Game, alice: Any, bob: Any) -> Any:
    """The player whose pick has not come: their pool holds the standing order's form."""
    return (bob, alice)[game.engine_state().to_pick]


def test_a_kept_standing_order_pool_is_the_pool_drawn_afresh(
    kept_parts, two_player_game, alice, bob, settings
):
    game, waiting = two_player_game, waiting_player(two_player_game, alice, bob)
    page(waiting, game)
    kept = page(waiting, game)
    assert panels.TOKEN_HOLE not in kept
    settings.GAME_FRAGMENT_CACHE_SECONDS = 0
    assert without_form_values(kept) == without_form_values(page(waiting, game))


def test_a_standing_order_saved_is_shown_at_once_though_no_move_was_made(
    kept_parts, two_player_game, alice, bob
):
    game, waiting = two_player_game, waiting_player(two_player_game, alice, bob)
    wanted = game.engine_state().pool[1]
    assert "ranking-mine" not in page(waiting, game)  # kept without an order
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(waiting)
    form = ranking_form(browser.get(reverse("games:detail", args=[game.pk])).content.decode())
    answer = browser.post(
        form["action"],
        {"csrfmiddlewaretoken": form["csrfmiddlewaretoken"], f"rank_{wanted}": "1"},
    )
    assert answer.status_code == 303, answer.content[:300]
    game.refresh_from_db()
    assert game.moves_count == 0
    mine = re.search(r'<ol class="ranking-mine">.*?</ol>', page(waiting, game), re.S)
    assert mine and mine.group(0).count("<li") == 1


def test_a_standing_order_kept_for_one_player_is_never_shown_to_the_other(
    kept_parts, two_player_game, alice, bob
):
    game, waiting = two_player_game, waiting_player(two_player_game, alice, bob)
    picker = alice if waiting is bob else bob
    page(waiting, game)
    assert 'id="ranking"' not in page(picker, game)


def test_players_waiting_with_different_standing_orders_each_see_their_own(
    kept_parts, alice, bob, carol
):
    game = services.create_game(alice, players=3)
    services.join_game(game.pk, bob)
    services.join_game(game.pk, carol)
    game.refresh_from_db()
    state = game.engine_state()
    users = (alice, bob, carol)
    first, second = (users[k] for k in range(3) if k != state.to_pick)
    page(first, game)  # the pool kept without an order
    page(second, game)
    services.set_standing_order(game.pk, first, [state.pool[1]])
    assert 'class="ranking-mine"' in page(first, game)
    assert 'class="ranking-mine"' not in page(second, game)
    services.set_standing_order(game.pk, second, [state.pool[1]])
    assert 'class="ranking-mine"' in page(second, game)  # the same order: the same pool
