"""What one seat can know of the hidden cards and of the shared supply.

The strong player reads a ``GameState`` only through these functions and the seat's
own fields, so it never uses the deck order, the generator state nor another seat's
unrevealed turn: the cards it cannot see are the edition's cards minus every card in
sight (Fertility Zone, discard pile, pool, the cards in front of every drafter), in the
edition's order, never the deck's.
"""

from __future__ import annotations

from collections import Counter

from .edition import POWERS, Edition
from .planet import BIOMES
from .state import GameState

# What an unseen Aridity card is expected to take from its biome when it is cleaned up.
ARIDITY_LOSS = 1.0


def public_supply(state: GameState, seat: int, ed: Edition) -> tuple[int, int]:
    """Bushes and Lakes ``seat`` can be sure to get.

    The view shows the supply without what others' hidden turns took; a seat that has
    submitted with a Bush or Lake card may have taken up to its Power's level (its card
    and tracks are public), so that much is kept back: a turn within this is never
    refused for an empty supply.
    """
    bushes, lakes = state.supply
    for index, other in enumerate(state.seats):
        if index == seat or other.turn is None:
            continue
        used_bushes, used_lakes = other.turn.supply_used()
        bushes += used_bushes
        lakes += used_lakes
        assert other.card is not None
        power = ed.cards[other.card].power
        if power in ("bush", "lake"):
            position = other.powers[POWERS.index(power)]
            most = ed.power_value(power, min(position + 1, len(ed.power_levels[power])))
            if power == "bush":
                bushes -= most
            else:
                lakes -= most
    return max(0, bushes), max(0, lakes)


def unseen_cards(state: GameState, ed: Edition) -> tuple[str, ...]:
    """Cards in the deck, in no order the seat could know (the edition's card order)."""
    seen: Counter[str] = Counter()
    for stack in state.fertility_zone:
        seen.update(card for card, _ in stack)
    seen.update(state.discard)
    seen.update(state.pool)
    seen.update(state.ai_cards)
    for other in state.seats:
        seen.update(other.season_cards)
    unseen = []
    for card in ed.card_order:
        if seen[card]:
            seen[card] -= 1
        else:
            unseen.append(card)
    return tuple(unseen)


def unseen_fertility(ed: Edition, unseen: tuple[str, ...]) -> dict[str, float]:
    """Per biome: the net Fertility icons an unseen card brings on average."""
    if not unseen:
        return dict.fromkeys(BIOMES, 0.0)
    net = dict.fromkeys(BIOMES, 0.0)
    for card_id in unseen:
        card = ed.cards[card_id]
        if card.fertility:
            net[card.suit] += card.fertility
        elif card.aridity:
            net[card.suit] -= ARIDITY_LOSS
    return {biome: total / len(unseen) for biome, total in net.items()}
