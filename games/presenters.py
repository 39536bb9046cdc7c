"""What the game templates draw, computed from a player's view of a game and the edition.

Only ``player_view`` output comes in (plus the viewer's own turn in progress), so
nothing here can show a secret: the deck order, the seed, another seat's turn before
it is revealed. The repetitive parts (planets, cards, tracks, stacks, score rows) are
drawn by ``games.svg`` and reach the templates as ready-made HTML through properties
such as ``Planet.picture`` and ``CardInfo.face``: template loops over them were far too
slow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from typing import Any, NamedTuple

from django.utils import formats, timezone
from django.utils.safestring import SafeString
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from evergreen import rules
from evergreen.rules.edition import Edition
from evergreen.rules.pieces import EMPTY, PIECE_CODES
from evergreen.rules.pieces import PIECE_NAMES as PIECE_IDS
from evergreen.rules.planet import CREVICE, Space
from evergreen.rules.planet import Planet as PlanetGeometry
from evergreen.rules.record import GameRecord
from evergreen.rules.scoring import (
    forests,
    light_points,
    light_score,
    shadowed_spaces,
)

from . import svg
from .svg import CELL, MARGIN
from .turnbuilder import TurnBuilder, parse_step

SEASON_NAMES = (
    gettext_lazy("Spring"),
    gettext_lazy("Summer"),
    gettext_lazy("Autumn"),
    gettext_lazy("Winter"),
)
BIOME_NAMES = {
    "snow": gettext_lazy("Snow"),
    "swamp": gettext_lazy("Swamp"),
    "rock": gettext_lazy("Rock"),
    "flowers": gettext_lazy("Flowers"),
    "wheat": gettext_lazy("Wheat"),
    "grassland": gettext_lazy("Grassland"),
    "wild": gettext_lazy("Wild"),
}
POWER_NAMES = {
    "sprout": gettext_lazy("Plant Sprout"),
    "small": gettext_lazy("Small Tree Growth"),
    "big": gettext_lazy("Big Tree Growth"),
    "bush": gettext_lazy("Plant Bush"),
    "lake": gettext_lazy("Place Lake"),
    "bud": gettext_lazy("Bud"),
}
PIECE_NAMES = {
    "sprout": gettext_lazy("Sprout"),
    "small": gettext_lazy("Small Tree"),
    "big": gettext_lazy("Big Tree"),
    "bush": gettext_lazy("Bush"),
    "lake": gettext_lazy("Lake"),
}
# What each Power does (tooltips on the board, the rules page).
POWER_HELP = {
    "sprout": gettext_lazy("Place a Sprout on an empty space, in any biome."),
    "small": gettext_lazy("Turn a Sprout into a Small Tree, in any biome."),
    "big": gettext_lazy("Turn a Small Tree into a Big Tree, in any biome."),
    "bush": gettext_lazy("Place a Bush on an empty space: it collects no Light but joins Forests."),
    "lake": gettext_lazy(
        "Place a Lake on an empty space, then grow up to 2 different spaces next to it."
    ),
    "bud": gettext_lazy("Score at once as many points as the level the track shows."),
}
ICON_NAMES = {
    "F1": gettext_lazy("1 Fertility icon"),
    "F2": gettext_lazy("2 Fertility icons"),
    "A": gettext_lazy("Aridity"),
    "-": gettext_lazy("no icon"),
}
ACTION_TEXT = {
    "A": gettext_lazy("Up to 3 Plant Sprout in your card's biome"),
    "B": gettext_lazy("Up to 2 Generic Growth in your card's biome, in different spaces"),
    "C": gettext_lazy("Up to 1 Plant Sprout and 1 Generic Growth in your card's biome"),
    "D": gettext_lazy("1 Plant Sprout or 1 Generic Growth anywhere"),
}
ACTION_EFFECT_NAMES = {
    "plant": gettext_lazy("Plant Sprout"),
    "grow": gettext_lazy("Generic Growth"),
}
# The solo titles of the edition's table (evergreen/rules/editions), as the rulebooks name them.
SOLO_TITLES = {
    "Broccoli": gettext_lazy("Broccoli"),
    "Bonsai": gettext_lazy("Bonsai"),
    "Olive Tree": gettext_lazy("Olive Tree"),
    "Holly": gettext_lazy("Holly"),
    "Birch": gettext_lazy("Birch"),
    "Pine": gettext_lazy("Pine"),
    "Oak": gettext_lazy("Oak"),
    "Baobab": gettext_lazy("Baobab"),
    "Legendary Sequoia": gettext_lazy("Legendary Sequoia"),
}
EFFECT_NAMES = {
    "plant": gettext_lazy("Plant a Sprout"),
    "grow": gettext_lazy("Grow"),
    "sprout": gettext_lazy("Plant a Sprout"),
    "small": gettext_lazy("Grow a Sprout into a Small Tree"),
    "big": gettext_lazy("Grow a Small Tree into a Big Tree"),
    "bush": gettext_lazy("Plant a Bush"),
    "lake": gettext_lazy("Place a Lake"),
    "lake_grow": gettext_lazy("Grow beside the Lake"),
}
SUN_SIDES = {
    "N": gettext_lazy("from the north (top)"),
    "E": gettext_lazy("from the east (right)"),
    "S": gettext_lazy("from the south (bottom)"),
    "W": gettext_lazy("from the west (left)"),
}
SUN_ANGLES = {"N": 0, "E": 90, "S": 180, "W": 270}


def season_name(season: int) -> str:
    if 1 <= season <= len(SEASON_NAMES):
        return str(SEASON_NAMES[season - 1])
    return _("Season %(number)s") % {"number": season}


def solo_title(title: str) -> str:
    """A solo title of the edition in the active language."""
    return str(SOLO_TITLES.get(title, title))


def card_name(card_id: str) -> str:
    """A card of the standard edition by its id ("snow/sprout"), as the page names it."""
    edition = rules.load_edition(rules.DEFAULT_EDITION)
    if card_id not in edition.cards:
        return card_id[:40]
    card = edition.cards[card_id]
    return _("%(biome)s (%(power)s)") % {
        "biome": BIOME_NAMES[card.suit],
        "power": POWER_NAMES[card.power],
    }


def space_text(space: Space) -> str:
    # Numbered from 0, like the engine's messages and the API.
    return _("row %(row)s, column %(col)s") % {"row": space[0], "col": space[1]}


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
        return svg.words().card_label(self)

    @property
    def face(self) -> SafeString:
        """The card as the page shows it (``svg.card_face``)."""
        return svg.card_face(self)


def card_info(edition: Edition, card_id: str) -> CardInfo:
    card = edition.cards[card_id]
    return CardInfo(card.id, card.suit, card.power, card.icon)


def cards(edition: Edition, ids: Sequence[str]) -> list[CardInfo]:
    return [card_info(edition, c) for c in ids]


def legend() -> dict[str, list[tuple[str, str]]]:
    """The biomes (with their swatch) and pieces the legend explains."""
    words = svg.words()
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


# --- Planets -------------------------------------------------------------------------------


class Cell(NamedTuple):
    """One space of a planet picture. A named tuple: pages build them by the hundred (a
    frozen dataclass is several times slower to build), and ``svg`` keys its cache on them."""

    row: int
    col: int
    kind: str  # "biome", "crevice" or "off"
    biome: str | None
    piece: str | None
    shaded: bool = False
    light: int | None = None  # Light points of a tree with the Sun now (0: in shadow)
    forest: bool = False  # part of the biggest Forest
    target: str | None = None  # the effect a click applies here now
    changed: bool = False  # changed by the turn in progress

    @property
    def description(self) -> str:
        """What is there: biome, piece, shadow, Light, Forest."""
        return svg.words().description(self)

    @property
    def label(self) -> str:
        return svg.words().label(self)

    @property
    def button_label(self) -> str:
        return svg.words().button_label(self)


@dataclass(frozen=True)
class SunMarker:
    side: str
    x: int
    y: int
    angle: int

    @property
    def side_name(self) -> str:
        return str(SUN_SIDES[self.side])


def _sun_marker(side: str, rows: int, cols: int) -> SunMarker:
    width, height, half = cols * CELL, rows * CELL, MARGIN // 2
    x, y = {
        "N": (width // 2, -half),
        "E": (width + half, height // 2),
        "S": (width // 2, height + half),
        "W": (-half, height // 2),
    }[side]
    return SunMarker(side, x, y, SUN_ANGLES[side])


@dataclass(frozen=True)
class Planet:
    seat: int
    name: str
    cells: list[Cell]
    sun: SunMarker
    next_sun: SunMarker | None
    light: int  # Light points with the Sun now
    forest: int  # size of the biggest Forest
    rows: int
    cols: int
    preview: str = ""  # "building" or "submitted": shows a turn not yet revealed
    targets: int = 0  # number of clickable spaces

    @property
    def view_box(self) -> str:
        return (
            f"{-MARGIN} {-MARGIN} {self.cols * CELL + 2 * MARGIN} {self.rows * CELL + 2 * MARGIN}"
        )

    @property
    def changed(self) -> bool:
        return any(c.changed for c in self.cells)

    # The picture, drawn in Python (see games/svg.py): a template loop over the spaces
    # costs tens of milliseconds a page.
    @property
    def picture(self) -> SafeString:
        return svg.planet_svg(self)

    @property
    def space_buttons(self) -> SafeString:
        return svg.space_buttons(self)

    @property
    def piece_items(self) -> SafeString:
        return svg.piece_items(self)

    @property
    def pieces_summary(self) -> str:
        n = sum(1 for c in self.cells if c.piece)
        return svg.words().pieces_on_planet(n)

    @property
    def numbers(self) -> str:
        return _("Light %(light)s · Forest %(forest)s") % {
            "light": self.light,
            "forest": self.forest,
        }


@cache
def _spaces(geo: PlanetGeometry) -> tuple[tuple[int, int, int, str, str | None], ...]:
    """Each space of a planet: (index, row, column, kind, biome); computed once."""
    spaces = []
    for i, char in enumerate(geo.chars):
        row, col = geo.space(i)
        biome = geo.biomes[i]
        kind = "biome" if biome else ("crevice" if char == CREVICE else "off")
        spaces.append((i, row, col, kind, biome))
    return tuple(spaces)


def board_from_view(edition: Edition, pieces: Mapping[str, str]) -> tuple[int, ...]:
    """A view's ``{"r,c": "small", ...}`` board back into the engine's tuple of codes."""
    board = [EMPTY] * edition.planet.size
    cols = edition.planet.cols
    for key, name in pieces.items():
        row, col = (int(v) for v in key.split(","))
        board[row * cols + col] = PIECE_CODES[name]
    return tuple(board)


def planet(
    edition: Edition,
    board: Sequence[int],
    sun: str,
    next_sun: str | None,
    *,
    seat: int,
    name: str,
    targets: Mapping[Space, str] | None = None,
    before: Sequence[int] | None = None,
    preview: str = "",
) -> Planet:
    """A planet picture: biomes, pieces, shadows and Light for the Sun at ``sun``.

    ``targets`` marks the clickable spaces; ``before`` is the revealed board when
    ``board`` is a ``preview`` of a turn ("building" or "submitted"), so the spaces the
    turn changes can be marked.
    """
    geo = edition.planet
    shaded = shadowed_spaces(geo, board, sun, edition)
    points = light_points(geo, board, sun, edition)
    groups = forests(geo, board)
    biggest = max((len(g) for g in groups), default=0)
    in_forest = {i for g in groups if len(g) == biggest and biggest > 1 for i in g}
    targets = targets or {}
    cells = [
        Cell(
            row,
            col,
            kind,
            biome,
            PIECE_IDS[board[i]] if board[i] != EMPTY else None,
            shaded=kind == "biome" and i in shaded,
            light=points.get(i),
            forest=i in in_forest,
            target=targets.get((row, col)),
            changed=before is not None and before[i] != board[i],
        )
        for i, row, col, kind, biome in _spaces(geo)
    ]
    return Planet(
        seat=seat,
        name=name,
        cells=cells,
        sun=_sun_marker(sun, geo.rows, geo.cols),
        next_sun=_sun_marker(next_sun, geo.rows, geo.cols) if next_sun else None,
        light=light_score(geo, board, sun, edition),
        forest=biggest,
        rows=geo.rows,
        cols=geo.cols,
        preview=preview,
        targets=len(targets),
    )


def planets(edition: Edition, view: Mapping[str, Any], names: Sequence[str]) -> list[Planet]:
    """Every seat's revealed planet, as the view shows it."""
    return [
        planet(
            edition,
            board_from_view(edition, seat["board"]),
            view["sun"],
            view["next_sun"],
            seat=seat["seat"],
            name=names[seat["seat"]],
        )
        for seat in view["seats"]
    ]


