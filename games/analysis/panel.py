"""The analysis panel of the replay and the hint box of the game page: their context,
built the same way whether the page includes them or htmx asks for them alone."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games import kinds
from games.models import Game, Seat

from . import services
from .hints import seat_hints
from .models import Analysis
from .summary import present


def _seat(game: Game, user: Any) -> Seat | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in game.seats_in_order() if s.user_id == user.pk), None)


def _names(game: Game) -> list[str]:
    return [seat.name for seat in game.seats_in_order()]


def panel_context(game: Game, user: Any, number: int | None) -> dict[str, Any]:
    """What ``analysis/_panel.html`` shows to ``user`` at move ``number`` of the replay:
    nothing (``offered`` false) to a spectator, in a running game or a kind without
    analysis; else the button, the progress, or the analysis and this step's review."""
    context: dict[str, Any] = {"game": game, "number": number, "offered": False}
    if kinds.of(game).analyst is None or game.status != Game.Status.FINISHED:
        return context
    if _seat(game, user) is None:
        return context
    context["offered"] = True
    analysis = services.analysis_of(game, user)
    context["analysis"] = analysis
    if analysis is None:
        context["left_today"] = max(0, settings.ANALYSIS_DAILY_LIMIT - services.asked_today(user))
        return context
    data = present(analysis, _names(game))
    context.update(data)
    context["failed"] = analysis.status == Analysis.Status.FAILED
    context["current"] = next((r for r in data["reviews"] if r["move"] == number), None)
    return context


def hint_context(game: Game, user: Any) -> dict[str, Any]:
    """What ``analysis/_hint_page.html`` shows: the button, only where hints are allowed,
    and the hints each player took (a finished game tells them in its ending instead)."""
    if game.status == Game.Status.FINISHED:
        return {"game": game, "offered": False, "hint_uses": []}
    offered = services.hints_allowed(game, _seat(game, user))
    return {"game": game, "offered": offered, "hint_uses": seat_hints(game)}
