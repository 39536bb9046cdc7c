"""The moves made for a seat without its player: the one a passed deadline makes
(``timeout_move``) and the Draft's standing orders (a ranking of the pool's cards,
checked when given and played at the seat's pick)."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.kinds import Refusal

from . import rules
from .rules.bots import make_bot


def timeout_move(
    state: rules.GameState,
    seat: int,
    policy: str,
    seed: int,
    order: Sequence[str],
    bot: str,
) -> rules.Move:
    """The move made when the seat's deadline passes: ``bot``'s under the "bot" policy,
    else the smallest legal move (the first ranked card still in the pool, else the
    leftmost; Action D with no effect and no Power)."""
    if policy == "bot":
        return make_bot(bot, seed).choose(state, seat)
    if state.phase is rules.Phase.DRAFT:
        card = standing_move(state, seat, order)
        return card if card is not None else rules.Pick(seat, state.pool[0])
    return rules.Turn(seat, "D")


def standing_move(state: rules.GameState, seat: int, order: Sequence[str]) -> rules.Move | None:
    """The pick the standing order makes now, if any of its cards is still in the pool."""
    if state.phase is not rules.Phase.DRAFT:
        return None
    card = next((card for card in order if card in state.pool), None)
    return rules.Pick(seat, card) if card is not None else None


def check_standing_order(state: rules.GameState, seat: int, order: Sequence[str]) -> None:
    """Raises ``Refusal`` for a ranking that cannot be a standing order now."""
    if state.phase is not rules.Phase.DRAFT:
        raise Refusal(
            "not_drafting",
            _("Cards can be ranked only while the pool is being drafted."),
            conflict=True,
        )
    if state.seats[seat].card is not None:
        raise Refusal(
            "already_picked",
            _("You have already picked your card this round."),
            conflict=True,
        )
    if len(set(order)) != len(order):
        raise Refusal("duplicate_card", _("Rank each card at most once."))
    for card in order:
        if card not in state.pool:
            raise Refusal(
                "card_not_in_pool",
                _("The card %(card)s is not in the drafting pool.") % {"card": card},
            )
