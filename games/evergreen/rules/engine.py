"""The game flow: setup, Draft, Action phase, end of round, end of season, end of game.

``new_game`` sets a game up from a seed; ``apply`` takes a state and a move and returns
the next state, or raises ``IllegalMove``/``InvalidMove`` and changes nothing. After a
move the engine carries out everything that needs no player: the A.I. drafter's picks,
the clean-up, revealing the round when every turn is in, season scoring and the next
round's pool. ``apply(..., advance=False)`` stops short of that, for a caller (a Celery
task) that wants to close the round itself with ``advance``.
"""

from __future__ import annotations

from dataclasses import replace

from games.enginekit.errors import IllegalMove, InvalidMove, RulesError
from games.enginekit.rng import below, seed_state, shuffled

from .edition import DEFAULT_EDITION, POWERS, Edition, load_edition
from .moves import Move, Pick, Turn
from .pieces import EMPTY
from .planet import BIOMES, SUNS, next_sun
from .scoring import biggest_forest, fertility_score, light_score
from .solo import ai_choice
from .state import GameState, Outcome, Phase, SeasonScore, SeatState
from .turns import execute_turn

MAX_PLAYERS = 4


def edition_of(state: GameState) -> Edition:
    return load_edition(state.edition)


def new_game(
    players: int, seed: int, *, edition: str = DEFAULT_EDITION, sun: str = "N"
) -> GameState:
    """Set up a game for 1 (solo against the A.I. drafter) to 4 players.

    Raises ``RulesError`` for a player count outside 1-4, an unknown Sun or edition.
    """
    if not isinstance(players, int) or not 1 <= players <= MAX_PLAYERS:
        raise RulesError("Evergreen is played by 1 to 4 players.", "bad_player_count")
    if sun not in SUNS:
        raise RulesError("The Sun starts at N, E, S or W.", "bad_sun")
    ed = load_edition(edition)
    rng = seed_state(seed)
    rng, deck_order = shuffled(rng, ed.card_order)
    deck = list(deck_order)
    revealed: list[str] = []
    icons = 0
    while icons < ed.setup_fertility_icons and deck:
        card = deck.pop()
        revealed.append(card)
        icons += ed.cards[card].fertility
    zone: list[list[tuple[str, bool]]] = [[] for _ in BIOMES]
    back = []
    for card in revealed:
        info = ed.cards[card]
        if info.fertility:
            zone[BIOMES.index(info.suit)].append((card, True))
        else:
            back.append(card)
    rng, new_deck = shuffled(rng, deck + back)
    solo = players == 1
    drafters = players + 1 if solo else players
    rng, first = below(rng, drafters)
    empty_board = tuple(EMPTY for _ in range(ed.planet.size))
    seats = []
    for seat in range(players):
        points = ed.setup_points[(seat - first) % drafters]
        seats.append(
            SeatState(
                board=empty_board,
                powers=tuple(0 for _ in POWERS),
                score=points,
                setup_points=points,
                seasons=(SeasonScore(1),),
            )
        )
    state = GameState(
        edition=ed.name,
        seats=tuple(seats),
        solo=solo,
        phase=Phase.DRAFT,
        season=1,
        round=1,
        sun=sun,
        deck=new_deck,
        discard=(),
        pool=(),
        fertility_zone=tuple(tuple(stack) for stack in zone),
        first=first,
        next_first=first,
        token_card=None,
        picks_done=0,
        ai_cards=(),
        supply=(ed.supply["bush"], ed.supply["lake"]),
        rng=rng,
        submitted=(),
    )
    return advance(_start_round(state, ed))


def apply(state: GameState, move: Move, *, advance_state: bool = True) -> GameState:
    """Return the state after ``move``.

    Raises ``IllegalMove`` (a stable ``code`` and a readable message) when the rules do
    not allow the move here, ``InvalidMove`` when it is malformed; ``state`` itself is
    never changed.
    """
    _check_not_over(state)
    if isinstance(move, Pick):
        new_state = _pick(state, move)
    elif isinstance(move, Turn):
        new_state = _submit(state, move)
    else:
        raise InvalidMove("A move is a Pick or a Turn.", "bad_move")
    return advance(new_state) if advance_state else new_state


def needs_advance(state: GameState) -> bool:
    """True when the engine has work to do that waits for no player."""
    if state.phase is Phase.DRAFT:
        return _draft_complete(state) or state.to_pick == state.ai
    if state.phase is Phase.ACTION:
        return not state.awaiting
    return False


def round_complete(state: GameState) -> bool:
    """True when every turn of the round is in and only revealing it remains."""
    return state.phase is Phase.ACTION and not state.awaiting


