"""Evergreen's planets and panels kept for every game alike (games/evergreen/panels.py,
``fragments.shared_key``): each is kept under a digest of all it is drawn from, with a
hole for each seat's name that every page fills. The keys are checked against the
drawings themselves: a fact that changes a drawing must change its key, or one game's
drawing would be shown at another table."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games import fragments, services
from games.evergreen import panels, rules
from games.evergreen.rules.bots import RandomBot
from games.evergreen.rules.view import player_view
from games.models import Game
from tests.games.gamehelpers import client_for
from tests.viewswaps import swapped

NAMES = ["Alice", "Bob", "Carol", "Dan"]
EDITION = rules.load_edition(rules.DEFAULT_EDITION)


def states(players: int, seed: int, every: int) -> Iterator[rules.GameState]:
    """The states of a game the random bot plays to its end, one in ``every`` moves."""
    state = rules.new_game(players, seed=seed)
    bot = RandomBot(seed)
    for count in itertools.count():
        if count % every == 0:
            yield state
        if state.is_over:
            return
        state = rules.apply(state, bot.choose(state, state.awaiting[0]))


def views(players: int, seed: int, every: int) -> Iterator[dict[str, Any]]:
    for state in states(players, seed, every):
        for seat in [None, *range(players)]:
            yield player_view(state, seat)


def shared_parts(view: dict[str, Any], focus: int) -> dict[str, fragments.Part]:
    """Every part of the page kept for all games, by name, for a view with ``focus``."""
    parts = {part.name: part for part in panels.panel_parts(EDITION, view, focus).values()}
    parts["pool"] = panels.still_pool_part(EDITION, view)
    for k, size in itertools.product(range(len(view["seats"])), ("large", "medium")):
        part = panels.revealed_part(EDITION, view, k, size)
        parts[part.name] = part
    return parts


def key_of(part: fragments.Part) -> str:
    assert part.shared and part.made_from is not None
    return fragments.shared_key(part.name, part.eyes, part.made_from)


def drawn_with_names(view: dict[str, Any], focus: int, name: str, names: list[str]) -> str:
    """A part drawn straight from ``view`` with ``names``, as before it was kept."""
    if name == "panel-powers":
        return panels._powers(EDITION, view, names, focus)
    if name == "panel-fertility":
        return panels._fertility(EDITION, view)
    if name == "panel-scores":
        return panels._scores(EDITION, view, names)
    if name == "pool":
        return panels._pool(EDITION, view)
    k, size = name.split("-")[1:]
    return panels._planet_html(panels.revealed_planet(EDITION, view, names, int(k)), size)


@pytest.fixture
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


def test_no_key_names_two_drawings(english):
    drawn: dict[str, tuple[str, ...]] = {}
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for view in views(players, seed, every=7):
            for focus in range(players):
                for part in shared_parts(view, focus).values():
                    made = part.make()
                    assert drawn.setdefault(key_of(part), made) == made, part.name


@pytest.mark.parametrize("players", [2, 4])
def test_every_fact_a_drawing_reads_is_in_its_key(english, players):
    # Views far apart (a new game, the middle, the end) and of different viewers.
    far = list(states(players, seed=players, every=1))
    picked = [far[0], far[len(far) // 3], far[2 * len(far) // 3], far[-1]]
    pairs = [
        (player_view(a, 0), player_view(b, players - 1))
        for a, b in itertools.permutations(picked, 2)
    ]
    checked = 0
    for view, other in pairs:
        for focus in range(players):
            before = {name: (key_of(p), p.make()) for name, p in shared_parts(view, focus).items()}
            for changed in swapped(view, other):
                try:
                    after = shared_parts(changed, focus)
                    drawings = {name: (key_of(p), p.make()) for name, p in after.items()}
                except (KeyError, IndexError, TypeError, ValueError):
                    continue  # a mix of two views that no drawing can read
                for name, (key, made) in drawings.items():
                    if made != before[name][1]:
                        checked += 1
                        assert key != before[name][0], f"{name}: a fact it reads is not in its key"
    assert checked > 100  # the swaps changed drawings


def test_a_part_drawn_with_holes_and_filled_is_the_part_drawn_with_the_names(english):
    names = ["<b>Ann</b> & 'Bo'", "evergreen-seat-0-name-hole", "Zoë", "Dan"]
    for view in views(4, seed=5, every=11):
        for focus in range(4):
            for name, part in shared_parts(view, focus).items():
                if name == "pool":
                    continue  # no name in it: no hole
                filled = panels.with_names(part.make(), names)
                assert filled == drawn_with_names(view, focus, name, names), name


def test_a_name_is_never_left_a_hole_nor_another_seats_name(english):
    names = ["evergreen-seat-1-name-hole", "Bob"]
    view = player_view(rules.new_game(2, seed=1), 0)
    scores = panels.with_names(panels.panel_parts(EDITION, view, 0)["scores"].make(), names)
    assert scores.count("evergreen-seat-1-name-hole") == 1 and scores.count("Bob") == 1


def new_table(users: list[Any]) -> Game:
    game = services.create_game(users[0], players=len(users))
    for user in users[1:]:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game


def test_a_new_table_finds_its_planets_and_panels_drawn_at_another(
    kept_parts, django_user_model, monkeypatch
):
    # Both dealt from one seed: the scores panel shows who plays first, which a random
    # deal may make differ between two tables (then it is rightly drawn again).
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 4242)
    first = [django_user_model.objects.create_user(f"first-{k}") for k in range(2)]
    second = [django_user_model.objects.create_user(f"second-{k}") for k in range(2)]
    first_game, second_game = new_table(first), new_table(second)
    for user in first:
        client_for(user).get(reverse("games:detail", args=[first_game.pk]))
    drawn: list[str] = []
    for name in ("revealed_planet", "_powers", "_scores"):
        draw = getattr(panels, name)
        monkeypatch.setattr(
            panels, name, lambda *a, draw=draw, name=name: drawn.append(name) or draw(*a)
        )
    for user, rival in zip(second, reversed(second), strict=True):
        html = client_for(user).get(reverse("games:detail", args=[second_game.pk])).content.decode()
        assert user.player.display_name in html and rival.player.display_name in html
        assert "name-hole" not in html
        assert not {p.player.display_name for p in first} & set(html.split(">"))
    assert drawn == []
