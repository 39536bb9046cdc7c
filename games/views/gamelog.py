"""The game log's earlier rounds, which the game page leaves out (``games.story``): asked
for by the log's link, they take the link's place. Without htmx the link opens the replay,
which shows the whole log; a request here then goes there too."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from .. import story
from ..access import game_for_viewer
from .play import int_or_none, seat_names


@require_GET
def earlier_rounds(request: HttpRequest, pk: int) -> HttpResponse:
    """The ``?rounds=N`` oldest rounds of the log, newest first, as the viewer may read
    them (the same gate and the same eyes as the page: nothing another seat may not see)."""
    if not request.htmx:  # type: ignore[attr-defined]  # django_htmx's middleware sets it
        return redirect("games:replay", pk=pk)
    game, seat = game_for_viewer(pk, request.user)
    count = int_or_none(request.GET.get("rounds")) or 0
    html = story.earlier_rounds_html(game, seat, seat_names(game), count) if game.state else ""
    response = HttpResponse(html)
    patch_vary_headers(response, ("HX-Request",))
    return response
