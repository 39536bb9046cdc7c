"""The game flow: set-up, the hidden start placements, the turns, the end and the outcome.

``new_game`` sets a game up from a seed; ``apply`` takes a state and a move and returns
the next state, or raises ``IllegalMove``/``InvalidMove`` and changes nothing.
``apply_unchecked`` is the replay path for moves the engine accepted before: it skips
the checks that only concern who may move now.
"""

from __future__ import annotations

from dataclasses import replace

from games.enginekit.errors import IllegalMove, InvalidMove, RulesError
from games.enginekit.rng import below, seed_state, shuffled

from .edition import BONUS_POTS, DEFAULT_EDITION, GOAL_DECKS, Edition, load_edition
from .home import Home
from .moves import Move, Start, Turn, Wipe, check_shape
from .scoring import Score, score_home
from .state import VARIANTS, GameState, Outcome, Phase, SeatState
from .turns import play_turn, reveal_starts, wipe

MAX_PLAYERS = 5


def edition_of(state: GameState) -> Edition:
    return load_edition(state.edition)


def starting_player(plants: list[str], ed: Edition) -> int:
    """The seat whose plant has the highest requirement; ties: name first, ignoring case (ruling 3)."""
    return min(
        range(len(plants)),
        key=lambda s: (-ed.plants[plants[s]].verdancy, ed.plants[plants[s]].name.casefold()),
    )


def start_thumbs(seat: int, first: int, players: int, ed: Edition) -> int:
    """Green thumbs dealt at set-up (ruling 3)."""
    table = ed.start_thumbs
    if players == 1:
        return table["solo"]
    position = (seat - first) % players
    if position == 0:
        return table["first"]
    return table["last"] if position == players - 1 else table["others"]


def new_game(
    players: int,
    seed: int,
    *,
    edition: str = DEFAULT_EDITION,
    variant: str = "standard",
    goals: bool = False,
) -> GameState:
    """Set up a game of 1 (solo) to 5 players; ``goals`` adds the advanced set-up.

    Raises ``RulesError`` for a player count outside 1-5, an unknown variant or edition.
    """
    if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= MAX_PLAYERS:
        raise RulesError("Verdant is played by 1 to 5 players.", "bad_player_count")
    if variant not in VARIANTS:
        raise RulesError(f"The variant is one of {', '.join(VARIANTS)}.", "bad_variant")
    ed = load_edition(edition)
    rng = seed_state(seed)
    rng, bag = shuffled(rng, ed.tokens())
    rng, plant_deck = shuffled(rng, tuple(ed.plants))
    rng, room_deck = shuffled(rng, tuple(ed.rooms))
    bag_l, plants_l, rooms_l = list(bag), list(plant_deck), list(room_deck)
    columns = ed.market_columns
    market_tokens = tuple(bag_l.pop() for _ in range(columns))
    market_plants = tuple(plants_l.pop() for _ in range(columns))
    market_rooms = tuple(rooms_l.pop() for _ in range(columns))
    chosen_goals: list[str] = []
    if goals:
        for deck in GOAL_DECKS:
            cards = ed.goal_deck(deck)
            rng, k = below(rng, len(cards))
            chosen_goals.append(cards[k])
    start_plants = [plants_l.pop() for _ in range(players)]
    start_rooms = [rooms_l.pop() for _ in range(players)]
    first = starting_player(start_plants, ed)
    family = variant == "family"
    seats = tuple(
        SeatState(
            home=Home.empty(),
            thumbs=0 if family else start_thumbs(seat, first, players, ed),
            start_plant=start_plants[seat],
            start_room=start_rooms[seat],
        )
        for seat in range(players)
    )
    per_type = ed.bonus_pots_by_players[players]
    stack = ["terracotta"] * ed.terracotta
    for pot in reversed(BONUS_POTS):
        stack.extend([pot] * per_type)
    market_pots: tuple[str | None, ...] = ()
    if players == 1:
        market_pots = tuple(stack.pop() for _ in range(columns))
    return GameState(
        edition=ed.name,
        variant=variant,
        goals=tuple(chosen_goals),
        seats=seats,
        phase=Phase.START,
        first=first,
        turn=0,
        plant_deck=tuple(plants_l),
        room_deck=tuple(rooms_l),
        bag=tuple(bag_l),
        market_plants=market_plants,
        market_tokens=market_tokens,
        market_rooms=market_rooms,
        thumbs_plants=(0,) * columns,
        thumbs_rooms=(0,) * columns,
        market_pots=market_pots,
        pot_stack=tuple(stack),
        pot_discard=(),
        card_discard=(),
        box=(),
        rng=rng,
    )