# --- Scores and status ---------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreRow:
    seat: int
    name: str
    score: int
    setup_points: int
    seasons: list[dict[str, Any]]
    fertility: int
    card: CardInfo | None
    submitted: bool
    first_player: bool
    is_viewer: bool
    bud_so_far: int = 0


@dataclass(frozen=True)
class Scores:
    rows: list[ScoreRow]
    seasons: list[tuple[int, str]]  # scored seasons: (number, name)
    last_season: int | None  # the last season fully scored
    final: bool

    @property
    def body(self) -> SafeString:
        """The rows of the score table (``svg.score_rows``)."""
        return svg.score_rows(self)


def scores(edition: Edition, view: Mapping[str, Any], names: Sequence[str]) -> Scores:
    over = view["phase"] == "over"
    last = view["season"] if over else view["season"] - 1
    numbers = list(range(1, last + 1))
    rows = []
    for seat in view["seats"]:
        by_number = {s["season"]: s for s in seat["seasons"]}
        current = by_number.get(view["season"], {})
        rows.append(
            ScoreRow(
                seat=seat["seat"],
                name=names[seat["seat"]],
                score=seat["score"],
                setup_points=seat["setup_points"],
                seasons=[
                    {
                        **by_number.get(n, {"light": 0, "forest": 0, "bud": 0}),
                        "total": sum(
                            by_number.get(n, {}).get(k, 0) for k in ("light", "forest", "bud")
                        ),
                    }
                    for n in numbers
                ],
                fertility=seat["fertility"],
                card=card_info(edition, seat["card"]) if seat["card"] else None,
                submitted=seat["submitted"],
                first_player=seat["seat"] == view["first_player"],
                is_viewer=seat["seat"] == view["viewer"],
                bud_so_far=0 if over else current.get("bud", 0),
            )
        )
    return Scores(
        rows=rows,
        seasons=[(n, season_name(n)) for n in numbers],
        last_season=last if last >= 1 else None,
        final=over,
    )


