"""Verdant's market, homes and score table kept for every game alike
(games/verdant/parts.py): each under a digest of what it is drawn from of the viewer's
view. A fact that changes a drawing must change its key, or one viewer's or one table's
drawing would be shown to another; the pages drawn with the parts kept must be the pages
drawn afresh, for every viewer after every move."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games import fragments, kinds
from games.models import Game
from games.verdant import parts, rules
from tests.games.gamehelpers import submit
from tests.viewswaps import swapped

from .verdant_site_helpers import client_for, make_user, play_moves, user_at

NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve"]
EDITION = rules.load_edition()


def states(players: int, seed: int, every: int) -> Iterator[rules.GameState]:
    """The states of a game the random computer player plays to its end, one in ``every``
    moves (through the registry, as the site plays it)."""
    kind = kinds.get("verdant")
    state = kind.advance(kind.new_game(kinds.Setup(players, seed, kind.check_setup(players, {}))))
    for number in itertools.count():
        if number % every == 0:
            yield state
        if kind.is_over(state):
            return
        seat = kind.awaiting(state)[0]
        state = kind.advance(kind.apply(state, kind.bot_move("random", state, seat, number)))


def views(players: int, seed: int, every: int) -> Iterator[dict[str, Any]]:
    for state in states(players, seed, every):
        for seat in [None, *range(players)]:
            yield rules.player_view(state, seat)


def key_of(part: fragments.Part) -> str:
    assert part.shared and part.made_from is not None
    return fragments.shared_key(part.name, part.eyes, part.made_from)


def board_parts(view: dict[str, Any], names: list[str] = NAMES) -> dict[str, fragments.Part]:
    return parts.board_parts(EDITION, view, names[: len(view["seats"])], {})[0]


@pytest.fixture
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


def test_no_key_names_two_drawings(english: None) -> None:
    drawn: dict[str, str] = {}
    for players, seed in ((2, 1), (3, 2), (5, 3)):
        for view in views(players, seed, every=5):
            for name, part in board_parts(view).items():
                made = part.make()
                assert drawn.setdefault(key_of(part), made) == made, name
    assert len(drawn) > 100


@pytest.mark.parametrize("players", [2, 4])
def test_every_fact_a_drawing_reads_is_in_its_key(english: None, players: int) -> None:
    # Views far apart (the start, the middle, the end) and of different viewers.
    far = list(states(players, seed=players, every=1))
    picked = [far[0], far[1], far[len(far) // 2], far[-1]]
    pairs = [
        (rules.player_view(a, 0), rules.player_view(b, players - 1))
        for a, b in itertools.permutations(picked, 2)
    ]
    checked = 0
    for view, other in pairs:
        before = {name: (key_of(p), p.make()) for name, p in board_parts(view).items()}
        for changed in swapped(view, other):
            try:
                drawings = {name: (key_of(p), p.make()) for name, p in board_parts(changed).items()}
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                continue  # a mix of two views that no drawing can read
            for name, (key, made) in drawings.items():
                if made != before[name][1]:
                    checked += 1
                    assert key != before[name][0], f"{name}: a fact it reads is not in its key"
    assert checked > 50  # the swaps changed drawings


def headings(html: str) -> list[str]:
    return re.findall(r"<h3>(.*?)</h3>", html)


def test_a_kept_home_shows_whose_turn_it_is_where_the_turn_is(english: None) -> None:
    names = ["<!--to-play--> Ann", "Bob"]  # a name that holds the hole, escaped
    for view in views(2, seed=4, every=3):
        found_parts = parts.board_parts(EDITION, view, names, {})[0]
        for n in range(2):
            home = parts.with_turn(found_parts[f"home-{n}"].make(), view, n)
            heading = re.search(r"<h3>(.*?)</h3>", home)
            assert heading is not None
            assert ("▶" in heading.group(1)) == (n == view.get("to_play"))
            assert "<!--to-play-->" not in home  # filled, and never in the name
            assert n == 1 or "&lt;!--to-play--&gt; Ann" in heading.group(1)


# A page's own values: the CSRF token (masked anew for each page) and its moves' key.
OWN = re.compile(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"|[0-9a-f]{32}')


def page(user: Any, game: Game, **query: str) -> str:
    html = client_for(user).get(reverse("games:detail", args=[game.pk]), query).content.decode()
    return OWN.sub("", html)


@pytest.mark.slow
def test_every_page_drawn_with_parts_kept_is_the_page_drawn_afresh(
    kept_parts: Any, settings: Any, verdant_game: Game
) -> None:
    carol = make_user("carol")
    viewers = [user_at(verdant_game, 0), user_at(verdant_game, 1), carol, None]
    pages = 0
    for _ in range(60):
        verdant_game.refresh_from_db()
        kept = [page(user, verdant_game) for user in viewers]
        settings.GAME_FRAGMENT_CACHE_SECONDS = 0
        afresh = [page(user, verdant_game) for user in viewers]
        settings.GAME_FRAGMENT_CACHE_SECONDS = 3600
        assert kept == afresh
        pages += len(kept)
        if verdant_game.engine_state().is_over:
            break
        state = verdant_game.engine_state()
        seat = state.awaiting[0]
        move = rules.make_bot("random", seed=pages).choose(state, seat)
        submit(verdant_game.pk, user_at(verdant_game, seat), move)
    assert verdant_game.engine_state().is_over and pages > 40


def test_a_home_with_the_cells_offered_for_a_turn_is_never_kept(
    kept_parts: Any, verdant_game: Game
) -> None:
    game = play_moves(verdant_game, lambda s: s.phase is rules.Phase.PLAY)
    state = game.engine_state()
    me, other = state.to_play, 1 - state.to_play
    pick = rules.legal_selections(state, me, EDITION)[0]
    building = page(user_at(game, me), game, turn=f"{pick.take}-{pick.column}-{pick.token}")
    assert "verdant-offer" in building  # the cells offered, as links carrying the turn

    for user in (user_at(game, other), None, user_at(game, me)):
        assert "verdant-offer" not in page(user, game)
