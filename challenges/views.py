"""The daily challenge's pages: today's challenges with their leaderboards, a start
button, and the board of an earlier day."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from games.services import ServiceError

from . import days, presenters, services
from .board import board


@require_safe
def daily(request: HttpRequest) -> HttpResponse:
    return render(
        request, "challenges/daily.html", {"challenges": presenters.every_kind(request.user)}
    )


@require_POST
@login_required
def start(request: HttpRequest, kind: str) -> HttpResponse:
    """Start today's game of the kind, or go back to the one already started."""
    try:
        entry, _created = services.start(request.user, kind)
    except ServiceError as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        messages.error(request, exc.message)
        return redirect("challenges:daily")
    return redirect(entry.game)


@require_safe
def day_board(request: HttpRequest, kind: str, day: str) -> HttpResponse:
    """The leaderboard of one day (hidden, as today's, until the viewer has finished). The
    day is written ``YYYY-MM-DD`` as the API's (``days.from_iso``): one address per board."""
    when = days.from_iso(day)
    try:
        challenge = services.on_day(when, kind) if when is not None else None
    except ServiceError:
        raise Http404("No such challenge") from None
    if challenge is None:
        raise Http404("No such challenge")
    context = {
        "board": board(challenge, request.user),
        "title": services.challenge_kind(kind).title,
        "entry": services.entry_of(challenge, request.user),
    }
    return render(request, "challenges/day.html", context)