def season_line(view: Mapping[str, Any], sun: SunMarker, next_sun: SunMarker | None) -> str:
    """Season, round, where the Sun shines now and next season, and the shared supply."""
    parts = [
        _("%(season)s (season %(number)s), round %(round)s of %(rounds)s")
        % {
            "season": season_name(view["season"]),
            "number": view["season"],
            "round": view["round"],
            "rounds": view["rounds_in_season"],
        },
        _("The Sun shines %(side)s") % {"side": sun.side_name},
    ]
    if next_sun is not None:
        parts[-1] += "; " + _("next season %(side)s") % {"side": next_sun.side_name}
    parts.append(
        _("Supply: %(bushes)s Bushes, %(lakes)s Lakes")
        % {"bushes": view["supply"]["bush"], "lakes": view["supply"]["lake"]}
    )
    return " · ".join(parts)


def status_text(view: Mapping[str, Any] | None, names: Sequence[str], game_status: str) -> str:
    """One sentence saying whose move it is (or how the game ended)."""
    if view is None:
        if game_status == "aborted":
            return _("This game was aborted.")
        return _("Waiting for players to join.")
    viewer = view["viewer"]
    if view["phase"] == "over" or game_status in ("finished", "aborted"):
        outcome = view.get("outcome")
        if game_status == "aborted" or outcome is None:
            return _("This game was aborted.")
        winner = outcome["winner"]
        if view["solo"]:
            return _("Game over: %(score)s points, title %(title)s.") % {
                "score": outcome["scores"][0],
                "title": solo_title(outcome["title"]),
            }
        if winner == viewer:
            return _("Game over: you win with %(score)s points!") % {
                "score": outcome["scores"][winner]
            }
        return _("Game over: %(name)s wins with %(score)s points.") % {
            "name": names[winner],
            "score": outcome["scores"][winner],
        }
    if view["phase"] == "draft":
        picker = view["to_pick"]
        if picker is not None and picker == viewer:
            return _("Your pick: choose a card from the drafting pool.")
        if picker is None or picker >= len(names):
            return _("The A.I. is picking a card.")
        return _("Waiting for %(name)s to pick a card.") % {"name": names[picker]}
    awaiting = view["awaiting"]
    if viewer is not None and viewer in awaiting:
        return _("Your turn: choose an Action, apply its effects, then submit.")
    others = ", ".join(names[s] for s in awaiting)
    if viewer is not None and view["seats"][viewer]["submitted"]:
        return _("Your turn is in. Waiting for %(names)s.") % {"names": others}
    return _("Waiting for %(names)s to play their turn.") % {"names": others}


