"""Cards, the drafting pool, the Fertility Zone, the Power tracks and the viewer's standing
order, as the game templates show them (drawn by ``games.evergreen.svg``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from . import cardsvg, pagewords, rules, svg
from .rules.edition import Edition
from .words import BIOME_NAMES, ICON_NAMES, PIECE_NAMES, POWER_NAMES

# --- Cards ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardInfo:
    id: str
    suit: str
    power: str
    icon: str

    @property
    def suit_name(self) -> str:
        return str(BIOME_NAMES[self.suit])

    @property
    def power_name(self) -> str:
        return str(POWER_NAMES[self.power])

    @property
    def icon_name(self) -> str:
        return str(ICON_NAMES[self.icon])

    @property
    def fertility(self) -> int:
        return {"F1": 1, "F2": 2}.get(self.icon, 0)

    @property
    def label(self) -> str:
        return pagewords.words().card_label(self)

    @property
    def face(self) -> SafeString:
        """The card as the page shows it (``svg.card_face``)."""
        return svg.card_face(self)

    @property
    def picture(self) -> SafeString:
        """The card drawn as a card (``cardsvg.card_picture``): pool, ranking, your card."""
        return cardsvg.card_picture(self)


def card_info(edition: Edition, card_id: str) -> CardInfo:
    card = edition.cards[card_id]
    return CardInfo(card.id, card.suit, card.power, card.icon)


def cards(edition: Edition, ids: Sequence[str]) -> list[CardInfo]:
    return [card_info(edition, c) for c in ids]


def legend() -> dict[str, list[tuple[str, str]]]:
    """The biomes (with their swatch) and pieces the legend explains."""
    words = pagewords.words()
    return {
        "biomes": [(svg.swatch(b), words.biomes[b]) for b in (*rules.BIOMES, "wild")],
        "pieces": [(p, words.pieces[p]) for p in PIECE_NAMES],
    }


@dataclass(frozen=True)
class PoolCard:
    card: CardInfo
    token: bool  # carries the First Player token


def pool(edition: Edition, view: Mapping[str, Any]) -> list[PoolCard]:
    return [PoolCard(card_info(edition, c), c == view["token_card"]) for c in view["pool"]]


@dataclass(frozen=True)
class Stack:
    biome: str
    total: int
    cards: list[tuple[CardInfo, bool]]  # (card, face up), bottom first

    @property
    def name(self) -> str:
        return str(BIOME_NAMES[self.biome])

    @property
    def item(self) -> SafeString:
        """The stack as the page shows it (``svg.stack_item``)."""
        return svg.stack_item(self)


def fertility_zone(edition: Edition, view: Mapping[str, Any]) -> list[Stack]:
    return [
        Stack(
            biome,
            view["fertility"][biome],
            [(card_info(edition, c["card"]), c["face_up"]) for c in stack],
        )
        for biome, stack in view["fertility_zone"].items()
    ]


# --- Power tracks ----------------------------------------------------------------------


@dataclass(frozen=True)
class TrackSpace:
    level: int
    position: int
    reached: bool
    current: bool


@dataclass(frozen=True)
class Track:
    power: str
    position: int
    level: int
    spaces: list[TrackSpace]
    on_card: bool  # the Power of the card picked this round
    next_level: int  # the level after an upgrade

    @property
    def name(self) -> str:
        return str(POWER_NAMES[self.power])

    @property
    def row(self) -> SafeString:
        """The track as a row of the page's table (``svg.track_row``)."""
        return svg.track_row(self)


def power_tracks(edition: Edition, seat_view: Mapping[str, Any]) -> list[Track]:
    card_power = edition.cards[seat_view["card"]].power if seat_view["card"] else None
    tracks = []
    for power in rules.POWERS:
        levels = edition.power_levels[power]
        position = seat_view["powers"][power]
        spaces = [TrackSpace(0, 0, True, position == 0)] + [
            TrackSpace(level, k, k <= position, k == position)
            for k, level in enumerate(levels, start=1)
        ]
        tracks.append(
            Track(
                power,
                position,
                edition.power_value(power, position),
                spaces,
                power == card_power,
                levels[min(position + 1, len(levels)) - 1],
            )
        )
    return tracks


@dataclass(frozen=True)
class RankedCard:
    card: CardInfo
    rank: int | None  # its place among my ranked cards still in the pool
    places: int = 0  # how many places there are (the pool's size)

    @property
    def options(self) -> SafeString:
        """The select's options ("—", then 1…places), this card's rank selected: written
        here rather than as a template loop inside the loop over the cards."""
        blank = '<option value=""{}>—</option>'.format(" selected" if self.rank is None else "")
        return mark_safe(  # numbers only
            blank
            + "".join(
                f'<option value="{n}"{" selected" if self.rank == n else ""}>{n}</option>'
                for n in range(1, self.places + 1)
            )
        )


@dataclass(frozen=True)
class Ranking:
    """The viewer's standing order for this round's pool (never another seat's)."""

    cards: list[RankedCard]  # the pool, in pool order, with my rank of each
    mine: list[tuple[CardInfo, bool]]  # my ranking as stored: (card, still in the pool)


def ranking(edition: Edition, view: Mapping[str, Any], stored: Sequence[str]) -> Ranking:
    """``stored``: the viewer's ranking for this round (empty if none or an older round's)."""
    pool = view["pool"]
    still = [c for c in stored if c in pool]
    rank = {card: k for k, card in enumerate(still, start=1)}
    return Ranking(
        cards=[RankedCard(card_info(edition, c), rank.get(c), len(pool)) for c in pool],
        mine=[(card_info(edition, c), c in pool) for c in stored if c in edition.cards],
    )
