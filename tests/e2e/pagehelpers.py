"""Helpers of the accessibility and phone tests: games in a known phase, and a browser
page logged in without the sign-in form (a session made by Django's test client)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from games import services
from games.evergreen import rules
from games.models import Game


def game_of(alice: Any, bob: Any) -> Game:
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


def in_action(state: rules.GameState) -> bool:
    return state.phase is rules.Phase.ACTION and 0 in state.awaiting


def logged_in(
    new_context: Any, site: str, user: Any, *, bypass_csp: bool = False, **options: Any
) -> Page:
    """A page of a new browser context where ``user`` is logged in. ``bypass_csp`` lets
    a test add its own scripts (axe-core); otherwise the Content-Security-Policy holds
    and ``new_context`` fails the test on any violation."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = new_context(bypass_csp=bypass_csp, **options)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": site,
            }
        ]
    )
    return context.new_page()


def acting_with(game: Game, power: str, limit: int = 500) -> Game:
    """Play random moves through the services, seat 0 picking a card of ``power``
    whenever the pool has one, until seat 0 builds a turn with such a card."""
    from games.evergreen.rules.bots import RandomBot
    from games.evergreen.rules.moves import Pick

    bot = RandomBot(0)
    for _ in range(limit):
        game.refresh_from_db()
        state = game.engine_state()
        edition = rules.load_edition(state.edition)
        card = state.seats[0].card
        if in_action(state) and card is not None and edition.cards[card].power == power:
            return game
        assert not state.is_over, f"seat 0 never acted with a {power} card"
        seat = state.awaiting[0]
        move = bot.choose(state, seat)
        if state.phase is rules.Phase.DRAFT and seat == 0:
            wanted = [c for c in state.pool if edition.cards[c].power == power]
            move = Pick(0, wanted[0]) if wanted else move
        services.submit_move(game.pk, game.seats.get(position=seat).user, move)
    raise AssertionError("too many moves")