def is_my_move(view: Mapping[str, Any] | None) -> bool:
    if view is None or view["viewer"] is None:
        return False
    return view["viewer"] in view["awaiting"]


# --- Clocks, time control and standing orders ------------------------------------------------


@dataclass(frozen=True)
class Due:
    """A deadline as the page shows it: time left, local date and time, ISO for ``<time>``."""

    iso: str
    left: str  # "1 day, 3 hours" (Django's timeuntil, in the active language)
    when: str  # "Tue 14:00" in the active time zone (with the date when a week or more away)
    overdue: bool


@dataclass(frozen=True)
class SeatClock:
    """What the status area says about one seat: its deadline, vacation, or computer player."""

    seat: int
    name: str
    is_viewer: bool
    due: Due | None  # only for a seat that must act in a timed game
    vacation_until: str | None
    took_over: bool  # handed to a computer player after repeated timeouts


@dataclass(frozen=True)
class TimeControl:
    per_move: str  # "1 day per move", "6 hours per move"
    bank_left: str | None  # the viewer's time bank, if the game has one
    policy: str  # what happens when time runs out


def local_when(moment: datetime, now: datetime) -> str:
    """A moment in the active time zone and the active language's formats: weekday and
    time within the coming week ("Mo 14:30", "Tue 2:30 p.m."), else the short date and time."""
    local = timezone.localtime(moment)
    if timedelta(0) <= moment - now < timedelta(days=6):
        return formats.date_format(local, "D " + str(formats.get_format("TIME_FORMAT")))
    return formats.date_format(local, "SHORT_DATETIME_FORMAT")


