"""A learnt judgement of a home in progress: its expected final score, fitted by self-play.

The outlook (``outlook.py``) values a home by its score now plus hand-weighted promises.
``learnt_value`` instead predicts the home's *final* score from a few facts about it
(``FEATURES``: the score's parts so far, the incomplete plants, the rooms without an
item, the item kinds and the types held, green thumbs, the market's tokens), with one
linear model for each number of the seat's turns left: what a new item kind or a bare
room is worth depends on how many turns remain to use it. The weights (``WEIGHTS`` in
``learnt_weights.py``) were fitted by ``learnt_fit`` on solo games of the planner far from
the benchmark's seeds; how is written there and in ``docs/verdant-strong-player.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from .edition import Edition
from .home import Home, is_room
from .learnt_quick import FEATURE_OUTLOOK, market_tokens, quick_prediction
from .learnt_weights import WEIGHTS
from .outlook import NEXT_TO, HomeCells, _bonus_chance, _open_cells, quick_outlook_value
from .policies import final_points
from .scoring import score_home
from .state import GameState, SeatState
from .turns import TurnInProgress

FEATURES: tuple[str, ...] = (
    "one",
    "outlook",  # quick_outlook_value with FEATURE_OUTLOOK
    "plants",  # the score's parts so far
    "pots",
    "rooms",
    "items",
    "bonuses",  # collector + decorator
    "incomplete",  # incomplete plants
    "verdancy",  # verdancy on them
    "need",  # verdancy they still need
    "kinds",  # item kinds held
    "bare",  # rooms without an item
    "room_cards",
    "plant_types",
    "room_types",
    "thumbs",
    "stored",  # an item in storage
    "stored_new",  # ... of a kind the home lacks
    "market_new",  # market tokens of an item kind the home lacks
    "market_nurture",  # nurture tokens in the market
)


def features(seat: SeatState, state: GameState, ed: Edition) -> tuple[float, ...]:
    """The facts ``learnt_value`` weighs, in the order of ``FEATURES``."""
    return home_features(seat.home, seat.thumbs, seat.storage, state, ed, None)


def home_features(
    home: Home,
    held_thumbs: int,
    stored: str | None,
    state: GameState,
    ed: Edition,
    taken: int | None,
) -> tuple[float, ...]:
    """``features`` of a home, its thumbs and stored item, the market's column ``taken``
    left out (a turn being planned has taken its token)."""
    thumbs = min(held_thumbs, ed.max_thumbs)
    score = score_home(home, ed, family=state.family, goals=state.goals, thumbs=held_thumbs)
    incomplete = verdancy = need = bare = room_cards = 0
    kinds: set[str] = set()
    plant_types: set[str] = set()
    room_types: set[str] = set()
    for i, card in enumerate(home.cards):
        if card is None:
            continue
        if is_room(card):
            room_cards += 1
            room_types.add(ed.rooms[card].type)
            item = home.items[i]
            if item is None:
                bare += 1
            else:
                kinds.add(item)
            continue
        plant = ed.plants[card]
        plant_types.add(plant.type)
        if not home.completed[i]:
            incomplete += 1
            verdancy += home.verdancy[i]
            need += plant.verdancy - home.verdancy[i]
    outlook = quick_outlook_value(home, held_thumbs, state, ed, FEATURE_OUTLOOK)
    return _row(
        (outlook, score.plants, score.pots, score.rooms, score.items),
        score.collector + score.decorator,
        (incomplete, verdancy, need, bare, room_cards, thumbs),
        (kinds, plant_types, room_types),
        stored,
        state,
        ed,
        taken,
    )


def _row(
    parts: tuple[float, int, int, int, int],
    bonuses: int,
    counts: tuple[int, int, int, int, int, int],
    held: tuple[set[str], set[str], set[str]],
    stored: str | None,
    state: GameState,
    ed: Edition,
    taken: int | None,
) -> tuple[float, ...]:
    """The features in the order of ``FEATURES`` (written once for both ways of counting
    them): ``parts`` the outlook and the score's parts so far, ``counts`` the incomplete
    plants, their verdancy and need, bare rooms, room cards and thumbs, ``held`` the item
    kinds, plant types and room types; the market's tokens are counted here."""
    outlook, plants, pots, rooms, items = parts
    incomplete, verdancy, need, bare, room_cards, thumbs = counts
    kinds, plant_types, room_types = held
    market_new, market_nurture = market_tokens(state, ed, kinds, taken)
    return (
        1.0,
        outlook,
        float(plants),
        float(pots),
        float(rooms),
        float(items),
        float(bonuses),
        float(incomplete),
        float(verdancy),
        float(need),
        float(len(kinds)),
        float(bare),
        float(room_cards),
        float(len(plant_types)),
        float(len(room_types)),
        float(thumbs),
        float(stored is not None),
        float(stored is not None and ed.is_item(stored) and stored not in kinds),
        float(market_new),
        float(market_nurture),
    )


