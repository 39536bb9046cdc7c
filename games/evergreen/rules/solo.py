"""Solo mode: the A.I. drafter's priorities and the title table.

The A.I. takes, in order: a Wild card; else the card with most Fertility icons; else
the Aridity card whose biome shows the fewest Fertility icons in the Fertility Zone;
else the leftmost card. Ties go to the leftmost card (edition ruling 15).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .edition import Edition
from .planet import WILD


def ai_choice(pool: Sequence[str], edition: Edition, fertility: Mapping[str, int]) -> str:
    """The card the A.I. drafter takes from ``pool`` (left to right, non-empty)."""
    cards = [edition.cards[c] for c in pool]
    for card in cards:
        if card.suit == WILD:
            return card.id
    most = max(card.fertility for card in cards)
    if most > 0:
        return next(card.id for card in cards if card.fertility == most)
    arid = [card for card in cards if card.aridity]
    if arid:
        least = min(fertility.get(card.suit, 0) for card in arid)
        return next(card.id for card in arid if fertility.get(card.suit, 0) == least)
    return cards[0].id