def due(deadline: datetime, now: datetime) -> Due:
    local = timezone.localtime(deadline)
    return Due(
        iso=local.isoformat(timespec="minutes"),
        left=timeuntil(deadline, now),
        when=local_when(deadline, now),
        overdue=deadline <= now,
    )


def seat_clocks(
    game: Any, seats: Sequence[Any], viewer: int | None, now: datetime
) -> list[SeatClock]:
    """A line per seat with something to say: a deadline (mine first), a vacation, a
    computer player that took over. Reads only the seats and players already loaded."""
    clocks = []
    for seat in sorted(seats, key=lambda s: s.position):
        player = getattr(seat.user, "player", None) if seat.user_id else None
        vacation = getattr(player, "vacation_until", None)
        on_vacation = vacation is not None and vacation > now
        deadline = seat.deadline if game.is_playable else None
        if deadline is None and not on_vacation and not seat.handed_to_bot:
            continue
        clocks.append(
            SeatClock(
                seat=seat.position,
                name=seat.name,
                is_viewer=seat.position == viewer,
                due=due(deadline, now) if deadline is not None else None,
                vacation_until=local_when(vacation, now) if on_vacation else None,
                took_over=seat.handed_to_bot,
            )
        )
    clocks.sort(key=lambda c: not c.is_viewer)
    return clocks


