"""The analysis' pages: ask for it (from the replay), its panel (htmx polls it while the
task runs), and the hint (from the game page). Each calls ``services`` once; htmx gets
the fragment back, any other request the replay (after a redirect) or a small page, so
everything works without JavaScript."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from games.access import game_for_viewer
from games.ratelimit import check_move_rate
from games.services import ServiceError

from . import services
from .panel import panel_context


def _htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))  # django_htmx's middleware sets it


def _number(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("move") or request.GET.get("move") or "")
    except ValueError:
        return None


def _panel(
    request: HttpRequest, pk: int, error: ServiceError | None = None, status: int = 200
) -> HttpResponse:
    game, _seat = game_for_viewer(pk, request.user)
    context: dict[str, Any] = {**panel_context(game, request.user, _number(request))}
    context["error"] = error
    template = "analysis/_panel.html" if _htmx(request) else "analysis/page.html"
    return render(request, template, context, status=status)


@require_POST
@login_required
def ask(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask for the analysis of one's play in a finished game (or get the stored one)."""
    game_for_viewer(pk, request.user)  # 404 for no such game
    try:
        services.request_analysis(pk, request.user)
    except ServiceError as exc:
        # htmx swaps only successful answers on the replay: the refusal is in the fragment.
        return _panel(request, pk, exc, 200 if _htmx(request) else exc.status)
    if _htmx(request):
        return _panel(request, pk)
    number = _number(request)
    url = reverse("games:replay", args=[pk]) + (f"?move={number}" if number is not None else "")
    return HttpResponseRedirect(url + "#analysis-panel", status=303)


@require_GET
def panel(request: HttpRequest, pk: int) -> HttpResponse:
    """The analysis panel at ``?move=N`` (polled by htmx while the analysis runs)."""
    return _panel(request, pk)


@require_POST
@login_required
def hint(request: HttpRequest, pk: int) -> HttpResponse:
    """What the strong player would do now, for the asking player only."""
    game, _seat = game_for_viewer(pk, request.user)
    context: dict[str, Any] = {"game": game, "offered": True}
    status = 200
    try:
        check_move_rate(request)  # a hint costs a search: as many as moves, no more
        context["hint"] = services.hint(pk, request.user)
    except ServiceError as exc:
        context["error"], status = exc, exc.status
    if _htmx(request):
        return render(request, "analysis/_hint_box.html", context)
    return render(request, "analysis/hint.html", context, status=status)
