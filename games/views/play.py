"""The game page and everything played on it, for a game of any kind: the page, polling,
moves sent from a form, the replay and the record download.

Every view starts from ``game_for_viewer``; writes need a seat (else 403) and go through
``games.services``; what the game shows comes from its kind (``games.kinds``:
``page_context`` fills its ``play_template``). A request made by htmx gets the play region
back (``_play.html``), any other request the whole page, so everything works without
JavaScript. A game's own steps (Evergreen's turn builder) are its views, built on the
helpers here (``seated``, ``render_play``, ``refused``, ``after_write``).
"""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import clocks, drawings, kinds, pagecache, services, story
from ..access import game_for_viewer, with_seats
from ..kinds import Refusal
from ..models import Game, Seat
from ..ratelimit import RateLimited, check_move_rate
from . import quietpoll

POLL_SECONDS = 15


class PageError:
    """A refusal shown on the page: the game's or the service's code and message."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        self.message, self.code, self.status = message, code, status

    @classmethod
    def of(cls, exc: Exception) -> PageError:
        if isinstance(exc, services.ServiceError):
            return cls(exc.message, exc.code, exc.status)
        if isinstance(exc, Refusal):
            return cls(exc.message, exc.code, 400)
        raise exc


def seated(pk: int, user: Any) -> tuple[Game, Seat]:
    game, seat = game_for_viewer(pk, user)
    if seat is None:
        raise PermissionDenied(services.not_a_player().message)
    return game, seat


def seat_names(game: Game) -> list[str]:
    return [seat.name for seat in game.seats_in_order()]


def page_title(game: Game, names: list[str]) -> str:
    """The page's title: the game and its players. Worked out here rather than by the
    template's ``{% blocktranslate %}`` with a ``join``: 2% of a fresh render's CPU."""
    if not names:
        return str(game)
    return _("%(game)s: %(names)s") % {"game": game, "names": ", ".join(names)}


def int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _page_url(pk: int, *, steps: str = "", focus: int | None = None) -> str:
    params = {k: v for k, v in (("turn", steps), ("focus", focus)) if v not in ("", None)}
    url = reverse("games:detail", args=[pk])
    return f"{url}?{urlencode(params)}" if params else url


# --- The page -----------------------------------------------------------------------------


def _kind_templates(kind: kinds.GameKind) -> dict[str, Any]:
    return {
        "play_template": kind.play_template,
        "replay_template": kind.replay_template,
        "head_template": kind.head_template,
        "foot_template": kind.foot_template,
        **kind.page_words(),
    }


def _context(
    request: HttpRequest,
    game: Game,
    seat: Seat | None,
    *,
    steps: str | None = None,
    builder: Any = None,
    focus: int | None = None,
    error: PageError | Refusal | None = None,
) -> dict[str, Any]:
    kind = kinds.of(game)
    names = seat_names(game)
    context: dict[str, Any] = {
        "game": game,
        "seat": seat,
        "names": names,
        "game_title": page_title(game, names),
        "error": error,
        "version": game.version,
        "poll_seconds": POLL_SECONDS,
        "key": uuid.uuid4().hex,
        "steps": "",
        "view": None,
        "turn": None,
        **_kind_templates(kind),
    }
    if game.state is None:
        context["status"] = kind.status_text(None, names, game.status_name)
        context["seats"] = game.seats_in_order()
        context["can_join"] = (
            request.user.is_authenticated and seat is None and game.status == Game.Status.OPEN
        )
        context["poll"] = game.status == Game.Status.OPEN
        # The seated players pass the invitation on while seats are open.
        if seat is not None and game.status == Game.Status.OPEN:
            context["invite_url"] = request.build_absolute_uri(
                reverse("games:invite", args=[game.invite_code])
            )
        return context
    params = {
        "names": names,
        "steps": steps,
        "builder": builder,
        "focus": focus,
        "error": error,
        "status_key": game.status_name,
        "key": context["key"],
    }
    context["viewer"] = seat.position if seat else None
    context.update(kind.page_context(request, game, seat, params))
    context.update(story.page_context(game, seat, names))
    context["poll"] = not game.is_finished or context["poll_rematch"]
    now = timezone.now()
    context["clocks"] = clocks.seat_clocks(game, game.seats_in_order(), context["viewer"], now)
    context["time_control"] = clocks.time_control(game, seat, now)
    return context


def render_play(
    request: HttpRequest, game: Game, seat: Seat | None, *, status: int = 200, **kwargs: Any
) -> HttpResponse:
    context = _context(request, game, seat, **kwargs)
    # The page's one CSRF mask, for its template as for its kind's forms (``page_context``
    # asks ``drawings.page_token`` too): Django's context processor would mask another.
    context["csrf_token"] = drawings.page_token(request)
    htmx = request.htmx  # type: ignore[attr-defined]  # django_htmx's middleware sets it
    region = bool(htmx) and not htmx.history_restore_request
    template = "games/_play.html" if region else "games/detail.html"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def refused(request: HttpRequest, pk: int, exc: Exception, **kwargs: Any) -> HttpResponse:
    """The page (or region) as it is now, with the reason a write was refused."""
    error = PageError.of(exc)
    game, seat = game_for_viewer(pk, request.user)
    response = render_play(request, game, seat, status=error.status, error=error, **kwargs)
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)
    return response


def after_write(
    request: HttpRequest, pk: int, *, steps: str = "", written: Game | None = None
) -> HttpResponse:
    """htmx: the new region (and the address to come back to); otherwise redirect (303).
    ``written``: the game as the write left it (``SubmitResult.game``, its seats with it),
    or as the request read it when nothing was written (a step of the turn builder)."""
    url = _page_url(pk, steps=steps)
    if not request.htmx:  # type: ignore[attr-defined]
        return _see_other(url)
    game, seat = _as_written(written, request.user) or game_for_viewer(pk, request.user)
    response = render_play(request, game, seat, steps=steps)
    response["HX-Replace-Url"] = url
    return response


def _as_written(game: Game | None, user: Any) -> tuple[Game, Seat | None] | None:
    """The game a write has just committed, answered from without reading it and its seats
    again (as the API answers a move), when nothing left to run after the commit changes
    it: not with a round to reveal nor at the end of a game (a worker, or the tasks run at
    once, may have moved it on: read afresh). The view's guards ran before the write."""
    if game is None or game.needs_closing or game.status != Game.Status.ACTIVE:
        return None
    # The page reads the seats from ``game.seats_in_order()``, not the ones the write handed
    # on: read once here (after the commit, without a lock) unless the request's read
    # left them there (a step of the turn builder).
    game = with_seats(game, user)
    return game, services.seat_of(game, user)