def advance(state: GameState, *, close_round: bool = True) -> GameState:
    """Carry out every step that needs no player (idempotent: a settled state is returned as is).

    With ``close_round=False`` it stops when every turn of a round is in, leaving the
    reveal (and what follows it: season scoring, the next pool) to a later ``advance``.
    """
    ed = edition_of(state)
    while True:
        if state.phase is Phase.DRAFT:
            if _draft_complete(state):
                state = _clean_up(state, ed)
            elif state.ai is not None and state.to_pick == state.ai:
                card = ai_choice(state.pool, ed, fertility_values(state, ed))
                state = _take(state, state.ai, card)
            else:
                return state
        elif state.phase is Phase.ACTION and not state.awaiting and close_round:
            state = _resolve_round(state, ed)
        else:
            return state


def fertility_values(state: GameState, ed: Edition | None = None) -> dict[str, int]:
    """Visible Fertility icons per biome in the Fertility Zone."""
    cards = (ed or edition_of(state)).cards
    return {
        biome: sum(cards[c].fertility for c, up in stack if up)
        for biome, stack in zip(BIOMES, state.fertility_zone, strict=True)
    }


# --- Draft ---------------------------------------------------------------------------


def _check_not_over(state: GameState) -> None:
    if state.phase is Phase.OVER:
        raise IllegalMove("The game is over: no more moves.", "game_over")


def check_turn_allowed(state: GameState, seat: int) -> None:
    """Raise ``IllegalMove`` when ``seat`` may play no turn at all now, whatever the turn:
    the game is over, it is not the Action phase, the seat has no card or has played."""
    _check_not_over(state)
    _check_seat(state, seat)
    if state.phase is not Phase.ACTION:
        raise IllegalMove(
            "Turns are played after the Draft: wait until every card is picked.",
            "wrong_phase",
            {"move": "turn"},
        )
    if state.seats[seat].card is None:
        raise IllegalMove("You have no card this round, so you have no turn.", "no_card")
    if state.seats[seat].turn is not None:
        raise IllegalMove("You have already played your turn this round.", "turn_already_submitted")


def _check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < len(state.seats):
        raise IllegalMove(f"There is no seat {seat} in this game.", "unknown_seat", {"seat": seat})


def _pick(state: GameState, move: Pick) -> GameState:
    _check_seat(state, move.seat)
    if state.phase is not Phase.DRAFT:
        raise IllegalMove(
            "Cards are picked during the Draft; now every player plans a turn.",
            "wrong_phase",
            {"move": "pick"},
        )
    if state.to_pick != move.seat:
        raise IllegalMove("It is not your pick: wait for the players before you.", "not_your_turn")
    if move.card not in state.pool:
        raise IllegalMove(
            f"The card {move.card} is not in the drafting pool.",
            "card_not_in_pool",
            {"card": move.card[:40]},
        )
    return _take(state, move.seat, move.card)


def _take(state: GameState, drafter: int, card: str) -> GameState:
    pool = list(state.pool)
    pool.remove(card)
    next_first, token = state.next_first, state.token_card
    if card == token:
        next_first, token = drafter, None
    if state.picks_done == 0:
        # The first player puts the token on the leftmost card left (nearest the deck).
        token = pool[0] if pool else None
    seats, ai_cards = state.seats, state.ai_cards
    if drafter == state.ai:
        ai_cards = (*ai_cards, card)
    else:
        seat = seats[drafter]
        seat = replace(seat, card=card, season_cards=(*seat.season_cards, card))
        seats = (*seats[:drafter], seat, *seats[drafter + 1 :])
    return replace(
        state,
        seats=seats,
        ai_cards=ai_cards,
        pool=tuple(pool),
        token_card=token,
        next_first=next_first,
        picks_done=state.picks_done + 1,
    )


def _draft_complete(state: GameState) -> bool:
    return state.picks_done >= state.drafters or not state.pool


def _clean_up(state: GameState, ed: Edition) -> GameState:
    """Unchosen cards: Fertility to the zone, Aridity flips, the rest to the discard."""
    zone = [list(stack) for stack in state.fertility_zone]
    discard = list(state.discard)
    for card in state.pool:
        info = ed.cards[card]
        if info.fertility:
            zone[BIOMES.index(info.suit)].append((card, True))
        elif info.aridity:
            stack = zone[BIOMES.index(info.suit)]
            for k in range(len(stack) - 1, -1, -1):
                flipped, up = stack[k]
                if up and ed.cards[flipped].fertility:
                    stack[k] = (flipped, False)
                    break
            stack.append((card, True))
        else:
            discard.append(card)
    return replace(
        state,
        phase=Phase.ACTION,
        pool=(),
        token_card=None,
        fertility_zone=tuple(tuple(stack) for stack in zone),
        discard=tuple(discard),
        submitted=(),
    )


