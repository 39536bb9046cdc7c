"""What Evergreen's templates draw, computed from a player's view of a game and the edition.

Only ``player_view`` output comes in (plus the viewer's own turn in progress), so
nothing here can show a secret: the deck order, the seed, another seat's turn before
it is revealed. The repetitive parts (planets, cards, tracks, stacks, score rows) are
drawn by ``games.evergreen.svg`` and reach the templates as ready-made HTML through
properties such as ``Planet.picture`` and ``CardInfo.face``: template loops over them
were far too slow.

One name for the pieces, by concern: ``words`` (names in the player's language),
``cards`` (cards, pool, Fertility Zone, Power tracks, standing order), ``planets``,
``status`` (scores and status sentences), ``records`` (downloads, moves in words) and
``turnpanel`` (the turn being built).
"""

from .cards import (
    CardInfo,
    PoolCard,
    RankedCard,
    Ranking,
    Stack,
    Track,
    TrackSpace,
    card_info,
    cards,
    fertility_zone,
    legend,
    pool,
    power_tracks,
    ranking,
)
from .planets import (
    Cell,
    Planet,
    SunMarker,
    board_from_view,
    planet,
    planets,
    sun_markers,
)
from .records import (
    describe_move,
    record_for_viewer,
    unrevealed_moves,
)
from .status import (
    ScoreRow,
    Scores,
    is_my_move,
    scores,
    season_line,
    status_text,
)
from .turnpanel import (
    TurnPanel,
    turn_panel,
)
from .words import (
    ACTION_EFFECT_NAMES,
    ACTION_TEXT,
    BIOME_NAMES,
    EFFECT_NAMES,
    ICON_NAMES,
    PIECE_NAMES,
    POWER_HELP,
    POWER_NAMES,
    SEASON_NAMES,
    SOLO_TITLES,
    SUN_ANGLES,
    SUN_SIDES,
    card_name,
    season_name,
    solo_title,
    space_text,
)

__all__ = [
    "ACTION_EFFECT_NAMES",
    "ACTION_TEXT",
    "BIOME_NAMES",
    "EFFECT_NAMES",
    "ICON_NAMES",
    "PIECE_NAMES",
    "POWER_HELP",
    "POWER_NAMES",
    "SEASON_NAMES",
    "SOLO_TITLES",
    "SUN_ANGLES",
    "SUN_SIDES",
    "CardInfo",
    "Cell",
    "Planet",
    "PoolCard",
    "RankedCard",
    "Ranking",
    "ScoreRow",
    "Scores",
    "Stack",
    "SunMarker",
    "Track",
    "TrackSpace",
    "TurnPanel",
    "board_from_view",
    "card_info",
    "card_name",
    "cards",
    "describe_move",
    "fertility_zone",
    "is_my_move",
    "legend",
    "planet",
    "planets",
    "pool",
    "power_tracks",
    "ranking",
    "record_for_viewer",
    "scores",
    "season_line",
    "season_name",
    "solo_title",
    "space_text",
    "status_text",
    "sun_markers",
    "turn_panel",
    "unrevealed_moves",
]
