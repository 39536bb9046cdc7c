"""What the home page shows of Evergreen: a real game between two computer players,
played to its end from a fixed seed (so every visitor and every test sees the same
planets), and a few of the cards a player drafts.

The game is played once per process (well under a second) and kept; only its drawing
depends on the reader's language.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import rules
from .cards import CardInfo, card_info
from .planets import Planet, planets
from .rules.selfplay import play_bot_game
from .rules.view import player_view

SEED = 2026  # a game whose winner's planet has trees in every biome, lakes and a forest
PLAYERS = ("Tomas", "Mira")  # names, the same in every language (and no English words)
# One card of each kind of icon: one and two Fertility icons, Aridity, Wild.
SAMPLE_CARDS = ("snow/sprout", "rock/lake", "grassland/big", "wild/bud")


@cache
def demo_game() -> rules.GameState:
    """The finished demo game (deterministic: the seed fixes deck, bots and moves)."""
    state, _moves = play_bot_game(len(PLAYERS), SEED, "greedy")
    return state


def showcase_context() -> dict[str, Any]:
    """The winner's planet, the final scores, the sample cards (``_showcase.html``)."""
    state = demo_game()
    edition = rules.load_edition(state.edition)
    view = player_view(state, None)
    drawn: list[Planet] = planets(edition, view, PLAYERS)
    ranking = state.outcome.ranking if state.outcome is not None else tuple(range(len(PLAYERS)))
    winner = drawn[ranking[0]]
    scores = [(PLAYERS[seat], state.seats[seat].score) for seat in ranking]
    cards: list[CardInfo] = [card_info(edition, card) for card in SAMPLE_CARDS]
    return {"showcase_planet": winner, "showcase_scores": scores, "showcase_cards": cards}
