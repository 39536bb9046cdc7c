"""The story of a game on its page and its replay: the game log, the replay's jumps to
each season's end, and what the end of a game shows (rank, the score chart).

The words come from the game's kind (``GameKind.story``: each game tells its own rounds,
in the recap's sentences); the platform lays them out and draws the icons and the chart.
The log is what the viewer may know now: the kind leaves out unrevealed choices.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from . import fragments, kinds
from .kinds import Chapter
from .rematches import services as rematches
from .scorechart import chart_svg

if TYPE_CHECKING:
    from .models import Game, Seat

# The icons a kind may name (``StoryLine.icon``), drawn once per page by
# templates/games/_story_icons.html; anything else is drawn as a plain turn.
ICONS = ("pick", "turn", "spare", "aridity", "round", "season", "end", "start", "take")


@dataclass(frozen=True)
class Jump:
    """A link of the replay to the end of a scored chapter (a season, the game)."""

    title: str
    move: int


def chapters(
    game: Game,
    viewer: int | None,
    names: Sequence[str],
    record: Any = None,
    *,
    keep: bool = True,
) -> list[Chapter]:
    """The game log of a started ``game`` as seat ``viewer`` (None: a spectator) may read it.

    Telling it replays the record, so it is kept for the game's moves and snapshot
    (``fragments.play_state``: a change that is neither a move nor a reveal tells nothing
    new), that seat (what one seat may know is never told to another) and the language
    (``games.fragments``); ``record``: the game's record, when the caller has it already.
    ``keep=False``: told without looking for it in the cache or keeping it there, for a
    caller that keeps what it makes of it under the same key parts (``page_context``).
    """
    kind = kinds.of(game)
    told_to, eyes = _told_to(game, viewer)

    def tell() -> list[Chapter]:
        told = record if record is not None else _record(game)
        return kind.story(told, game.engine_state(), told_to, names)

    if not keep:
        return tell()
    at = fragments.play_state(game)
    return fragments.kept(game, "story", eyes, names, tell, made_from=at)


def _told_to(game: Game, viewer: int | None) -> tuple[int | None, int | str | None]:
    """Whom the log is told to, and whose eyes it is kept for (``games.fragments``): the
    viewer's, or, when the kind's log is alike for everyone (``GameKind.public_story``),
    a spectator's, kept once for all."""
    if kinds.of(game).public_story:
        return None, fragments.EVERYONE
    return viewer, viewer


# How many moves a kept chunk of a game's moves holds (``_record``).
CHUNK = 16