def time_control(game: Any, seat: Any | None, now: datetime) -> TimeControl | None:
    """The game's time control, and the viewer's time bank left; None without one."""
    if not game.move_hours:
        return None
    if game.hours_per_move:
        per_move = ngettext("%(n)d hour per move", "%(n)d hours per move", game.hours_per_move) % {
            "n": game.hours_per_move
        }
    else:
        per_move = ngettext("%(n)d day per move", "%(n)d days per move", game.days_per_move) % {
            "n": game.days_per_move
        }
    bank_left = None
    if game.time_bank_hours and seat is not None:
        seconds = seat.time_bank_seconds
        bank_left = timeuntil(now + timedelta(seconds=seconds), now) if seconds else _("none")
    return TimeControl(per_move, bank_left, str(game.get_timeout_policy_display()))


@dataclass(frozen=True)
class RankedCard:
    card: CardInfo
    rank: int | None  # its place among my ranked cards still in the pool


@dataclass(frozen=True)
class Ranking:
    """The viewer's standing order for this round's pool (never another seat's)."""

    cards: list[RankedCard]  # the pool, in pool order, with my rank of each
    mine: list[tuple[CardInfo, bool]]  # my ranking as stored: (card, still in the pool)

    @property
    def ranks(self) -> list[int]:
        return list(range(1, len(self.cards) + 1))


def ranking(edition: Edition, view: Mapping[str, Any], stored: Sequence[str]) -> Ranking:
    """``stored``: the viewer's ranking for this round (empty if none or an older round's)."""
    pool = view["pool"]
    still = [c for c in stored if c in pool]
    rank = {card: k for k, card in enumerate(still, start=1)}
    return Ranking(
        cards=[RankedCard(card_info(edition, c), rank.get(c)) for c in pool],
        mine=[(card_info(edition, c), c in pool) for c in stored if c in edition.cards],
    )


# --- Replay and records ---------------------------------------------------------------------


def unrevealed_moves(record: GameRecord, state: rules.GameState, viewer: int | None) -> set[int]:
    """Indexes (0-based) of the record's moves that are other seats' turns not yet revealed."""
    hidden_seats = {i for i, s in enumerate(state.seats) if s.turn is not None and i != viewer}
    found: set[int] = set()
    for index in range(len(record.moves) - 1, -1, -1):
        move = record.moves[index]
        if isinstance(move, rules.Turn) and move.seat in hidden_seats:
            found.add(index)
            hidden_seats.discard(move.seat)
        if not hidden_seats:
            break
    return found


def record_for_viewer(
    record: GameRecord, state: rules.GameState, viewer: int | None, *, finished: bool
) -> dict[str, Any]:
    """The downloadable record: whole when the game is over; while it runs, without the
    seed (seed and moves give away the deck order) and without other seats' unrevealed turns."""
    data = record.to_json(state if finished else None)
    if finished:
        return data
    del data["seed"]
    hidden = unrevealed_moves(record, state, viewer)
    data["moves"] = [m for k, m in enumerate(data["moves"]) if k not in hidden]
    data["in_progress"] = True
    if hidden:
        data["unrevealed_turns"] = sorted(record.moves[k].seat for k in hidden)
    return data