def turn_value(tp: TurnInProgress) -> float:
    """The learnt value of a turn being planned, as the home will stand after it (the
    item left over stored, the market without the token taken); exact on the last turn."""
    state, ed = tp.state, tp.ed
    left = ed.turns_per_player - tp.seat.turns - 1
    if left <= 0 or state.family or state.goals or not WEIGHTS:
        return final_points(tp.home.freeze(), tp.thumbs, state, ed)
    stored = tp.available[-1] if tp.available else None
    weights = WEIGHTS[min(left, len(WEIGHTS)) - 1]
    return quick_prediction(weights, tp.home, tp.thumbs, stored, state, ed, tp.move.token)


def quick_features(
    home: HomeCells,
    held_thumbs: int,
    stored: str | None,
    state: GameState,
    ed: Edition,
    taken: int | None,
) -> tuple[float, ...]:
    """``home_features`` in one pass over the home, equal to it (a test checks), for a
    game without goal cards or the family variant: the planner values every step so."""
    cards = home.cards
    occupied = [i for i, card in enumerate(cards) if card is not None]
    left = ed.rows * ed.columns - len(occupied)
    empty = _open_cells(cards, occupied, ed.rows, ed.columns) if occupied and left > 0 else set()
    verdancy_of, completed, items = home.verdancy, home.completed, home.items
    plants_of, rooms_of, look = ed.plants, ed.rooms, FEATURE_OUTLOOK
    thumbs = min(held_thumbs, ed.max_thumbs)
    plant_points = pots = rooms = incomplete = verdancy = need = bare = room_cards = 0
    progress = promise = 0.0
    kinds: set[str] = set()
    plant_types: set[str] = set()
    room_types: set[str] = set()
    for i in occupied:
        card = cards[i]
        assert card is not None
        if card[0] == "P":
            plant = plants_of[card]
            plant_types.add(plant.type)
            if completed[i]:
                plant_points += plant.points
                placed = home.pots[i]
                if placed is not None:
                    pots += ed.pot_values[placed]
                continue
            incomplete += 1
            verdancy += verdancy_of[i]
            need += plant.verdancy - verdancy_of[i]
            progress += verdancy_of[i] * max(0.5, 0.5 * (plant.points + look.pot) / plant.verdancy)
            continue
        room = rooms_of[card]
        room_cards += 1
        room_types.add(room.type)
        item = items[i]
        per_plant = 1
        if item is None:
            bare += 1
        else:
            kinds.add(item)
            if ed.items[item].color == room.type:
                per_plant = 2
        beside = 0
        for j in NEXT_TO[i]:
            other = cards[j]
            if other is None:
                beside += j in empty
            elif other[0] == "P" and plants_of[other].type == room.type:
                rooms += per_plant
        promise += beside * look.room * per_plant
    table = ed.item_score
    item_points = table[min(len(kinds), len(table) - 1)]
    types = len(ed.plant_types)
    bonuses = ed.collector_bonus * (len(plant_types) == types)
    bonuses += ed.decorator_bonus * (len(room_types) == types)
    if empty:
        slots = left / 2.0
        promise += (
            ed.collector_bonus * look.collector * _bonus_chance(types - len(plant_types), slots)
        )
        promise += (
            ed.decorator_bonus * look.decorator * _bonus_chance(types - len(room_types), slots)
        )
    settled = plant_points + pots + rooms + item_points + bonuses
    outlook = look.thumb * thumbs + settled + progress + promise
    return _row(
        (outlook, plant_points, pots, rooms, item_points),
        bonuses,
        (incomplete, verdancy, need, bare, room_cards, thumbs),
        (kinds, plant_types, room_types),
        stored,
        state,
        ed,
        taken,
    )


def predict(weights: Sequence[float], found: Sequence[float]) -> float:
    """The linear model's value: the weights times the features."""
    return sum(w * f for w, f in zip(weights, found, strict=True))


def learnt_value(state: GameState, seat: int, ed: Edition) -> float:
    """The seat's expected final score: exact once it has played all its turns."""
    s = state.seats[seat]
    left = ed.turns_per_player - s.turns
    if left <= 0 or state.family or state.goals or not WEIGHTS:
        return final_points(s.home, s.thumbs, state, ed)
    weights = WEIGHTS[min(left, len(WEIGHTS)) - 1]
    return predict(weights, features(s, state, ed))


__all__ = [
    "FEATURES",
    "FEATURE_OUTLOOK",
    "features",
    "home_features",
    "learnt_value",
    "predict",
    "quick_features",
    "turn_value",
]