def _see_other(url: str) -> HttpResponse:
    response = HttpResponse(status=303)
    response["Location"] = url
    return response


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The page; from the cache (``games.pagecache``) while nothing it shows has changed.
    ``QuickPageMiddleware`` serves most of those without the database; it comes here when
    it cannot vouch for the viewer, and the lookup is made again with the user loaded."""
    steps, focus = request.GET.get("turn"), int_or_none(request.GET.get("focus"))
    secret = pagecache.cacheable_secret(request)
    key = pagecache.page_key(request, pk, request.user.pk, secret) if secret else None
    language, zone = pagecache.viewer_now()
    if key is not None:
        response = pagecache.lookup(key, pk, language, zone)
        if response is not None:
            pagecache.remember_viewer(request.user)
            return response
    game, seat = game_for_viewer(pk, request.user)
    response = render_play(request, game, seat, steps=steps, focus=focus)
    if key is not None and response.status_code == 200:
        pagecache.store(key, game.version, language, zone, response.content)
        pagecache.remember_viewer(request.user)
    return response


@require_GET
def poll(request: HttpRequest, pk: int) -> HttpResponse:
    """204 while the game's version has not moved; the status bar alone while only moves
    hidden from the viewer were made (``quietpoll``); else the refreshed region.

    The page's poller (htmx) gets here only when ``QuickPollMiddleware`` found another
    version in the cache, so the game is read at once, with its seats, and its version
    compared there: no query for the version alone (a cache that dropped a published
    version still gets its 204)."""
    shown = request.GET.get("version", "")
    steps, focus = request.GET.get("turn", ""), int_or_none(request.GET.get("focus"))
    if not request.htmx:  # type: ignore[attr-defined]
        version = Game.objects.filter(pk=pk).values_list("version", flat=True).first()
        if version is None:
            raise Http404("No such game")
        if str(version) == shown:
            return HttpResponse(status=204)
        return _see_other(_page_url(pk, steps=steps, focus=focus))
    game, seat = game_for_viewer(pk, request.user)
    if str(game.version) == shown:
        return HttpResponse(status=204)
    if quietpoll.applies(game, seat, shown, steps):
        return quietpoll.answer(request, game, seat, focus, POLL_SECONDS)
    return render_play(request, game, seat, steps=steps, focus=focus)


# --- Writes ---------------------------------------------------------------------------------


def idempotency_key(request: HttpRequest) -> str | None:
    """The form's key as sent: one the service cannot store is refused there, as in the API."""
    return request.POST.get("key", "").strip() or None


