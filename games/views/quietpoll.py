"""The poll's answer when the game moved on only in ways this viewer may not see yet.

In a simultaneous round (Evergreen) every seat's pick and turn bump the game's version,
yet stay hidden from the other seats until the round is revealed. For a viewer whose page
shows a version since which nothing but such moves happened, the board, the log and the
forms are what a new render would show; only the status bar (who still has to move, the
clocks, the poller's version), the game log (it tells that a seat has moved) and what
the kind names (``unseen_move_parts``: Evergreen's score table marks who has moved)
differ. So the answer is those alone, swapped out of
band (``games/_status_oob.html``) in place of the page's, at a fraction of the cost of
the whole region. A kind whose moves are never hidden (Verdant) never gets here: its
``hidden_moves`` is empty, so every change is one the viewer sees.

The forms on the page keep the older version; the move service accepts them, by the same
rule (``services.unseen_changes_only``).
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from .. import clocks, kinds, services, story
from ..models import Game, Seat


def applies(game: Game, seat: Seat | None, shown: str, steps: str) -> bool:
    """Whether everything that changed since the version ``shown`` is hidden from the
    viewer (``seat``; None: a spectator), so the status bar is all there is to update.
    Not with a turn in progress (``steps``): its page may have to tell that it no longer
    holds, which the whole region does."""
    if game.state is None or game.status != Game.Status.ACTIVE or not shown.isdigit() or steps:
        return False
    return services.unseen_changes_only(game, seat.position if seat else None, int(shown))


FIRST_TAG = re.compile(r"^\s*<[a-zA-Z][a-zA-Z0-9-]*")


def out_of_band(html: str, selector: str) -> SafeString:
    """The element ``html`` marked to take the place of the one ``selector`` finds."""
    mark = f' hx-swap-oob="outerHTML:{escape(selector)}"'
    # ``html`` is the page's own, escaped where it was drawn.
    return mark_safe(FIRST_TAG.sub(lambda tag: tag.group(0) + mark, html, count=1))


def answer(
    request: HttpRequest, game: Game, seat: Seat | None, focus: int | None, poll_seconds: int
) -> HttpResponse:
    """The status bar and the other parts hidden moves change, at the game's version, out
    of band; the poller's own target (the play region) is left as it is."""
    kind = kinds.of(game)
    names = [s.name for s in game.seats_in_order()]
    params = {"names": names, "steps": "", "builder": None, "focus": focus, "error": None}
    context: dict[str, Any] = {
        "game": game,
        "seat": seat,
        "version": game.version,
        "poll_seconds": poll_seconds,
        "poll": True,  # an active game (``applies``)
        "steps": "",
        "focus": focus,
        **kind.status_context(request, game, seat, {**params, "status_key": game.status_name}),
        "error": None,
        "story_html": story.page_context(game, seat, names)["story_html"],
    }
    now = timezone.now()
    viewer = seat.position if seat else None
    context["clocks"] = clocks.seat_clocks(game, game.seats_in_order(), viewer, now)
    context["time_control"] = clocks.time_control(game, seat, now)
    parts = kind.unseen_move_parts(context)
    if context["story_html"].strip():  # it tells that a seat has moved ("Bob planned ...")
        parts["#play .panel.story"] = context["story_html"]
    context["oob_parts"] = [out_of_band(html, selector) for selector, html in parts.items()]
    response = render(request, "games/_status_oob.html", context)
    response["HX-Reswap"] = "none"
    patch_vary_headers(response, ("HX-Request",))
    return response
