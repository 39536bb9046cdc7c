"""Scores, the season line and the status sentence of a game, from a player's view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from . import svg
from .cards import CardInfo, card_info
from .planets import SunMarker
from .rules.edition import Edition
from .words import season_name, solo_title

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
    # Drawn for every viewer alike, the viewer's marks left as holes (``svg.mark_viewer``).
    viewer_holes: bool = False

    @property
    def body(self) -> SafeString:
        """The rows of the score table (``svg.score_rows``)."""
        return svg.score_rows(self)


def scores(
    edition: Edition, view: Mapping[str, Any], names: Sequence[str], *, viewer_holes: bool = False
) -> Scores:
    """The score table of ``view``; with ``viewer_holes``, drawn for every viewer alike:
    no row is the viewer's until ``svg.mark_viewer`` marks it."""
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
                is_viewer=not viewer_holes and seat["seat"] == view["viewer"],
                bud_so_far=0 if over else current.get("bud", 0),
            )
        )
    return Scores(
        rows=rows,
        seasons=[(n, season_name(n)) for n in numbers],
        last_season=last if last >= 1 else None,
        final=over,
        viewer_holes=viewer_holes,
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
    if not awaiting:  # every turn is in: the worker is revealing the round
        return _("Revealing the round…")
    if viewer is not None and viewer in awaiting:
        return _("Your turn: choose an Action, apply its effects, then submit.")
    others = ", ".join(names[s] for s in awaiting)
    if viewer is not None and view["seats"][viewer]["submitted"]:
        return _("Your turn is in. Waiting for %(names)s.") % {"names": others}
    return _("Waiting for %(names)s to play their turn.") % {"names": others}


def is_my_move(view: Mapping[str, Any] | None) -> bool:
    if view is None or view["viewer"] is None:
        return False
    return bool(view["viewer"] in view["awaiting"])