def describe_move(edition: Edition, move: rules.Move, names: Sequence[str]) -> str:
    """A move in a sentence that gives nothing away: picks are public, turns show on the board."""
    name = names[move.seat] if move.seat < len(names) else "?"
    if isinstance(move, rules.Pick):
        card = card_info(edition, move.card) if move.card in edition.cards else None
        what = card.label if card else move.card
        return _("%(name)s picked %(card)s.") % {"name": name, "card": what}
    return _("%(name)s played a turn.") % {"name": name}


# --- The turn being built --------------------------------------------------------------------


@dataclass(frozen=True)
class TurnPanel:
    steps: str  # the encoded steps, for the hidden field
    card: CardInfo
    action: str | None
    timing: str | None
    block: str | None
    level: int  # times the Power may be applied this round
    applied: int  # times it has been applied so far
    summary: list[str]
    prompt: str
    can_next: bool
    next_label: str
    can_undo: bool
    can_submit: bool
    light: int  # Light points of the previewed planet with the Sun now
    forest: int  # its biggest Forest
    targets: int  # spaces that may be clicked now

    @property
    def actions(self) -> list[tuple[str, str]]:
        return [(letter, str(text)) for letter, text in ACTION_TEXT.items()]

    @property
    def power_name(self) -> str:
        return self.card.power_name

    @property
    def season_points(self) -> int:
        return self.light + self.forest


def _step_text(step: str, power: str) -> str:
    if step in ACTION_TEXT:
        return _("Action %(letter)s: %(text)s") % {"letter": step, "text": ACTION_TEXT[step]}
    if step == "before":
        return _("%(power)s before the Action") % {"power": POWER_NAMES[power]}
    if step == "after":
        return _("%(power)s after the Action") % {"power": POWER_NAMES[power]}
    if step == "none":
        return _("Power not used this round")
    if step == "next":
        return _("Then:")
    parsed = parse_step(step)
    if parsed is None:
        return step
    kind, space = parsed
    return _("%(effect)s at %(where)s") % {"effect": EFFECT_NAMES[kind], "where": space_text(space)}


def turn_panel(builder: TurnBuilder, card: CardInfo, level: int, preview: Planet) -> TurnPanel:
    """What the turn panel shows for a ``turnbuilder.TurnBuilder``."""
    block = builder.block
    applied = builder.applications
    if builder.action is None:
        prompt = _("Choose your Action for this round.")
    elif builder.timing is None:
        prompt = _("Use your Power (%(power)s) before or after the Action, or not at all?") % {
            "power": card.power_name
        }
    elif block == "action":
        prompt = (
            _("Click a highlighted space to apply your Action.")
            if preview.targets
            else _("Your Action can do nothing more.")
        )
    elif card.power == "bud":
        prompt = ngettext(
            "Bud: you score %(level)s point.", "Bud: you score %(level)s points.", level
        ) % {"level": level}
    elif card.power == "lake":
        prompt = _(
            "Place a Lake on a highlighted empty space, then grow up to 2 spaces beside it "
            "(%(done)s of %(level)s Lakes)."
        ) % {"done": applied, "level": level}
    else:
        prompt = _("Click a highlighted space to apply %(power)s (%(done)s of %(level)s).") % {
            "power": card.power_name,
            "done": applied,
            "level": level,
        }
    if block == "action" and builder.can_go_next:
        next_label = _("Done with the Action: continue with the Power")
    else:
        next_label = _("Done with the Power: continue with the Action")
    return TurnPanel(
        steps=builder.encode(),
        card=card,
        action=builder.action,
        timing=builder.timing,
        block=block,
        level=level,
        applied=applied,
        summary=[_step_text(s, card.power) for s in builder.steps],
        prompt=prompt,
        can_next=builder.can_go_next,
        next_label=next_label,
        can_undo=bool(builder.steps),
        can_submit=block is not None,
        light=preview.light,
        forest=preview.forest,
        targets=preview.targets,
    )