def _check_mover(state: GameState, move: Move) -> None:
    if state.phase is Phase.OVER:
        raise IllegalMove("The game is over: no more moves.", "game_over")
    if not 0 <= move.seat < len(state.seats):
        raise IllegalMove(
            f"There is no seat {move.seat} in this game.", "unknown_seat", {"seat": move.seat}
        )
    if isinstance(move, Start):
        if state.phase is not Phase.START:
            raise IllegalMove("The start placements are over.", "wrong_phase", {"move": "start"})
        if state.seats[move.seat].start_side is not None:
            raise IllegalMove(
                "You have already chosen your start placement.", "start_already_chosen"
            )
        return
    if state.phase is not Phase.PLAY:
        raise IllegalMove(
            "Turns begin once every player has placed their starting plant.",
            "wrong_phase",
            {"move": "turn"},
        )
    if state.to_play != move.seat:
        raise IllegalMove("It is not your turn.", "not_your_turn", {"seat": state.to_play})


def apply(state: GameState, move: Move) -> GameState:
    """Return the state after ``move``.

    Raises ``IllegalMove`` (a stable ``code``, ``params`` and a readable message) when the
    rules do not allow the move here, ``InvalidMove`` when it is not a move; ``state``
    itself is never changed.
    """
    if not isinstance(move, (Start, Wipe, Turn)):
        raise InvalidMove("A move is a Start, a Wipe or a Turn.", "bad_move")
    check_shape(move)
    _check_mover(state, move)
    return apply_unchecked(state, move)


def apply_unchecked(state: GameState, move: Move) -> GameState:
    """Carry out a move already known to come from the right seat at the right time.

    The rules of the move itself are still applied (and may still refuse it).
    """
    ed = edition_of(state)
    if isinstance(move, Start):
        seats = list(state.seats)
        seats[move.seat] = replace(seats[move.seat], start_side=move.side)
        state = replace(state, seats=tuple(seats))
        if all(s.start_side is not None for s in state.seats):
            state = replace(state, seats=reveal_starts(state, ed), phase=Phase.PLAY)
        return state
    if isinstance(move, Wipe):
        return wipe(state, ed, move)
    state = play_turn(state, ed, move)
    if all(s.turns >= ed.turns_per_player for s in state.seats):
        state = replace(state, phase=Phase.OVER)
        state = replace(state, outcome=outcome_of(state, ed))
    return state


def score_seat(state: GameState, seat: int) -> Score:
    """``seat``'s score sheet now (the final score once the game is over)."""
    ed = edition_of(state)
    s = state.seats[seat]
    return score_home(s.home, ed, family=state.family, goals=state.goals, thumbs=s.thumbs)


def outcome_of(state: GameState, ed: Edition) -> Outcome:
    """Scores, ranking (score, then green thumbs: ruling 9) and the solo title."""
    scores = tuple(score_seat(state, seat).total for seat in range(len(state.seats)))
    position = {seat: k for k, seat in enumerate(state.turn_order())}

    def key(seat: int) -> tuple[int, int]:
        return (-scores[seat], -state.seats[seat].thumbs)

    ranking = tuple(sorted(range(len(scores)), key=lambda s: (*key(s), position[s])))
    winners = tuple(s for s in ranking if key(s) == key(ranking[0]))
    title = ed.solo_title(scores[0]) if state.solo else None
    return Outcome(scores, ranking, winners, title)