@require_POST
@login_required
def move(request: HttpRequest, pk: int) -> HttpResponse:
    """A move sent from the page's form (its kind reads the form: ``move_from_form``),
    against the version the page showed."""
    game, _seat = seated(pk, request.user)
    version = int_or_none(request.POST.get("version"))
    try:
        if version is None:
            raise services.ServiceError(
                _("This form is incomplete: reload the page and try again."), "bad_form"
            )
        check_move_rate(request)
        result = services.submit_move(
            pk,
            request.user,
            kinds.of(game).move_from_form(request.POST),
            idempotency_key=idempotency_key(request),
            expected_version=version,
        )
    except services.ServiceError as exc:
        return refused(request, pk, exc)
    return after_write(request, pk, written=result.game)


# --- Replay and record ----------------------------------------------------------------------


@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """The game after move N (``?move=N``) as the viewer may see it."""
    game, seat = game_for_viewer(pk, request.user)
    kind = kinds.of(game)
    position = seat.position if seat else None
    context: dict[str, Any] = {
        "game": game,
        "started": game.state is not None,
        **_kind_templates(kind),
    }
    if game.state is None:
        return render(request, "games/replay.html", context)
    record = game.record()
    names = seat_names(game)
    total = len(record.moves)
    number = int_or_none(request.GET.get("move"))
    number = total if number is None else max(0, min(number, total))
    states = record.states()
    state = next(states)
    for _move in range(number):
        state = next(states)
    view = kind.player_view(state, position)
    lines = kind.describe_record(record, names)
    context.update(
        {
            "view": view,
            "number": number,
            "total": total,
            "previous": max(number - 1, 0),
            "next": min(number + 1, total),
            "moves": list(enumerate(lines, start=1)),
            "current_move": lines[number - 1] if number else _("The game is set up."),
            "status": kind.status_text(
                view, names, "finished" if kind.is_over(state) else "active"
            ),
            **kind.replay_context(game, record, state, position),
            **story.replay_context(game, state, position, names, number),
        }
    )
    return render(request, "games/replay.html", context)


@require_GET
def record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game record as a JSON download (no seed and no unrevealed turns while it runs)."""
    game, seat = game_for_viewer(pk, request.user)
    if game.state is None:
        raise Http404("This game has not started: it has no record yet.")
    kind = kinds.of(game)
    data = kind.record_for_viewer(
        game.record(),
        game.engine_state(),
        seat.position if seat else None,
        finished=game.is_finished,
    )
    response = JsonResponse(data, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{kind.name}-game-{game.pk}.json"'
    return response
