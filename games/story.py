"""The story of a game on its page and its replay: the game log, the replay's jumps to
each season's end, and what the end of a game shows (rank, the score chart).

The words come from the game's kind (``GameKind.story``: each game tells its own rounds,
in the recap's sentences); the platform lays them out and draws the icons and the chart.
The log is what the viewer may know now: the kind leaves out unrevealed choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from . import drawings, fragments, kinds, telling
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
) -> list[Chapter]:
    """The game log of a started ``game`` as seat ``viewer`` (None: a spectator) may read it.

    Told on from the telling kept for the game (``games.telling``: only the moves since
    are told), and kept whole for the game's moves and snapshot (``fragments.play_state``:
    a change that is neither a move nor a reveal tells nothing new), that seat (what one
    seat may know is never told to another) and the language (``games.fragments``).
    """
    at = fragments.play_state(game)
    return fragments.kept(
        game,
        "story",
        _told_to(game, viewer)[1],
        names,
        lambda: told(game, viewer, names).chapters,
        made_from=at,
    )


def told(
    game: Game, viewer: int | None, names: Sequence[str], newest: int | None = None
) -> telling.Told:
    """The log as ``chapters`` tells it, each chapter no later move changes drawn once,
    closed (``telling.Told``); of those, at least the ``newest`` (None: all)."""
    told_to, eyes = _told_to(game, viewer)
    return telling.told(game, told_to, eyes, names, _round_drawn, newest)


def _told_to(game: Game, viewer: int | None) -> tuple[int | None, int | str | None]:
    """Whom the log is told to, and whose eyes it is kept for (``games.fragments``): the
    viewer's, or, when the kind's log is alike for everyone now
    (``GameKind.story_public_at``), a spectator's, kept once for all."""
    if kinds.of(game).story_public_at(game.engine_state()):
        return None, fragments.EVERYONE
    return viewer, viewer


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


def _round_html(chapter: Chapter, first: bool = False) -> str:
    """A round of the log drawn by games/_story_round.html (``first``: the newest, open)."""
    shown = log([chapter])[0]
    return render_to_string("games/_story_round.html", {"chapter": shown, "first": first})


def _round_drawn(chapter: Chapter, first: bool = False) -> str:
    """``_round_html``, found drawn in this process when it was drawn before from the same
    words in the same language (``games.drawings``): a round told again after a move (a
    round a reveal closed, the old rounds of a kind that tells its log whole) is not
    drawn again."""
    key = drawings.key_of("story-round", first, chapter)
    return drawings.kept(key, lambda _hole: _round_html(chapter, first), "")


# How many rounds the game page's log shows, the newest open; the earlier ones come when
# asked for (``earlier_rounds_html``). The whole log made the page of a four-player game
# grow from 64 KB to 240 KB by its end (the rounds: 160 KB), all of it sent again with
# every refresh of the play region; the replay page shows the whole log.
ROUNDS_SHOWN = 3


def _drawn_rounds(told: telling.Told) -> list[str]:
    """The log's rounds drawn, oldest first, the newest open: the final chapters given
    (``telling.Told``: all, or the newest) as they were drawn when they closed, the rest
    drawn now (``_round_drawn``)."""
    rounds = [_round_drawn(c, k == len(told.rest) - 1) for k, c in enumerate(told.rest)]
    closed = list(told.drawn)
    if not told.rest and told.final:  # the newest round is a final one: drawn open
        closed[-1] = _round_drawn(told.final[-1], True)
    return closed + rounds


def earlier_rounds_html(game: Game, seat: Seat | None, names: Sequence[str], count: int) -> str:
    """The ``count`` oldest rounds of the log (those the page left out: rounds are only
    ever added after them), drawn newest first, closed; as the viewer may read them."""
    drawn = _drawn_rounds(told(game, seat.position if seat else None, names))
    return "".join(reversed(drawn[: max(0, min(count, len(drawn) - 1))]))


def page_context(game: Game, seat: Seat | None, names: Sequence[str]) -> dict[str, Any]:
    """The log of the game page and, once the game is over, its end (rank, chart, rematch).
    ``poll_rematch``: a rematch waits for someone, so the finished game's page keeps polling."""
    viewer = seat.position if seat else None

    def drawn() -> SafeString:
        # The log drawn is kept under the same moves, snapshot, seat, names and language as
        # the chapters would be: when it is missing they are too (a round trip and a big
        # value saved), and the log is told on from the telling kept (``told``).
        log = told(game, viewer, names, newest=ROUNDS_SHOWN)
        rounds = "".join(reversed(_drawn_rounds(log)[-ROUNDS_SHOWN:]))
        context = {
            "story": bool(rounds),
            "rounds_html": mark_safe(rounds),  # drawn there
            "earlier": max(0, log.count + len(log.rest) - ROUNDS_SHOWN),
            "game_id": game.pk,
        }
        return mark_safe(render_to_string("games/_story.html", context))  # escaped there

    # The log drawn once per moves and snapshot, seat (or once for all: _told_to) and
    # language, as it is told; each round that no later move changes drawn once
    # (``telling``).
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
        end = {**ending(game, chapters(game, viewer, names), names), **_rematch(game, seat, names)}
        context["ending"] = end
        standing = end["rematch"]
        context["poll_rematch"] = standing is not None and standing.new_game is None
    return context


def replay_context(
    game: Game, state: Any, viewer: int | None, names: Sequence[str], number: int
) -> dict[str, Any]:
    """The log up to the move shown and the jumps to each season's end, on the replay
    (the chapters of the game as it is now: the viewer may know all of it)."""
    shown = chapters(game, viewer, names)
    return {"story": log(shown, upto=number), "jumps": jumps(shown), "replay_move": number}
