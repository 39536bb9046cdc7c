"""The market and the supplies while a move is carried out: a mutable working copy.

``Table.of(state)`` copies the market, decks, bag, pots and generator out of a state;
the move works on the copy and ``table.into(state)`` builds the next state, so a refused
move has changed nothing. Column 0 is nearest the decks and the bag, column 3 the
farthest (the solo mode's "4th column").
"""

from __future__ import annotations

from dataclasses import dataclass

from games.enginekit.rng import shuffled

from .edition import Edition
from .state import GameState, SeatState

LAST = 3  # the 4th column, farthest from the decks


@dataclass
class Table:
    plant_deck: list[str]
    room_deck: list[str]
    bag: list[str]
    plants: list[str | None]
    tokens: list[str | None]
    rooms: list[str | None]
    thumbs_plants: list[int]
    thumbs_rooms: list[int]
    pots: list[str | None]
    pot_stack: list[str]
    pot_discard: list[str]
    card_discard: list[str]
    box: list[str]
    rng: int

    @classmethod
    def of(cls, state: GameState) -> Table:
        return cls(
            list(state.plant_deck),
            list(state.room_deck),
            list(state.bag),
            list(state.market_plants),
            list(state.market_tokens),
            list(state.market_rooms),
            list(state.thumbs_plants),
            list(state.thumbs_rooms),
            list(state.market_pots),
            list(state.pot_stack),
            list(state.pot_discard),
            list(state.card_discard),
            list(state.box),
            state.rng,
        )

    def into(
        self, state: GameState, seats: tuple[SeatState, ...] | None = None, turn: int | None = None
    ) -> GameState:
        """The next state: ``state`` with this table (and ``seats``, ``turn`` if given)."""
        # Built field by field: ``dataclasses.replace`` costs a tenth of a turn here.
        return GameState(
            edition=state.edition,
            variant=state.variant,
            goals=state.goals,
            seats=state.seats if seats is None else seats,
            phase=state.phase,
            first=state.first,
            turn=state.turn if turn is None else turn,
            plant_deck=tuple(self.plant_deck),
            room_deck=tuple(self.room_deck),
            bag=tuple(self.bag),
            market_plants=tuple(self.plants),
            market_tokens=tuple(self.tokens),
            market_rooms=tuple(self.rooms),
            thumbs_plants=tuple(self.thumbs_plants),
            thumbs_rooms=tuple(self.thumbs_rooms),
            market_pots=tuple(self.pots),
            pot_stack=tuple(self.pot_stack),
            pot_discard=tuple(self.pot_discard),
            card_discard=tuple(self.card_discard),
            box=tuple(self.box),
            rng=self.rng,
            outcome=state.outcome,
        )

    def copy(self) -> Table:
        return Table(
            list(self.plant_deck),
            list(self.room_deck),
            list(self.bag),
            list(self.plants),
            list(self.tokens),
            list(self.rooms),
            list(self.thumbs_plants),
            list(self.thumbs_rooms),
            list(self.pots),
            list(self.pot_stack),
            list(self.pot_discard),
            list(self.card_discard),
            list(self.box),
            self.rng,
        )

    # --- refilling -------------------------------------------------------------------

    def refill(self) -> None:
        """Fill every empty slot from its deck, the bag or (solo) the pot stack (ruling 8).

        A slot whose source is exhausted stays empty.
        """
        for column in range(len(self.plants)):
            if self.plants[column] is None and self.plant_deck:
                self.plants[column] = self.plant_deck.pop()
            if self.tokens[column] is None and self.bag:
                self.tokens[column] = self.bag.pop()
            if self.rooms[column] is None and self.room_deck:
                self.rooms[column] = self.room_deck.pop()
            if self.pots and self.pots[column] is None and self.pot_stack:
                self.pots[column] = self.pot_stack.pop()

    def wipe(self, columns: tuple[int, ...]) -> None:
        """Green thumb action A: set the tokens aside, refill nearest the bag first, return them."""
        aside = [self.tokens[c] for c in columns]
        for column in sorted(columns):
            self.tokens[column] = self.bag.pop() if self.bag else None
        self.bag.extend(t for t in aside if t is not None)
        self.rng, bag = shuffled(self.rng, self.bag)
        self.bag = list(bag)

    def place_thumb(self, take: str, column: int) -> None:
        """One green thumb on the card left in the column of the taken card."""
        if take == "plant":
            if self.rooms[column] is not None:
                self.thumbs_rooms[column] += 1
        elif self.plants[column] is not None:
            self.thumbs_plants[column] += 1

    # --- pots ---------------------------------------------------------------------------

    def take_pot(self, solo: bool, completions_before: int, ed: Edition) -> str | None:
        """The pot for a plant completed now (ruling 5; solo: ruling 11); None if none is left."""
        if not solo:
            return self.pot_stack.pop() if self.pot_stack else None
        if completions_before == 0 and self.pots[LAST] is not None:
            pot = self.pots[LAST]
            self.pots[LAST] = None
            return pot
        if self.pot_discard:
            lowest = min(self.pot_discard, key=lambda p: ed.pot_values[p])
            self.pot_discard.remove(lowest)
            return lowest
        if "terracotta" in self.pot_stack:
            self.pot_stack.remove("terracotta")
            return "terracotta"
        return None

    # --- solo ---------------------------------------------------------------------------

    def solo_end_of_turn(self) -> None:
        """Discard the 4th column, move its green thumbs left, shift, refill (rulings 11, 16)."""
        for row_cards, row_thumbs in (
            (self.plants, self.thumbs_plants),
            (self.rooms, self.thumbs_rooms),
        ):
            card = row_cards[LAST]
            if card is not None:
                self.card_discard.append(card)
            moving = row_thumbs[LAST]
            row_cards[LAST], row_thumbs[LAST] = None, 0
            if moving:
                for column in range(LAST - 1, -1, -1):
                    if row_cards[column] is not None:
                        row_thumbs[column] += moving
                        break
            for column in range(LAST):
                if row_thumbs[column] >= 3:
                    row_thumbs[column] = 0
        token = self.tokens[LAST]
        if token is not None:
            self.box.append(token)
        pot = self.pots[LAST]
        if pot is not None:
            self.pot_discard.append(pot)
        for names in (self.plants, self.tokens, self.rooms, self.pots):
            names[1:] = names[:LAST]
        for counts in (self.thumbs_plants, self.thumbs_rooms):
            counts[1:] = counts[:LAST]
        self.plants[0] = self.tokens[0] = self.rooms[0] = self.pots[0] = None
        self.thumbs_plants[0] = self.thumbs_rooms[0] = 0
        self.refill()