def _record(game: Game) -> Any:
    """The game's record, as ``game.record()`` reads it. Move rows are only ever added
    (numbered 1, 2, … in order), so the moves read for an earlier telling are kept
    (``games.fragments``) in chunks of ``CHUNK``, all found in one round trip, and only
    the newer rows are read: after a move, one row, and only the last chunk is kept anew
    (a full chunk never changes again)."""
    if not fragments.keeping():
        return game.record()
    kind = kinds.of(game)
    where = f"game-moves:{game.pk}:{game.invite_code}"
    keys = [f"{where}:{k}" for k in range(game.moves_count // CHUNK + 1)]
    found = fragments.all_found(keys)
    moves: list[Any] = []
    for chunk in keys:
        kept = found.get(chunk)
        if not isinstance(kept, tuple) or len(kept) != CHUNK:
            if isinstance(kept, tuple) and len(kept) < CHUNK:
                moves.extend(kept)
            break
        moves.extend(kept)
    moves = moves[: game.moves_count]
    read = len(moves)
    if read < game.moves_count:
        rows = game.moves.filter(number__gt=read).order_by("number")
        moves.extend(
            kind.move_from_json(p, seat) for p, seat in rows.values_list("payload", "seat")
        )
        for k in range(read // CHUNK, (len(moves) - 1) // CHUNK + 1):
            fragments.keep(keys[k], tuple(moves[k * CHUNK : (k + 1) * CHUNK]))
    names = [seat.name for seat in game.ordered_seats()]
    return kind.record(names, game.setup(), moves)


def _icon(name: str) -> str:
    return name if name in ICONS else "turn"


def log(told: Sequence[Chapter], *, upto: int | None = None) -> list[dict[str, Any]]:
    """The chapters as the log template shows them, newest round first; on the replay
    (``upto``: the move shown) only what had happened by then."""
    shown = []
    for chapter in told:
        if upto is not None and chapter.move > upto:
            break
        shown.append(
            {
                "title": chapter.title,
                "move": chapter.move,
                "lines": [
                    {
                        "icon": _icon(line.icon),
                        "text": line.text,
                        "details": line.details,
                        # the kind's own drawing, every text in it escaped (StoryLine)
                        "picture": mark_safe(line.picture),
                    }
                    for line in chapter.lines
                ],
            }
        )
    shown.reverse()
    return shown


def jumps(told: Sequence[Chapter]) -> list[Jump]:
    """The replay's jumps: the end of each chapter a season (or the game) was scored in."""
    return [Jump(chapter.scored, chapter.move) for chapter in told if chapter.scored]


def ending(game: Game, told: Sequence[Chapter], names: Sequence[str]) -> dict[str, Any]:
    """The end of a finished game: the rank of every player, and the chart of each
    player's score round by round."""
    kind = kinds.of(game)
    state = game.engine_state()
    scores = kind.scores(state)
    ranks: list[dict[str, Any]] = []
    for place, seat in enumerate(kind.ranking(state), start=1):
        tied = ranks and ranks[-1]["score"] == scores[seat]
        ranks.append(
            {
                "place": ranks[-1]["place"] if tied and ranks else place,
                "name": names[seat] if seat < len(names) else "?",
                "seat": seat,
                "score": scores[seat],
            }
        )
    points = [(c.title, c.scores) for c in told if len(c.scores) == len(names)]
    chart: SafeString = mark_safe(chart_svg(points, names))  # every text escaped there
    return {"ranks": ranks, "chart": chart}


def _rematch(game: Game, seat: Seat | None, names: Sequence[str]) -> dict[str, Any]:
    standing = rematches.standing(game)
    person = seat is not None and seat.user_id is not None
    mine = seat.position if seat is not None else None
    context: dict[str, Any] = {
        "rematch": standing,
        "can_rematch": person
        and game.status == game.Status.FINISHED
        and (standing is None or (standing.new_game is None and mine not in standing.accepted)),
    }
    if standing is not None:
        context["rematch_accepted"] = ", ".join(names[k] for k in standing.accepted)
        context["rematch_waiting"] = ", ".join(names[k] for k in standing.waiting)
        offerer = standing.offered_by
        context["rematch_offered_by"] = names[offerer] if offerer is not None else ""
    return context


def _rounds_drawn(shown: Sequence[dict[str, Any]]) -> list[str]:
    """Each round of the log (newest first) drawn by games/_story_round.html. A round
    drawn is kept under a digest of what it shows and the language, so a closed round is
    drawn once and found again after every later move (by any viewer it was told alike
    to: the same words give the same drawing, nothing else is in it)."""
    language = translation.get_language() or ""
    keys = [
        "story-round:" + hashlib.sha256(repr((language, k == 0, c)).encode()).hexdigest()
        for k, c in enumerate(shown)
    ]
    found = fragments.all_found(keys)
    drawn = []
    for k, (where, chapter) in enumerate(zip(keys, shown, strict=True)):
        html = found.get(where)
        if html is None:
            html = render_to_string(
                "games/_story_round.html", {"chapter": chapter, "first": k == 0}
            )
            fragments.keep(where, html)
        drawn.append(str(html))
    return drawn


def page_context(game: Game, seat: Seat | None, names: Sequence[str]) -> dict[str, Any]:
    """The log of the game page and, once the game is over, its end (rank, chart, rematch).
    ``poll_rematch``: a rematch waits for someone, so the finished game's page keeps polling."""
    viewer = seat.position if seat else None

    def drawn() -> SafeString:
        # The log drawn is kept under the same moves, snapshot, seat, names and language as
        # the chapters would be: when it is missing they are too (a round trip and a big
        # value saved). A finished game's page needs them again below, for its end.
        told = log(chapters(game, viewer, names, keep=game.is_finished))
        rounds = mark_safe("".join(_rounds_drawn(told)))  # escaped by the template
        return mark_safe(  # escaped there
            render_to_string("games/_story.html", {"story": told, "rounds_html": rounds})
        )

    # The log drawn once per moves and snapshot, seat (or once for all: _told_to) and
    # language, as it is told; each round drawn once while its words stay the same
    # (_rounds_drawn).
    context: dict[str, Any] = {
        "story_html": fragments.kept(
            game,
            "story-html",
            _told_to(game, viewer)[1],
            names,
            drawn,
            made_from=fragments.play_state(game),
        ),
        "ending": None,
        "poll_rematch": False,
    }
    if game.is_finished:
        told = chapters(game, viewer, names)
        end = {**ending(game, told, names), **_rematch(game, seat, names)}
        context["ending"] = end
        standing = end["rematch"]
        context["poll_rematch"] = standing is not None and standing.new_game is None
    return context


def replay_context(
    game: Game, record: Any, state: Any, viewer: int | None, names: Sequence[str], number: int
) -> dict[str, Any]:
    """The log up to the move shown and the jumps to each season's end, on the replay
    (the chapters of the game as it is now: the viewer may know all of it)."""
    told = chapters(game, viewer, names, record)
    return {"story": log(told, upto=number), "jumps": jumps(told), "replay_move": number}