# --- Action phase ----------------------------------------------------------------------


def _submit(state: GameState, turn: Turn) -> GameState:
    check_turn_allowed(state, turn.seat)
    seat = state.seats[turn.seat]
    assert seat.card is not None
    ed = edition_of(state)
    execute_turn(ed, seat.board, seat.powers, ed.cards[seat.card], turn, state.supply)
    bushes, lakes = turn.supply_used()
    seats = (*state.seats[: turn.seat], replace(seat, turn=turn), *state.seats[turn.seat + 1 :])
    return replace(
        state,
        seats=seats,
        supply=(state.supply[0] - bushes, state.supply[1] - lakes),
        submitted=(*state.submitted, turn.seat),
    )


def _resolve_round(state: GameState, ed: Edition) -> GameState:
    """Reveal every turn, in the order they arrived, then end the round."""
    seats = list(state.seats)
    for index in state.submitted:
        seat = seats[index]
        assert seat.turn is not None and seat.card is not None
        board, powers, bud = execute_turn(
            ed, seat.board, seat.powers, ed.cards[seat.card], seat.turn, None
        )
        season = seat.seasons[-1]
        seats[index] = replace(
            seat,
            board=board,
            powers=powers,
            score=seat.score + bud,
            seasons=(*seat.seasons[:-1], replace(season, bud=season.bud + bud)),
            card=None,
            turn=None,
        )
    for index, seat in enumerate(seats):
        if seat.card is not None:  # defensive: a seat with a card always submitted
            seats[index] = replace(seat, card=None, turn=None)
    state = replace(state, seats=tuple(seats), submitted=())
    if state.round >= ed.season_rounds[state.season - 1]:
        return _end_season(state, ed)
    return _start_round(replace(state, round=state.round + 1), ed)


def _end_season(state: GameState, ed: Edition) -> GameState:
    planet = ed.planet
    seats = []
    for seat in state.seats:
        light = light_score(planet, seat.board, state.sun, ed)
        forest = biggest_forest(planet, seat.board)
        season = replace(seat.seasons[-1], light=light, forest=forest)
        seats.append(
            replace(seat, score=seat.score + light + forest, seasons=(*seat.seasons[:-1], season))
        )
    if state.season >= ed.seasons:
        values = fertility_values(state, ed)
        final = []
        for seat in seats:
            points = fertility_score(planet, seat.board, values)
            final.append(replace(seat, fertility=points, score=seat.score + points))
        state = replace(state, seats=tuple(final), phase=Phase.OVER)
        return replace(state, outcome=_outcome(state, ed))
    discard = list(state.discard)
    for seat in seats:
        discard.extend(seat.season_cards)
    discard.extend(state.ai_cards)
    next_season = state.season + 1
    seats = [
        replace(s, season_cards=(), seasons=(*s.seasons, SeasonScore(next_season))) for s in seats
    ]
    state = replace(
        state,
        seats=tuple(seats),
        discard=tuple(discard),
        ai_cards=(),
        season=next_season,
        round=1,
        sun=next_sun(state.sun),
    )
    return _start_round(state, ed)


def _start_round(state: GameState, ed: Edition) -> GameState:
    size = ed.solo_pool if state.solo else state.drafters + 1
    deck, discard, rng = state.deck, state.discard, state.rng
    pool: list[str] = []
    while len(pool) < size:
        if not deck:
            if not discard:
                break  # deck and discard exhausted: a smaller pool (edition ruling 10)
            rng, deck = shuffled(rng, discard)
            discard = ()
        pool.append(deck[-1])
        deck = deck[:-1]
    return replace(
        state,
        phase=Phase.DRAFT,
        deck=deck,
        discard=discard,
        rng=rng,
        pool=tuple(pool),
        first=state.next_first,
        token_card=None,
        picks_done=0,
    )


def _outcome(state: GameState, ed: Edition) -> Outcome:
    order = [d for d in state.turn_order(state.next_first) if d != state.ai]
    position = {seat: k for k, seat in enumerate(order)}
    scores = tuple(s.score for s in state.seats)
    ranking = tuple(sorted(range(len(scores)), key=lambda s: (-scores[s], position[s])))
    title = ed.solo_title(scores[0]) if state.solo else None
    return Outcome(scores, ranking, ranking[0], title)
